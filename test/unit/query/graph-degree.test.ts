// node_degree_in() and node_degree_out() (lib/query/graph-degree.ts) beyond their pages' examples
// (in the conformance corpus, op-fns11-node-degree-*.json): repeated edges and self-loops, nodes
// without edges, the argument-less form over inner_nodes(), graph-shortest-paths, and the errors.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';
import { sortedRows } from './duckdb-rows';

const duck = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };

/** A -> B twice, A -> A, C -> A, B -> D; D also a node row, E a node row with no edge. */
const GRAPH =
  'let E = datatable(s:string, t:string)["A","B", "A","B", "A","A", "C","A", "B","D"];\n' +
  'let N = datatable(id:string)["A", "B", "C", "D", "E"];\n' +
  'E | make-graph s --> t with N on id\n';

describe('node_degree_in and node_degree_out', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const rows = (query: string): Promise<unknown[][]> => sortedRows(db, query);

  it('counts every edge row, a self-loop once each way, and 0 for a node without edges', async () => {
    // Act
    const result = await rows(`${GRAPH}| graph-match (n) project n.id, i = node_degree_in(n), o = node_degree_out(n)`);
    // Assess
    expect(result).toEqual([
      ['A', 2, 3],
      ['B', 2, 1],
      ['C', 0, 1],
      ['D', 1, 0],
      ['E', 0, 0],
    ]);
  });

  it('counts no edge with a null end, which no pattern matches either', async () => {
    // Arrange
    const graph =
      'let E = datatable(s:long, d:long)[1,2, 1,long(null), long(null),2, long(null),long(null)];\n' +
      'let N = datatable(id:long)[1,2];\nE | make-graph s --> d with N on id\n';
    // Act
    const degrees = await rows(`${graph}| graph-match (n) project n.id, i = node_degree_in(n), o = node_degree_out(n)`);
    const matched = await rows(`${graph}| graph-match (x)-[e]->(y) project x.id, y.id`);
    // Assess
    expect(degrees).toEqual([
      [1, 0, 1],
      [2, 1, 0],
      [null, 0, 0],
    ]);
    expect(matched).toEqual([[1, 2]]);
  });

  it('filters in where, and names an unnamed call after the function', async () => {
    // Act
    const compiled = compile(
      `${GRAPH}| graph-match (a)-[e]->(b) where node_degree_out(b) == 0 project a.id, node_degree_in(b)`,
      duck,
    );
    const result = convertRows(await runSql(db, compiled.sql), ['string', 'long']);
    // Assess
    expect(compiled.columns).toEqual([
      { name: 'a_id', type: 'string' },
      { name: 'node_degree_in', type: 'long' },
    ]);
    expect(result).toEqual([['B', 1]]);
  });

  it('without an argument over inner_nodes(), gives each inner node its degree', async () => {
    // Act
    const result = await rows(
      `${GRAPH}| graph-match (a)-[e*2..2]->(b) where a.id == "C" project b.id, d = map(inner_nodes(e), node_degree_out()), hub = any(inner_nodes(e), node_degree_in() >= 2)`,
    );
    // Assess: C -> A -> B (twice, two edges) and C -> A -> A (the self-loop).
    expect(result).toEqual([
      ['A', [3], true],
      ['B', [3], true],
      ['B', [3], true],
    ]);
  });

  it('reads the last node of graph-shortest-paths', async () => {
    // Act
    const result = await rows(
      `${GRAPH}| graph-shortest-paths (a)-[e*1..3]->(b) where a.id == "C" project b.id, i = node_degree_in(b)`,
    );
    // Assess
    expect(result).toEqual([
      ['A', 2],
      ['B', 2],
      ['D', 1],
    ]);
  });

  it.each([
    [`${GRAPH}| graph-match (a)-[e]->(b) project node_degree_in(e)`, 'node_degree_in() reads a node variable', '4:36'],
    [
      `${GRAPH}| graph-match (a)-[e]->(b) project node_degree_out(x)`,
      'node_degree_out() reads a node variable',
      '4:36',
    ],
    [`${GRAPH}| graph-match (a)-[e]->(b) project node_degree_in()`, 'map(inner_nodes(e), node_degree_in())', '4:36'],
    [
      `${GRAPH}| graph-match (a)-[e*1..2]->(b) project map(e, node_degree_out())`,
      'map(inner_nodes(e), node_degree_out())',
      '4:48',
    ],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });
});
