// What the eighth sweep of the documentation's examples (graph, geospatial and time series pages,
// the last library pages) changed: a join's right column renamed for a clash also skips the right
// side's own names (detect_anomalous_access_cf_fl); a variable-length edge's hop bounds may name a
// constant (graph_path_discovery_fl's `*minPathLength..maxPathLength`, a function's parameters);
// graph-shortest-paths takes cycles= beside output=, in either order (graph_node_centrality_fl);
// output=any keeps the path whose edges come first in the input (the graph-shortest-paths page);
// tabular operators may follow the graph operator inside partitioned-by's parentheses, run per
// partition (graph_path_discovery_fl's `| limit resultCountLimit`); graph-merge is refused at its
// word, saying what to do instead (it read as 'graph' after make-graph, a graph let as a table).
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';
import { columnsAndRows } from './duckdb-rows';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

/** The query's columns (name:type) and its rows on DuckDB. */
const run = (query: string): ReturnType<typeof columnsAndRows> => columnsAndRows(db, query);

describe('join column names', () => {
  it.each([
    // detect_anomalous_access_cf_fl: (entity, resource, ...) join (resource, resource1, ...) reads resource2.
    [
      'let a = datatable(entity:string, resource:string, scope:string)["u","r1","s"];\n' +
        'let b = datatable(resource:string, resource1:string, scope:string)["r2","r1","s"];\n' +
        'a | join kind=inner (b) on scope, $left.resource == $right.resource1 | project entity, resource2, resource1',
      ['entity:string', 'resource2:string', 'resource1:string'],
      [['u', 'r2', 'r1']],
    ],
    // Kusto.Language: a1 and a2 are the right side's own names, so its a becomes a3 and its a1 a11.
    [
      'let a = datatable(a:long, a1:long)[1, 10]; let b = datatable(a:long, a1:long, a2:long)[1, 20, 30]; a | join b on a',
      ['a:long', 'a1:long', 'a3:long', 'a11:long', 'a2:long'],
      [[1, 10, 1, 20, 30]],
    ],
  ])('%s', async (query, columns, rows) => {
    // Act
    const result = await run(query);
    // Assess
    expect(result.columns).toEqual(columns);
    expect(result.rows).toEqual(rows);
  });
});

/** A chain A -> B -> C -> D. */
const CHAIN = 'let E = datatable(s:string, t:string)["A","B", "B","C", "C","D"];\n';

describe('hop bounds that name a constant', () => {
  it.each([
    // A let of the upper bound: paths of 1 and 2 hops from A.
    [
      `let n = 2; ${CHAIN}E | make-graph s --> t with_node_id=id | graph-match (x)-[e*1..n]->(y) where x.id == "A" project y.id`,
      [['B'], ['C']],
    ],
    // A function's parameters with their defaults (graph_path_discovery_fl's form), and with arguments.
    [
      `let f = (lo:long = 1, hi:long = 3) { ${CHAIN}E | make-graph s --> t with_node_id=id | graph-match (x)-[e*lo..hi]->(y) where x.id == "A" project y.id }; f()`,
      [['B'], ['C'], ['D']],
    ],
    [
      `let f = (lo:long = 1, hi:long = 3) { ${CHAIN}E | make-graph s --> t with_node_id=id | graph-match (x)-[e*lo..hi]->(y) where x.id == "A" project y.id }; f(2, 2)`,
      [['C']],
    ],
    // A conversion of a constant is that constant (Kusto.Language accepts toint(2) where int(2) goes).
    [
      `let n = toint(2); ${CHAIN}E | make-graph s --> t with_node_id=id | graph-match (x)-[e*1..n]->(y) where x.id == "A" project y.id`,
      [['B'], ['C']],
    ],
    [
      `let n = tolong(3); ${CHAIN}E | make-graph s --> t with_node_id=id | graph-match (x)-[e*n..n]->(y) where x.id == "A" project y.id`,
      [['D']],
    ],
  ])('%s', async (query, rows) => {
    // Act
    const result = await run(query);
    // Assess
    expect(result.rows).toEqual(rows);
  });

  it.each([
    ['let n = "2";', 'a hop bound must be a constant whole number', '2:130'],
    ['let n = 3; let m = 1;', "the hops' upper bound 1 is below the lower bound 3", '2:126'],
    // toint of a value past 32 bits is null (toint page): no bound.
    ['let n = toint(3000000000);', 'a hop bound must be a constant whole number', '2:130'],
  ])('refuses %s', (lets, message, position) => {
    // Act and assess
    expectRefusedAt(
      `${lets}\n${CHAIN.trim()} E | make-graph s --> t with_node_id=id | graph-match (x)-[e*${lets.includes('m') ? 'n..m' : '1..n'}]->(y) project y.id`,
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
      { code: 'QUERY_SEMANTIC', message, position },
    );
  });
});

