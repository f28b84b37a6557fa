// Names passed between the statements of a batch (statements-names.ts): a later statement reads a
// name an earlier one gave with `as` (or graph-to-table's `nodes as N, edges as E`) as a let of that
// statement's expression, run in its own compile. Rows come from DuckDB.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, resultTableNames, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

const GRAPH =
  'let E = datatable(s:string, t:string, w:long)["A","B",1, "B","C",2];\n' +
  'let N = datatable(id:string, color:string)["A","red", "B","blue", "C","green"];\n' +
  'E | make-graph s --> t with N on id | graph-to-table nodes as Nodes with_node_id=Id, edges as Edges with_target_id=T;\n';

describe('names passed between the statements of a batch', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function table(text: string, resultTable: number): Promise<{ columns: string[]; rows: unknown[][] }> {
    const compiled = compile(text, { ...options, resultTable });
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return { columns: compiled.columns.map((c) => `${c.name}:${c.type}`), rows };
  }
  const sorted = (rows: unknown[][]): string[] => rows.map((r) => JSON.stringify(r)).sort();

  it('reads a name an earlier statement gave with as, and answers both statements', async () => {
    // Prepare
    const text = 'print 1 | as X; X | extend y = 2';
    // Act
    const names = resultTableNames(text);
    const first = await table(text, 0);
    const second = await table(text, 1);
    // Assess
    expect(names).toEqual(['X', 'PrimaryResult']);
    expect(first.rows).toEqual([[1]]);
    expect(second).toEqual({ columns: ['print_0:long', 'y:long'], rows: [[1, 2]] });
  });

  it('reads a name given by an as in the middle of a statement as the expression before it', async () => {
    // Act
    const second = await table('range x from 1 to 5 step 1 | as R | where x > 3; R | count', 1);
    // Assess
    expect(second.rows).toEqual([[5]]);
  });

  it("keeps the as name for union's withsource= in the later statement (as operator page)", async () => {
    // Act
    const second = await table(
      'range x from 1 to 2 step 1 | as T1; union withsource=TableName T1 | summarize n = count() by TableName',
      1,
    );
    // Assess
    expect(second.rows).toEqual([['T1', 2]]);
  });

  it('reads the named expression with the lets its statement saw, and a later let hides the name', async () => {
    // Prepare: the second statement's k is not the one X was computed with; the third's X is the let.
    const text = 'let k = 1; print v = k | as X; let k = 2; X | extend w = k; let X = print v = 9; X';
    // Act
    const second = await table(text, 1);
    const third = await table(text, 2);
    // Assess
    expect(second.rows).toEqual([[1, 2]]);
    expect(third.rows).toEqual([[9]]);
  });

  it("reads a name a fork leg's as gave: the operators before the fork, then the leg's up to the as", async () => {
    // Prepare: the first leg names its rows after a where; its count comes after the as.
    const text = 'range x from 1 to 6 step 1 | where x > 1 | fork (where x > 3 | as Big | count) (count); Big';
    // Act
    const names = resultTableNames(text);
    const big = await table(text, 2);
    // Assess
    expect(names).toEqual(['PrimaryResult', 'PrimaryResult', 'PrimaryResult']);
    expect(big.rows).toEqual([[4], [5], [6]]);
  });

  it("does not read a fork leg's name= as a table, as Kusto.Language does not", () => {
    // Act
    const error = compileFailure('range x from 1 to 3 step 1 | fork Small=(take 1) (count); Small', {
      ...options,
      resultTable: 2,
    });
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(/unknown table 'Small'/);
  });

  it('does not give a name to the statements before the one that gives it', () => {
    // Act
    const error = compileFailure('X; print 1 | as X', { ...options, resultTable: 0 });
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(/^1:1: unknown table 'X'/);
  });

  it('answers graph-to-table of nodes and edges in a batch only through the statements that read its names', async () => {
    // Prepare
    const text = `${GRAPH}Nodes | project name = id, color;\nEdges | where s == "A"`;
    // Act
    const names = resultTableNames(text);
    const nodes = await table(text, 0);
    const edges = await table(text, 1);
    // Assess
    expect(names).toEqual(['PrimaryResult', 'PrimaryResult']);
    expect(sorted(nodes.rows)).toEqual(
      sorted([
        ['A', 'red'],
        ['B', 'blue'],
        ['C', 'green'],
      ]),
    );
    expect(edges.columns).toEqual(['T:long', 's:string', 't:string', 'w:long']);
    expect(edges.rows.map((r) => r.slice(1))).toEqual([['A', 'B', 1]]);
  });

  it('answers graph-to-table of nodes and edges alone as its two tables, named by as', async () => {
    // Prepare
    const text = GRAPH.replace(/;\n$/, '');
    // Act
    const names = resultTableNames(text);
    const nodes = await table(text, 0);
    const edges = await table(text, 1);
    // Assess
    expect(names).toEqual(['Nodes', 'Edges']);
    expect(nodes.columns).toEqual(['Id:long', 'id:string', 'color:string']);
    expect(nodes.rows).toHaveLength(3);
    expect(edges.rows).toHaveLength(2);
  });

  it('answers graph-to-table of nodes and edges as the last statement of a batch as its two tables', async () => {
    // Prepare
    const text = `print 1;\n${GRAPH.replace(/;\n$/, '')}`;
    // Act
    const names = resultTableNames(text);
    const edges = await table(text, 2);
    // Assess
    expect(names).toEqual(['PrimaryResult', 'Nodes', 'Edges']);
    expect(edges.rows).toHaveLength(2);
  });

  it('lists the one table of a batch whose first statement only names tables, so the batch is answered', async () => {
    // Prepare
    const text = `${GRAPH}Edges | count`;
    // Act
    const names = resultTableNames(text);
    const counted = await table(text, 0);
    // Assess
    expect(names).toEqual(['PrimaryResult']);
    expect(counted.rows).toEqual([[2]]);
  });

  it('refuses graph-to-table of nodes and edges inside a let, at the graph-to-table', () => {
    // Act
    const error = compileFailure(
      `${GRAPH.split('E | make')[0]}let G = E | make-graph s --> t | graph-to-table nodes as A, edges as B; G`,
      options,
    );
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(
      /^3:34: graph-to-table of nodes and edges returns two tables: it ends a statement of a batch/,
    );
  });

  it('refuses graph-to-table of two tables that are not nodes then edges, or not both named', () => {
    // Act
    const swapped = compileFailure(
      `${GRAPH.split('E | make')[0]}E | make-graph s --> t | graph-to-table edges as B, nodes as A`,
      options,
    );
    const unnamed = compileFailure(
      `${GRAPH.split('E | make')[0]}E | make-graph s --> t | graph-to-table nodes, edges as B`,
      options,
    );
    // Assess
    expect(swapped.message).toContain('graph-to-table of two tables exports nodes, then edges');
    expect(unnamed.message).toContain('graph-to-table of nodes and edges names each table');
    expect([swapped.code, unnamed.code]).toEqual(['QUERY_SYNTAX', 'QUERY_SYNTAX']);
  });
});
