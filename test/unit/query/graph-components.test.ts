// graph-mark-components and labels() at the compile() level and on DuckDB: what the pages define
// but print no example of (kind=strong, nodes without edges, several marks, replacing a property,
// labels() of every element kind) and the errors. The printed examples are in the conformance
// corpus (test/conformance/cases/op-graph-mark-components-*.json, op-graph-labels-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure, expectRefusedAt } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

/**
 * A 3-cycle A -> B -> C -> A with a tail C -> D, a 2-cycle D <-> E, a chain X -> Y <- Z, and F,
 * a node of the nodes table without edges.
 */
const GRAPH =
  'let E = datatable(s:string, t:string)["A","B", "B","C", "C","A", "C","D", "D","E", "E","D", "X","Y", "Z","Y"];\n' +
  'let N = datatable(id:string, color:string)["A","red", "F","blue"];\n' +
  'E | make-graph s --> t with N on id';

describe('graph-mark-components', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function run(query: string): Promise<{ columns: string[]; rows: unknown[][] }> {
    const compiled = compile(query, options);
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return { columns: compiled.columns.map((c) => `${c.name}:${c.type}`), rows };
  }
  /** The node ids of each component, in the order of their index. */
  async function components(query: string): Promise<string[][]> {
    const { rows } = await run(`${query} | graph-to-table nodes | summarize ids = make_set(id) by ComponentId`);
    return rows.sort((a, b) => Number(a[0]) - Number(b[0])).map((r) => (r[1] as string[]).sort());
  }

  it('lists the nodes of rows the query writes as they first appear: the nodes table, then each edge source before its target', async () => {
    // Act
    const { rows } = await run(`${GRAPH} | graph-to-table nodes | project id`);
    const stored = compile(
      'States | make-graph DeviceId --> Name with_node_id=n | graph-to-table nodes | count',
      options,
    ).sql;
    // Assess: A and F from N, then B, C, D, E, X, Y, Z by the edges (graph-mark-components page order).
    expect(rows.map((r) => r[0])).toEqual(['A', 'F', 'B', 'C', 'D', 'E', 'X', 'Y', 'Z']);
    expect(stored).not.toContain('#firstedge');
  });

  it('marks weak components, numbered from 0 by their least node id, a node without edges alone', async () => {
    // Act
    const found = await components(`${GRAPH} | graph-mark-components`);
    // Assess
    expect(found).toEqual([['A', 'B', 'C', 'D', 'E'], ['F'], ['X', 'Y', 'Z']]);
  });

  it('marks strong components: nodes that reach each other along the edges', async () => {
    // Act
    const found = await components(`${GRAPH} | graph-mark-components kind=strong`);
    // Assess
    expect(found).toEqual([['A', 'B', 'C'], ['D', 'E'], ['F'], ['X'], ['Y'], ['Z']]);
  });

  it('adds the property after the node properties, replaced by a later mark of the same name', async () => {
    // Act
    const { columns, rows } = await run(
      `${GRAPH} | graph-mark-components kind=strong | graph-mark-components kind="weak" with_component_id=w` +
        ' | graph-mark-components | graph-to-table nodes | where id in ("A", "D", "F")',
    );
    // Assess: ComponentId is the last mark's (weak), w the second's.
    expect(columns).toEqual(['id:string', 'color:string', 'w:long', 'ComponentId:long']);
    expect(rows.map((r) => JSON.stringify(r)).sort()).toEqual(['["A","red",0,0]', '["D","",0,0]', '["F","blue",1,1]']);
  });

  it('gives graph-match the component as a node property', async () => {
    // Act
    const { rows } = await run(
      `${GRAPH} | graph-mark-components kind=strong with_component_id=scc` +
        ' | graph-match (a)-[e]->(b) where a.scc != b.scc project a.id, b.id',
    );
    // Assess: the edges between strong components.
    expect(rows.map((r) => r.join('>')).sort()).toEqual(['C>D', 'X>Y', 'Z>Y']);
  });

  it('keeps a node of a null id, its component null (a null id joins nothing)', async () => {
    // Act
    const { rows } = await run(
      'datatable(s:long, d:long)[1,2, 3,4] | extend s = iff(s == 3, long(null), s)' +
        ' | make-graph s --> d with_node_id=id | graph-mark-components | graph-to-table nodes',
    );
    // Assess
    expect(rows.map((r) => JSON.stringify(r)).sort()).toEqual(['[1,0]', '[2,0]', '[4,1]', '[null,null]']);
  });

  it('finds the components of a long path (label jumps: a step per doubling, not per node)', async () => {
    // Act
    const { rows } = await run(
      'range i from 1 to 5000 step 1 | extend s = i, t = i + 1 | make-graph s --> t with_node_id=id' +
        ' | graph-mark-components | graph-to-table nodes | summarize count(), dcount(ComponentId), max(ComponentId)',
    );
    // Assess
    expect(rows).toEqual([[5001, 1, 0]]);
  });

  it('finds the weak components of random graphs as a union-find does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 })), {
          minLength: 1,
          maxLength: 60,
        }),
        async (edges) => {
          // Prepare: the expectation by union-find over the same edges.
          const parent = new Map<number, number>();
          const root = (v: number): number => {
            while (parent.get(v) !== v) v = parent.get(v)!;
            return v;
          };
          for (const [a, b] of edges) for (const v of [a, b]) if (!parent.has(v)) parent.set(v, v);
          for (const [a, b] of edges) parent.set(root(a), root(b));
          const groups = new Map<number, number[]>();
          for (const v of parent.keys()) groups.set(root(v), [...(groups.get(root(v)) ?? []), v]);
          const expected = [...groups.values()].map((g) => g.sort((x, y) => x - y)).sort((x, y) => x[0]! - y[0]!);
          const table = `datatable(s:long, t:long)[${edges.map(([a, b]) => `${a}, ${b}`).join(', ')}]`;
          // Act
          const { rows } = await run(
            `${table} | make-graph s --> t with_node_id=id | graph-mark-components | graph-to-table nodes | summarize ids = make_set(id) by ComponentId`,
          );
          const found = rows
            .sort((a, b) => Number(a[0]) - Number(b[0]))
            .map((r) => (r[1] as number[]).sort((x, y) => x - y));
          // Assess
          expect(found).toEqual(expected);
        },
      ),
      { seed: 11, numRuns: 25 },
    );
  });

  it('finds one component on a path whose ids do not decrease toward its least id', async () => {
    // Act: 0 - 1000 - 999 - ... - 1, the least id at one end and the ids rising away from it.
    const { rows } = await run(
      'range i from 1 to 999 step 1 | project a = i, b = i + 1 | union (print a = 0, b = 1000)' +
        ' | make-graph a --> b with_node_id=id | graph-mark-components | graph-to-table nodes' +
        ' | summarize count(), dcount(ComponentId), max(ComponentId)',
    );
    // Assess
    expect(rows).toEqual([[1001, 1, 0]]);
  });

  it.each([
    ['graph-mark-components', 'QUERY_SEMANTIC', 'graph-mark-components returns a graph, not a table'],
    ['graph-mark-components | where s == "A"', 'QUERY_SEMANTIC', "'where' cannot follow graph-mark-components"],
    [
      'graph-mark-components kind=medium | graph-to-table nodes',
      'QUERY_SYNTAX',
      "kind is weak or strong, not 'medium'",
    ],
    [
      'graph-mark-components kind=strong kind=weak | graph-to-table nodes',
      'QUERY_SYNTAX',
      "graph-mark-components' kind= is given twice",
    ],
    [
      'graph-mark-components with_component_id=a kind=weak with_component_id=b | graph-to-table nodes',
      'QUERY_SYNTAX',
      "graph-mark-components' with_component_id= is given twice",
    ],
    [
      'graph-mark-components with_node_id=x | graph-to-table nodes',
      'QUERY_SYNTAX',
      "graph-mark-components takes kind= and with_component_id=, not 'with_node_id'",
    ],
  ])('refuses %s', (rest, code, message) => {
    // Act
    const error = compileFailure(`${GRAPH} | ${rest}`, options);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('refuses a parameter given twice at the second', () => {
    expectRefusedAt(
      'datatable(s:long, t:long)[1, 2] | make-graph s --> t with_node_id=id | graph-mark-components kind=strong kind=weak | graph-to-table nodes',
      options,
      { code: 'QUERY_SYNTAX', message: 'is given twice', position: '1:106' },
    );
  });

  it('is refused on Timestream with make-graph', () => {
    // Act
    const error = compileFailure(`${GRAPH} | graph-mark-components | graph-to-table nodes`, {
      ...options,
      dialect: 'timestream',
    });
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain('make-graph is not supported on the timestream engine');
  });
});

