// The pattern statement (https://learn.microsoft.com/kusto/query/pattern-statement): declaration,
// invocation with and without a path in each of the page's spellings, and the errors at their
// positions. Values run on DuckDB through the in-process compiler.
import { describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';

const options: CompileOptions = {
  dialect: 'duckdb',
  scope: { customerId: 'c', plantIds: null, startTime: '2024-03-01T00:00:00Z', endTime: '2024-03-02T00:00:00Z' },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
};

function failure(text: string): QueryError {
  try {
    compile(text, options);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${text} to fail`);
}

const app =
  'declare pattern app = (id:string)[kind:string] {\n' +
  '  ("X").["Start"] = { print e = "start" };\n' +
  '  ("X").["Stop"] = { print e = "stop" };\n' +
  '};\n';

describe('pattern statement', () => {
  it("reads the page's four spellings of one invocation as the same mapping (normalization)", () => {
    // Act
    const compiled = compile(
      `${app}union app("X").Start, app('X').Start, app("X").['Start'], app("X").["Start"]`,
      options,
    );
    // Assess: one mapping, read four times; the other mapping is not compiled.
    expect(compiled.columns).toEqual([{ name: 'e', type: 'string' }]);
    expect(compiled.sql).toContain("'start'");
    expect(compiled.sql).not.toContain("'stop'");
  });

  it('compiles only the invoked mappings: an unused one naming what does not exist is no error', () => {
    const compiled = compile(
      'declare pattern p = (a:string) { ("ok") = { print v = 1 }; ("bad") = { NoSuchTable }; };\np("ok")',
      options,
    );
    expect(compiled.columns).toEqual([{ name: 'v', type: 'long' }]);
  });

  it('lets an invocation stand wherever a table does: a let, a join, a later batch statement', () => {
    // Act
    const joined = compile(`${app}let s = app("X").Start; s | join kind=inner (app("X").Start) on e`, options);
    const batch = compile(`${app}print 1; app("X").Stop | extend n = 2`, { ...options, resultTable: 1 });
    // Assess
    expect(joined.columns.map((c) => c.name)).toEqual(['e', 'e1']);
    expect(batch.columns.map((c) => c.name)).toEqual(['e', 'n']);
  });

  it.each([
    [`${app}app("X")`, 'QUERY_SEMANTIC', '5:1', `Detected pattern references: ["app('X')"]`],
    [`${app}app("Y").Start`, 'QUERY_SEMANTIC', '5:1', `Detected pattern references: ["app('Y').['Start']"]`],
    [`${app}app("X", "Y").Start`, 'QUERY_SEMANTIC', '5:1', `["app('X', 'Y').['Start']"]`],
    [`${app}app(strcat("X")).Start`, 'QUERY_SEMANTIC', '5:5', 'an argument of a pattern must be a string literal'],
    ['declare pattern p = (a:long) { (1) = { print 1 }; }; p(1)', 'QUERY_SEMANTIC', '1:24', "strings, not 'long'"],
    [
      'declare pattern p = (a:string, b:string) { ("x") = { print 1 }; }; print 1',
      'QUERY_SEMANTIC',
      '1:44',
      'the pattern declares 2 argument(s), this mapping gives 1',
    ],
    [
      'declare pattern p = (a:string) { ("x") = { print 1 }; ("x") = { print 2 }; }; print 1',
      'QUERY_SEMANTIC',
      '1:55',
      "p('x') is defined twice",
    ],
    [
      'declare pattern p = (a:string)[b:string] { ("x") = { print 1 }; }; print 1',
      'QUERY_SYNTAX',
      '1:50',
      "expected .['value'] after the mapping's arguments",
    ],
    ['declare pattern p = (a:string) { ("x") = { print 1 } }; print 1', 'QUERY_SYNTAX', '1:54', "expected ';'"],
  ])('refuses %j', (text, code, at, message) => {
    const error = failure(text);
    expect(error.code).toBe(code);
    expect(error.message.startsWith(`${at}: `)).toBe(true);
    expect(error.message).toContain(message);
  });
});
