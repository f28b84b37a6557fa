// The restrict statement (https://learn.microsoft.com/kusto/query/restrict-statement) and the alias
// statement (https://learn.microsoft.com/kusto/query/alias-statement): what stays visible after a
// restrict, by position (a view written before it keeps reading its table), and the one alias form
// this service has a database for; each refusal at its position.
import { describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';

const options: CompileOptions = {
  dialect: 'duckdb',
  scope: { customerId: 'c', plantIds: null, startTime: '2024-03-01T00:00:00Z', endTime: '2024-03-02T00:00:00Z' },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
  identity: { principal: 'aadapp=x;t', database: 'cust-a' },
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
const columns = (text: string) => compile(text, options).columns.map((c) => c.name);

describe('restrict statement', () => {
  it.each([
    [
      'a view written before it reads its table',
      'let V = view () { States | project Name }; restrict access to (V); V',
      ['Name'],
    ],
    ['* keeps the lets', 'let V = States | take 1; restrict access to (*); V | count', ['Count']],
    ['database().* keeps the tables', 'restrict access to (database().*); Events | count', ['Count']],
    ['database().T names a table', 'restrict access to (database().States); States | count', ['Count']],
    [
      'a let after it is its own entity',
      'let V = print 1; restrict access to (V); let Events = print e = 2; Events',
      ['e'],
    ],
    ['a named table read through table()', 'restrict access to (States); table("States") | count', ['Count']],
    [
      'a named pattern',
      'declare pattern p = (a:string) { ("x") = { print v = 1 }; }; restrict access to (p); p("x")',
      ['v'],
    ],
  ])('lets through %s', (_, text, expected) => {
    expect(columns(text)).toEqual(expected);
  });

  it.each([
    [
      'a table it does not name',
      'let V = view () { States }; restrict access to (V); States',
      "1:53: 'States' is not accessible",
    ],
    [
      'a table through table()',
      'let V = print 1; restrict access to (V); table("Events")',
      "1:48: 'Events' is not accessible",
    ],
    [
      'a let it does not name',
      'let V = print 1; let W = print 2; restrict access to (V); W',
      "1:59: 'W' is not accessible",
    ],
    [
      'a function it does not name',
      'let f = () { print 1 }; restrict access to (States); f()',
      "1:54: 'f' is not accessible",
    ],
    ['a table behind *', 'let V = print 1; restrict access to (*); Events', "1:42: 'Events' is not accessible"],
    [
      'a wildcard leg matching a hidden table',
      'restrict access to (States); union E*',
      "1:36: 'Events' is not accessible",
    ],
    [
      'a pattern it does not name',
      'declare pattern p = (a:string) { ("x") = { print v = 1 }; }; restrict access to (States); p("x")',
      "1:91: 'p' is not accessible",
    ],
    [
      'a later let of a hidden name reading it in its own body',
      'restrict access to (States); let Events = Events; Events | count',
      "1:43: 'Events' is not accessible",
    ],
    [
      'a later let of a hidden name reading it under an operator',
      'restrict access to (States); let Events = Events | where true; Events | count',
      "1:43: 'Events' is not accessible",
    ],
    [
      "a hidden table in a macro-expand's entity group",
      'restrict access to (States); macro-expand entity_group [Events] as X (X | count)',
      "1:57: 'Events' is not accessible",
    ],
    [
      'a hidden table of an entity group declared before it, at the entity identifier',
      'let G = entity_group [Events]; restrict access to (States); macro-expand G as X (X | count)',
      "1:82: 'Events' is not accessible",
    ],
    [
      'an unknown name in the list',
      'restrict access to (Nope); print 1',
      "1:21: 'Nope' does not refer to any known table",
    ],
  ])('refuses %s at the name', (_, text, message) => {
    const error = failure(text);
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toContain(message);
  });

  it('applies to the statements of a batch after it only', () => {
    const text = 'Events | count; restrict access to (States); Events';
    expect(compile(text, { ...options, resultTable: 0 }).columns).toHaveLength(1);
    expect(() => compile(text, { ...options, resultTable: 1 })).toThrow("1:46: 'Events' is not accessible");
  });

  it('lets a later let of a hidden name stand for it only in the statements after the let', () => {
    // Prepare: statement 0 reads Events before the let of that name, statement 1 after it.
    const text = 'restrict access to (States); Events | count; let Events = States; Events | count';
    // Act
    const before = () => compile(text, { ...options, resultTable: 0 });
    const after = compile(text, { ...options, resultTable: 1 });
    // Assess
    expect(before).toThrow(/^1:30: 'Events' is not accessible/);
    expect(after.columns.map((c) => c.name)).toEqual(['Count']);
    expect(after.sql).not.toMatch(/"Events"|\bevents\b/i);
  });

  it('refuses another database in the list and a second restrict statement', () => {
    expect(failure('restrict access to (database("x").T); print 1')).toMatchObject({ code: 'QUERY_UNSUPPORTED' });
    const second = failure('restrict access to (States); restrict access to (Events); States');
    expect(second.code).toBe('QUERY_UNSUPPORTED');
    expect(second.message).toMatch(/^1:30: a query may hold one restrict statement/);
  });
});

describe('alias statement', () => {
  it("reads database('Alias') as the caller's own database, the alias compared without case", () => {
    expect(columns('alias database ["My DB"] = database("CUST-A"); database("my db").States | count')).toEqual([
      'Count',
    ]);
  });

  it('refuses cluster() at its word and an alias of another database where it is used', () => {
    const cluster = failure(
      'alias database samplesAlias = cluster("https://help.kusto.windows.net").database("Samples");\nprint 1',
    );
    expect(cluster.code).toBe('QUERY_UNSUPPORTED');
    expect(cluster.message).toMatch(/^1:31: cluster\(\) is not supported: cross-cluster queries are not offered/);
    const other = failure('alias database a = database("other"); database("a").States');
    expect(other.code).toBe('QUERY_SEMANTIC');
    expect(other.message).toMatch(/^1:48: unknown database 'other'/);
  });
});
