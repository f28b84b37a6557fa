// macro-expand (https://learn.microsoft.com/kusto/query/macro-expand-operator): the union of the
// subquery run once per entity of the group, as the page's rewrite without macro-expand shows; entity
// groups written in place or declared by `let G = entity_group [...]`; cluster() refused at its word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';
import { TableAnswer } from '../../../lib/query-api/answer';
import { responseColumn } from '../../../lib/query-api/columns';
import { TELEMETRY_DDL } from '../../../lib/telemetry/duckdb-layout';
import { memoryEngine, type MemoryEngine } from '../../support/memory-engine';

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

const lets =
  'let A = datatable(k:string, v:long)["x", 1, "x", 5, "y", 7];\n' +
  'let B = datatable(k:string, v:long)["x", 9, "z", 2, "z", 3];\n';

describe('macro-expand', () => {
  let memory: MemoryEngine;
  beforeAll(async () => {
    memory = await memoryEngine({ ddl: TELEMETRY_DDL });
  });
  afterAll(() => memory?.close());

  async function rows(text: string): Promise<unknown[][]> {
    const compiled = compile(text, options);
    const answer = new TableAnswer(compiled.columns.map(responseColumn), { rowLimit: 100, maxResponseBytes: 1e6 });
    await memory.engine.run(
      compiled.sql,
      compiled.columns.map((c) => c.type),
      answer,
      { signal: new AbortController().signal },
    );
    return answer.finish().data.rows as unknown[][];
  }

  it("answers as the page's rewrite: a union of the subquery per entity, then the operators after it", async () => {
    // Prepare
    const sub = '| where v > 1 | summarize Count = count() by k';
    const macro = `${lets}macro-expand entity_group [A, B] as X (X ${sub})\n| summarize Sum = sum(Count) by k | sort by k asc`;
    const union = `${lets}union (A ${sub}), (B ${sub})\n| summarize Sum = sum(Count) by k | sort by k asc`;
    // Act
    const [expanded, written] = [await rows(macro), await rows(union)];
    // Assess
    expect(expanded).toEqual([
      ['x', 2],
      ['y', 1],
      ['z', 2],
    ]);
    expect(expanded).toEqual(written);
  });

  it('reads a group declared by let, kind=inner keeping the common columns', () => {
    const text = `${lets}let G = entity_group [A, B];\nmacro-expand kind=inner G as X (X | extend only = 1)`;
    expect(compile(text, options).columns.map((c) => c.name)).toEqual(['k', 'v', 'only']);
    const outer = `let A = print a = 1; let B = print b = 2;\nmacro-expand entity_group [A, B] as X (X)`;
    expect(compile(outer, options).columns.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it("reads X.T of the caller's own database entity as that database's table", () => {
    const text = "macro-expand entity_group [database('cust-a')] as X (X.States | count)";
    expect(compile(text, options).columns).toEqual([{ name: 'Count', type: 'long' }]);
    expect(failure("macro-expand entity_group [database('other')] as X (X.States)").message).toMatch(
      /^1:37: unknown database 'other'/,
    );
  });

  it('nests with distinct identifiers, each entity of the outer group with each of the inner', async () => {
    const text = `${lets}macro-expand entity_group [A, B] as X (macro-expand entity_group [A, B] as Y (X | join kind=inner (Y) on k | project k)) | count`;
    // x: 2 rows in A, 1 in B; y: 1 in A; z: 2 in B. Pairs (A,A) 4+1, (A,B) 2, (B,A) 2, (B,B) 1+4.
    expect(await rows(text)).toEqual([[14]]);
  });

  it.each([
    [
      "macro-expand entity_group [cluster('C1').database('K')] as X (X.T)",
      'QUERY_UNSUPPORTED',
      '1:28',
      'cluster() is not supported',
    ],
    ['macro-expand G as X (X)', 'QUERY_SEMANTIC', '1:14', "'G' is not an entity group"],
    ['macro-expand entity_group [Nope] as X (X)', 'QUERY_SEMANTIC', '1:28', "'Nope' does not refer to any known table"],
    [
      'macro-expand entity_group [States] as X (macro-expand entity_group [Events] as X (X))',
      'QUERY_SEMANTIC',
      '1:80',
      'already names',
    ],
    [
      "macro-expand entity_group [database('cust-a')] as X (X.$current_database)",
      'QUERY_UNSUPPORTED',
      '1:56',
      '$current_database is not supported',
    ],
    ['print 1 | macro-expand entity_group [States] as X (X)', 'QUERY_UNSUPPORTED', '1:11', 'macro-expand'],
  ])('refuses %j', (text, code, at, message) => {
    const error = failure(text);
    expect(error.code).toBe(code);
    expect(error.message.startsWith(`${at}: `)).toBe(true);
    expect(error.message).toContain(message);
  });
});