describe('graph-shortest-paths options', () => {
  // A -> B -> C -> A and a shortcut A -> C.
  const cycle = 'let E = datatable(s:string, t:string)["A","B", "B","C", "C","A", "A","C"];\n';
  it.each(['output = all cycles = none', 'cycles=none output=all', 'cycles = "all"   output = all'])(
    'reads %s',
    async (options) => {
      // Act
      const result = await run(
        `${cycle}E | make-graph s --> t with_node_id=id | graph-shortest-paths ${options} (x)-[e*1..3]->(y) where x.id == "A" project y.id, hops = array_length(e.s)`,
      );
      // Assess: C by the one-hop shortcut only, no path back to A.
      expect(result.rows).toEqual(
        expect.arrayContaining([
          ['B', 1],
          ['C', 1],
        ]),
      );
      expect(result.rows).toHaveLength(2);
    },
  );

  it('refuses output= given twice', () => {
    // Act and assess
    expectRefusedAt(
      `${cycle}E | make-graph s --> t with_node_id=id | graph-shortest-paths output=any output=all (x)-[e*1..3]->(y) project y.id`,
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
      { code: 'QUERY_SYNTAX', message: "expected a pattern node such as (n) or (), found 'output'", position: '2:74' },
    );
  });
});

describe('graph-shortest-paths output=any', () => {
  it.each([
    // Two 2-hop paths A -> D: through B (edges 1, 3) and through C (edges 2, 4).
    ['"A","B", "A","C", "B","D", "C","D"', ['B']],
    // The same edges with A -> C first: the path through C.
    ['"A","C", "A","B", "B","D", "C","D"', ['C']],
    // A -> B first, but C -> D before B -> D: the first hop decides.
    ['"A","B", "A","C", "C","D", "B","D"', ['B']],
  ])('keeps the path whose edges come first in the input: %s', async (edges, via) => {
    // Act
    const result = await run(
      `let E = datatable(s:string, t:string)[${edges}]; E | make-graph s --> t with_node_id=id | graph-shortest-paths (x)-[e*1..3]->(y) where x.id == "A" and y.id == "D" project via = map(inner_nodes(e), id)`,
    );
    // Assess
    expect(result.rows).toEqual([[via]]);
  });
});

describe("tabular operators inside make-graph's partitioned-by", () => {
  // Partition x: A -> B -> C; partition y: A -> B -> C -> D.
  const twoPartitions =
    'let E = datatable(s:string, t:string, p:string)["A","B","x", "B","C","x", "A","B","y", "B","C","y", "C","D","y"];\n' +
    'E | make-graph s --> t with_node_id=id partitioned-by p ';
  it.each([
    // top per partition: each partition's longest path.
    [
      '( graph-match (a)-[e*1..3]->(b) project a.id, b.id, n = array_length(e.s) | top 1 by n desc )',
      ['a_id:string', 'b_id:string', 'n:long'],
      [
        ['A', 'C', 2],
        ['A', 'D', 3],
      ],
    ],
    // summarize per partition: 3 paths in x, 6 in y.
    ['( graph-match (a)-[e*1..3]->(b) project a.id | summarize count() )', ['count_:long'], [[3], [6]]],
    // `*` there sees the query's columns only, not the hidden partition column.
    [
      '( graph-match (a)-[e]->(b) where a.id == "A" project a.id, b.id | extend q = pack_array(*), r = pack_all() )',
      ['a_id:string', 'b_id:string', 'q:dynamic', 'r:dynamic'],
      [
        ['A', 'B', ['A', 'B'], { a_id: 'A', b_id: 'B' }],
        ['A', 'B', ['A', 'B'], { a_id: 'A', b_id: 'B' }],
      ],
    ],
    // graph-shortest-paths, then a take and an extend.
    [
      '( graph-shortest-paths (a)-[e*1..3]->(b) where a.id == "A" project b.id | sort by b_id asc | take 1 | extend z = 1 )',
      ['b_id:string', 'z:long'],
      [
        ['B', 1],
        ['B', 1],
      ],
    ],
  ])('%s', async (inner, columns, rows) => {
    // Act
    const result = await run(twoPartitions + inner);
    // Assess
    expect(result.columns).toEqual(columns);
    expect([...result.rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(rows);
  });

  it('refuses operators after graph-to-table there', () => {
    // Act and assess
    expectRefusedAt(
      `${twoPartitions}( graph-to-table nodes | take 1 )`,
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
      { code: 'QUERY_UNSUPPORTED', message: 'tabular operators after graph-to-table', position: '2:80' },
    );
  });
});

describe('graph-merge', () => {
  const E = 'let E = datatable(a:long, b:long)[1,2];\n';
  it.each([
    [`${E}E | make-graph a --> b | graph-merge E`, '2:26'],
    // The graph-merge page's form: graphs kept in lets.
    [`${E}let G = E | make-graph a --> b;\nlet H = E | make-graph a --> b;\nG\n| graph-merge H`, '5:3'],
  ])('is refused at its word: %s', (query, position) => {
    // Act and assess
    expectRefusedAt(
      query,
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
      { code: 'QUERY_UNSUPPORTED', message: 'graph-merge is not supported: it merges two graphs', position },
    );
  });
});