describe('labels()', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is an empty array for every node, edge and inner node of a graph of make-graph', async () => {
    // Act
    const compiled = compile(
      `${GRAPH} | graph-match (a)-[e*1..2]->(b) where a.id == "A" and b.id == "C" and array_length(labels(a)) == 0` +
        ' project a.id, b.id, na = labels(a), ne = labels(e), inner = map(inner_nodes(e), labels()),' +
        ' counted = map(inner_nodes(e), 1), tagged = any(inner_nodes(e), labels() has "x")',
      options,
    );
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    // Assess: one inner node (B), whose labels are an empty array too.
    expect(compiled.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'a_id:string',
      'b_id:string',
      'na:dynamic',
      'ne:dynamic',
      'inner:dynamic',
      'counted:dynamic',
      'tagged:bool',
    ]);
    expect(rows).toEqual([['A', 'C', [], [], [[]], [1], false]]);
  });

  it.each([
    ['project labels()', 'labels() without an argument reads the inner nodes'],
    ['project labels(a.id)', 'labels() reads a node or edge variable of the pattern'],
  ])('refuses %s', (rest, message) => {
    // Act
    const error = compileFailure(`${GRAPH} | graph-match (a)-[e]->(b) ${rest}`, options);
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toContain(message);
  });
});

describe("make-graph's partitioned-by", () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  /** Two tenants with the same node ids: a -> b in t1, b -> c in t2. */
  const TENANTS =
    'let E = datatable(s:string, d:string, tenant:string)["a","b","t1", "b","c","t2"];\n' +
    'let N = datatable(id:string, tenant:string, name:string)["a","t1","A1", "b","t1","B1", "b","t2","B2", "c","t2","C2"];\n';

  async function rows(query: string): Promise<string[]> {
    const compiled = compile(query, options);
    const found = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return found.map((r) => JSON.stringify(r)).sort();
  }

  it('makes a graph per partition: one node id in two partitions is two nodes, no path between them', async () => {
    // Act
    const partitioned = await rows(
      `${TENANTS}E | make-graph s --> d with N on id partitioned-by tenant (graph-match (x)-[e*1..2]->(y) project x.name, y.name)`,
    );
    const whole = await rows(
      `${TENANTS}E | make-graph s --> d with N on id | graph-match (x)-[e*1..2]->(y) project x.id, y.id`,
    );
    // Assess: without partitions b is one node, and a reaches c through it.
    expect(partitioned).toEqual(['["A1","B1"]', '["B2","C2"]']);
    expect(whole).toEqual(['["a","b"]', '["a","c"]', '["b","c"]']);
  });

  it('runs graph-to-table per partition, and the query goes on after the parentheses', async () => {
    // Act
    const found = await rows(
      `${TENANTS}E | make-graph s --> d with N on id partitioned-by tenant (graph-to-table nodes) | summarize count() by tenant`,
    );
    // Assess
    expect(found).toEqual(['["t1",2]', '["t2",2]']);
  });

  it('gives a null node id no node, as without partitioned-by: no path goes through it', async () => {
    // Prepare: in partition A, 1 -> null and null -> 2; in B, 1 -> 3.
    const edges = 'datatable(a:long, b:long, t:string)[1, long(null), "A", long(null), 2, "A", 1, 3, "B"]';
    // Act
    const paths = await rows(
      `${edges} | make-graph a --> b with_node_id=id partitioned-by t (graph-match (x)-[e*1..3]->(y) project x.id, y.id)`,
    );
    const whole = await rows(
      `${edges} | make-graph a --> b with_node_id=id | graph-match (x)-[e*1..3]->(y) project x.id, y.id`,
    );
    const nodes = await rows(`${edges} | make-graph a --> b with_node_id=id partitioned-by t (graph-to-table nodes)`);
    const kept = await rows(`${edges} | make-graph a --> b with_node_id=id partitioned-by t (graph-to-table edges)`);
    // Assess: the edges with a null end are kept; they join no node.
    expect(paths).toEqual(['[1,3]']);
    expect(whole).toEqual(paths);
    expect(nodes).toEqual(['[1]', '[1]', '[2]', '[3]']);
    expect(kept).toHaveLength(3);
  });

  it.each([
    [
      'make-graph s --> d with N on id partitioned-by nope (graph-to-table nodes)',
      'QUERY_SEMANTIC',
      "unknown column 'nope'",
    ],
    [
      'make-graph s --> d with (N | project-away tenant) on id partitioned-by tenant (graph-to-table nodes)',
      'QUERY_SEMANTIC',
      'partitioned-by wants it in every one',
    ],
    [
      'make-graph s --> d partitioned-by tenant (graph-mark-components | graph-to-table nodes)',
      'QUERY_UNSUPPORTED',
      "graph-mark-components inside make-graph's partitioned-by is not supported",
    ],
    ['make-graph s --> d partitioned-by tenant (where s == "a")', 'QUERY_SYNTAX', 'runs a graph operator'],
    ['make-graph s --> d partitioned-by tenant (graph-to-table nodes', 'QUERY_SYNTAX', "expected ')'"],
  ])('refuses %s', (rest, code, message) => {
    // Act
    const error = compileFailure(`${TENANTS}E | ${rest}`, options);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});
