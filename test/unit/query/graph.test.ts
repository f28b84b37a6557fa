// Graph operators at the compile() level: the errors (a graph as the result, a tabular operator
// after a graph, a graph operator without one, bad patterns, Timestream), the shape of the SQL
// (joins over two materialized tables; one chain per length of a variable-length edge), and
// behaviours the docs state but print no example of (edge ends without node rows, duplicate node
// ids, any-direction edges, several patterns, cycles=). The printed examples are in the
// conformance corpus (test/conformance/cases/op-graph-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

// A stopped clock: the compile budget is wall time, which a loaded machine would decide; the term and
// size limits these tests reach are counted (limits.test.ts tests the budget itself).
const options = (dialect: CompileOptions['dialect']): CompileOptions => ({
  ...GOLDEN_OPTIONS,
  dialect,
  clock: () => 0,
});
const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb') =>
  compileFailure(query, options(dialect));

/** A triangle A -> B -> C -> A and a self-loop on C, ids as strings, a weight per edge. */
const TRIANGLE =
  'let E = datatable(s:string, t:string, w:long)["A","B",1, "B","C",2, "C","A",3, "C","C",4];\n' +
  'let N = datatable(id:string, color:string)["A","red", "B","blue", "B","green"];\n';

describe('graph operators', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function run(query: string): Promise<{ columns: string[]; rows: unknown[][] }> {
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return { columns: compiled.columns.map((c) => `${c.name}:${c.type}`), rows };
  }
  const sorted = (rows: unknown[][]): string[] => rows.map((r) => JSON.stringify(r)).sort();

  describe('errors', () => {
    it('refuses a graph as the query result, at make-graph', () => {
      // Act
      const error = failure('datatable(s:string, t:string)["a","b"]\n| make-graph s --> t');
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toMatch(/^2:3: make-graph returns a graph, not a table/);
    });

    it('refuses a tabular operator after a graph, at that operator', () => {
      // Act
      const error = failure('datatable(s:string, t:string)["a","b"]\n| make-graph s --> t | where s == "a"');
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toMatch(/^2:24: 'where' cannot follow make-graph: a graph is not a table/);
    });

    it('refuses a graph operator over a table, naming make-graph', () => {
      // Act
      const error = failure('datatable(s:string, t:string)["a","b"]\n| graph-match (a)-->(b) project a.s');
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toBe('2:3: graph-match reads a graph, not a table: build one with make-graph before it');
    });

    it('refuses every graph operator on Timestream at make-graph, naming the engine', () => {
      // Act
      const error = failure('States\n| make-graph DeviceId --> AgentId | graph-to-table edges', 'timestream');
      // Assess
      expect(error.code).toBe('QUERY_UNSUPPORTED');
      expect(error.message).toBe('2:3: make-graph is not supported on the timestream engine (it has no graphs)');
    });

    it('refuses graph-to-table of nodes and edges to a one-table caller, at the second name', () => {
      // Act
      const error = failure(`${TRIANGLE}E | make-graph s --> t | graph-to-table nodes as N, edges as X`);
      // Assess
      expect(error.code).toBe('QUERY_UNSUPPORTED');
      expect(error.message).toMatch(
        /^3:62: graph-to-table of nodes and edges answers 2 result tables and this endpoint answers one/,
      );
    });

    it.each([
      ['(a)-->(b) project a', 'QUERY_SEMANTIC', "'a' is a pattern node: read one of its properties, as a.Property"],
      [
        '(a)-[e*1..2]->(b) project a.id, e',
        'QUERY_SEMANTIC',
        "'e' is a pattern edge: read one of its properties, as e.Property",
      ],
      ['(a)-->(b) project a.nope', 'QUERY_SEMANTIC', "the node 'a' has no property 'nope' (it has id, color)"],
      ['(a)-[e]->(b)-[e]->(c) project a.id', 'QUERY_SEMANTIC', "the edge variable 'e' appears twice"],
      ['(a)-[a]->(b) project b.id', 'QUERY_SEMANTIC', "'a' names both a node and an edge"],
      ['(a)-->(b), (c)-->(d) project a.id', 'QUERY_SEMANTIC', 'must share a node variable'],
      ['(a)<-[e]->(b) project a.id', 'QUERY_SYNTAX', 'not both'],
      ['(a)-[e*3..1]->(b) project a.id', 'QUERY_SEMANTIC', 'below the lower bound'],
      ['(a)-[e*1..]->(b) project a.id', 'QUERY_SYNTAX', 'a variable-length edge is bounded'],
      ['(a)-[e*1..11]->(b) project a.id', 'QUERY_UNSUPPORTED', 'at most 10 are run here'],
      [
        '(a)-[e*1..8]->(b)-[f*1..8]->(c) project a.id',
        'QUERY_UNSUPPORTED',
        'have 64 combinations of lengths: at most 16 are run here',
      ],
      ['(a)-->(b)', 'QUERY_SYNTAX', 'graph-match needs a project clause'],
      ['cycles=some (a)-->(b) project a.id', 'QUERY_SYNTAX', 'cycles is none, unique_edges or all'],
      ['a-->(b) project a.id', 'QUERY_SYNTAX', 'expected a pattern node'],
      [
        '(a)-[e]->(b) project map(e, w)',
        'QUERY_SEMANTIC',
        "map() runs over a variable-length edge (or inner_nodes() of one), not 'e'",
      ],
      [
        '(a)-[e*1..2]->(b) project inner_nodes(e)',
        'QUERY_SEMANTIC',
        'inner_nodes() is read through map(), any() or all()',
      ],
    ])('refuses the pattern %s', (pattern, code, message) => {
      // Act
      const error = failure(`${TRIANGLE}E | make-graph s --> t with N on id | graph-match ${pattern}`);
      // Assess
      expect(error.code).toBe(code);
      expect(error.message).toContain(message);
    });

    it.each([
      ['(a)-->(b) project a.id', 'one pattern with a variable-length edge'],
      ['(a)-[e*1..2]->(b), (b)-->(c) project a.id', 'one pattern with a variable-length edge'],
      ['output=some (a)-[e*1..2]->(b) project a.id', "output is any or all, not 'some'"],
    ])('refuses graph-shortest-paths %s', (rest, message) => {
      // Act
      const error = failure(`${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-shortest-paths ${rest}`);
      // Assess
      expect(error.message).toContain(message);
    });

    it('runs 16 length combinations and 10 hops within the default limits', () => {
      const g = `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match `;
      // Act / Assess: the bounds the docs give are reachable at the default term and size limits.
      const duck = options('duckdb');
      expect(() =>
        compile(`${g}(a)-[e*1..4]->(b)-[f*1..4]->(c) project a.id, b.id, c.id, e.w, f.w`, duck),
      ).not.toThrow();
      expect(() => compile(`${g}(a)-[e*1..10]->(b) project a.id, map(inner_nodes(e), id)`, duck)).not.toThrow();
    });

    it('refuses a pattern whose chains of joins pass the term limit at the pattern', () => {
      const pattern = '(a)-[e*1..2]->(b)-[f*1..2]->(c)-[g*1..2]->(d)-[h*1..2]->(x)';
      const query = `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match ${pattern} project a.id`;
      // Act
      const error = failure(query);
      // Assess
      expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
      expect(error.span.start).toBe(query.indexOf(pattern));
    });

    it('refuses node ids of another type than the edge ends, at the id column', () => {
      // Act
      const error = failure(`${TRIANGLE}E | make-graph s --> t with (N | extend n = 1) on n | graph-to-table nodes`);
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toContain("the node id 'n' is long but the edges' node ids are string");
    });

    it('refuses graph-to-table nodes of a graph whose nodes have no properties', () => {
      // Act
      const error = failure(`${TRIANGLE}E | make-graph s --> t | graph-to-table nodes`);
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toContain("the graph's nodes have no properties");
    });
  });

  describe('SQL', () => {
    it('computes the edges and the nodes once each (CTEs) and joins them per pattern element', () => {
      // Act
      const graph = `${TRIANGLE}E | make-graph s --> t with N on id`;
      const { sql } = compile(`${graph} | graph-match (a)-[e]->(b) project a.id`, options('duckdb'));
      const nodesOnly = compile(`${graph} | graph-to-table nodes`, options('duckdb')).sql;
      // Assess: the unions are the nodes table's own (its rows and the edge ends).
      expect(sql.match(/AS MATERIALIZED/g)).toHaveLength(2);
      expect(sql.match(/ JOIN /g)).toHaveLength(2);
      expect(sql.match(/UNION/g)).toEqual(nodesOnly.match(/UNION/g));
    });

    it('writes one chain per length of a variable-length edge, united', () => {
      // Act
      const { sql } = compile(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match (a)-[e*1..3]->(b) project a.id`,
        options('duckdb'),
      );
      // Assess: 1 + 2 + 3 hops, and each of the three chains joins its end node.
      expect(sql.match(/ JOIN /g)).toHaveLength(1 + 2 + 3 + 3);
    });
  });

  describe('results', () => {
    it('makes a node property two nodes tables give different types dynamic', async () => {
      // Act
      const { columns, rows } = await run(
        "let E = datatable(s:string, d:string)['a','b']; let N = datatable(id:string, p:long)['a',1]; let M = datatable(id:string, p:string)['b','x'];\n" +
          'E | make-graph s --> d with N on id, M on id | graph-to-table nodes',
      );
      // Assess: Kusto.Language types it id:string, p:dynamic; each value keeps its own kind.
      expect(columns).toEqual(['id:string', 'p:dynamic']);
      expect(sorted(rows)).toEqual(
        sorted([
          ['a', 1],
          ['b', 'x'],
        ]),
      );
    });

    it('makes an id property dynamic when another nodes table has it of another type', async () => {
      // Act: c is an edge end no table names, and a and c edge ends too: their id properties (id, k)
      // are the edge end, a string, merged with the table's row.
      const { columns, rows } = await run(
        "let E = datatable(s:string, d:string)['a','b', 'b','c']; let N = datatable(id:string)['a']; let M = datatable(k:string, id:long)['b',7];\n" +
          'E | make-graph s --> d with N on id, M on k | graph-to-table nodes',
      );
      // Assess
      expect(columns).toEqual(['id:dynamic', 'k:string']);
      // b's id is any of its two values, M's long or the edge end's string.
      expect(sorted(rows.filter((r) => r[1] !== 'b'))).toEqual(
        sorted([
          ['a', 'a'],
          ['c', 'c'],
        ]),
      );
      expect([
        [7, 'b'],
        ['b', 'b'],
      ]).toContainEqual(rows.find((r) => r[1] === 'b'));
    });

    it('makes every edge end a node: with_node_id names the id property', async () => {
      // Act
      const { columns, rows } = await run(`${TRIANGLE}E | make-graph s --> t with_node_id=name | graph-to-table nodes`);
      // Assess
      expect(columns).toEqual(['name:string']);
      expect(sorted(rows)).toEqual(sorted([['A'], ['B'], ['C']]));
    });

    it('merges rows of one node id into one node, and gives edge-only nodes their id only', async () => {
      // Act
      const { rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with N on id | graph-to-table nodes | summarize count() by id, isempty(color)`,
      );
      // Assess: B has two rows in N (one node, either color); C has none.
      expect(sorted(rows)).toEqual(
        sorted([
          ['A', false, 1],
          ['B', false, 1],
          ['C', true, 1],
        ]),
      );
    });

    it('matches an any-direction edge both ways, a self-loop once', async () => {
      // Act
      const { rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match (a)-[e]-(b) where e.w >= 3 project a.id, b.id, e.w`,
      );
      // Assess
      expect(sorted(rows)).toEqual(
        sorted([
          ['C', 'A', 3],
          ['A', 'C', 3],
          ['C', 'C', 4],
        ]),
      );
    });

    it('joins several patterns on their shared node', async () => {
      // Act
      const { columns, rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match (a)-->(b), (c)-->(b) where a.id != c.id project a.id, b.id, c.id`,
      );
      // Assess: only C has two in-edges from different nodes (B and C itself).
      expect(columns).toEqual(['a_id:string', 'b_id:string', 'c_id:string']);
      expect(sorted(rows)).toEqual(
        sorted([
          ['B', 'C', 'C'],
          ['C', 'C', 'B'],
        ]),
      );
    });

    it('keeps a cycle whose edges differ by default, drops one that reuses an edge, keeps all with cycles=all', async () => {
      const q = (cycles: string) =>
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match ${cycles} (x)-[e1]->(y)-[e2]->(z) where x.id == "C" project y.id, z.id`;
      // Act
      const unique = await run(q(''));
      const all = await run(q('cycles=all'));
      const none = await run(q('cycles=none'));
      // Assess: from C: C->A->B, C->C->A, C->C->C (the self-loop twice: one edge reused).
      expect(sorted(unique.rows)).toEqual(
        sorted([
          ['A', 'B'],
          ['C', 'A'],
        ]),
      );
      expect(sorted(all.rows)).toEqual(
        sorted([
          ['A', 'B'],
          ['C', 'A'],
          ['C', 'C'],
        ]),
      );
      expect(none.rows).toEqual([['A', 'B']]);
    });

    it('matches as many fixed edges as a variable-length edge of that length matches under cycles=none', async () => {
      const g =
        'datatable(s:string, d:string, w:long)["a","b",1, "b","a",2, "a","a",4] | make-graph s --> d with_node_id=n | graph-match cycles=none ';
      // Act
      const loopFixed = await run(`${g}(x)-[e]->(x) project x.n`);
      const loopVariable = await run(`${g}(x)-[e*1..1]->(x) project x.n`);
      const twoFixed = await run(`${g}(x)-->(y)-->(x) project x.n`);
      const twoVariable = await run(`${g}(x)-[e*2..2]->(x) project x.n`);
      // Assess: the pattern names x at both ends, so its repeat is no cycle of the match.
      expect(loopFixed.rows).toEqual([['a']]);
      expect(loopVariable.rows).toEqual([['a']]);
      expect(sorted(twoFixed.rows)).toEqual(sorted([['a'], ['b']]));
      expect(sorted(twoVariable.rows)).toEqual(sorted([['a'], ['b']]));
    });

    it('keeps the zero-hop matches of a variable-length edge under cycles=none, as unique_edges does', async () => {
      const q = (cycles: string) =>
        `datatable(s:string, d:string)["a","b", "b","a", "a","a"] | make-graph s --> d with_node_id=n | graph-match ${cycles} (x)-[e*0..1]->(y) project x.n, y.n`;
      // Act
      const none = await run(q('cycles=none'));
      const unique = await run(q(''));
      // Assess: 0 hops a-a and b-b; 1 hop a->b and b->a; the self-loop a->a repeats a node.
      expect(sorted(none.rows)).toEqual(
        sorted([
          ['a', 'a'],
          ['b', 'b'],
          ['a', 'b'],
          ['b', 'a'],
        ]),
      );
      expect(sorted(unique.rows)).toEqual(sorted([...none.rows, ['a', 'a']]));
    });

    it('gives a variable-length edge of zero hops an empty array and its two nodes one node', async () => {
      // Act
      const { rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match (a)-[e*0..1]->(b) where a.id == "A" project b.id, e.w`,
      );
      // Assess
      expect(sorted(rows)).toEqual(
        sorted([
          ['A', []],
          ['B', [1]],
        ]),
      );
    });

    it('runs all(), any() and map() over the hops and inner nodes, all() true and any() false over none', async () => {
      // Act
      const { rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with N on id | graph-match cycles=all (a)-[e*0..2]->(b) where a.id == "A"` +
          ' project b.id, all(e, w < 2), any(e, w > 1), map(e, w * 10), map(inner_nodes(e), color)',
      );
      // Assess: A (no hop), A->B, A->B->C; B's color is one of its two rows'.
      expect(rows.map((r) => r.slice(0, 4))).toEqual(
        expect.arrayContaining([
          ['A', true, false, []],
          ['B', true, false, [10]],
          ['C', false, true, [10, 20]],
        ]),
      );
      expect(rows).toHaveLength(3);
      expect(['blue', 'green']).toContain((rows.find((r) => r[0] === 'C')![4] as string[])[0]);
    });

    it('keeps one shortest path per first and last node with graph-shortest-paths (output=any)', async () => {
      // Act: from A, B and C are reached; C by A->B->C only (no edge A->C). A's shortest path to
      // itself is the empty one, outside *1..4: the 3-hop cycle back to A is no shortest path
      // (the all() graph function page's paths from "North" list no "North").
      const { columns, rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-shortest-paths (a)-[e*1..4]->(b) where a.id == "A" project b.id, e.w`,
      );
      // Assess
      expect(columns).toEqual(['b_id:string', 'e_w:dynamic']);
      expect(sorted(rows)).toEqual(
        sorted([
          ['B', [1]],
          ['C', [1, 2]],
        ]),
      );
    });

    it('gives a node the empty path to itself when the hops start at 0, and no cycle', async () => {
      // Act: C has a self-loop and the cycle C->A->B->C; with *0..3 its shortest path to itself is empty.
      const { rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-shortest-paths output=all (a)-[e*0..3]->(b) where a.id == "C" project b.id, e.w`,
      );
      // Assess
      expect(sorted(rows)).toEqual(
        sorted([
          ['C', []],
          ['A', [3]],
          ['B', [3, 1]],
        ]),
      );
    });

    it('names a property projected twice as project names a derived name twice (x_id, x_id1)', async () => {
      // Act
      const { columns, rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match (x)-->(y) where x.id == "A" project x.id, x.id, y.id`,
      );
      // Assess: Kusto.Language names them x_id, x_id1.
      expect(columns).toEqual(['x_id:string', 'x_id1:string', 'y_id:string']);
      expect(rows).toEqual([['A', 'A', 'B']]);
    });

    it('holds a where condition on a variable-length edge for each hop', async () => {
      // Act
      const { rows } = await run(
        `${TRIANGLE}E | make-graph s --> t with_node_id=id | graph-match (a)-[e*1..3]->(b) where a.id == "A" and e.w < 3 project b.id, e.w`,
      );
      // Assess: A->B (1), A->B->C (1, 2); the hop C->A (3) fails the condition.
      expect(sorted(rows)).toEqual(
        sorted([
          ['B', [1]],
          ['C', [1, 2]],
        ]),
      );
    });
  });
});
