// SQL of graph-mark-components (lib/query/analyze-graph-mark.ts), DuckDB only (make-graph is
// refused on other engines). The input is one row per edge (its two end node ids) and one per node
// (its id twice), so a node without edges is a component of its own.
// - weak: every node takes the least node id of its component by label propagation with jumps:
//   each starts with the least id among itself and its neighbors (edges taken both ways), then in
//   each step takes the least of its neighbors' labels, the label of the node its own label names
//   (the jump), and for each edge u - v the node u's label names takes v's label (the hook, as in
//   Shiloach-Vishkin), while that is smaller. A label is always a node id of the component and only
//   drops, so the walk ends, every node then holding the component's least id. The jumps shorten
//   chains of labels; the hooks join whole groups of nodes sharing a label across an edge, so a
//   low label spreads along a path whose ids do not decrease toward it in far fewer steps than one
//   node a step (label propagation with jumps alone took a step per node there). A recursive CTE
//   keyed on the node (USING KEY: one row per node, updated in place; `recurring.` reads the
//   labels so far) runs until a step changes no label; each step joins all edges and nodes.
// - strong: the pairs (u, v) where v is reachable from u (a recursive CTE whose UNION drops pairs
//   already found, so it ends); u's component is the least v that also reaches u. Its size is the
//   number of reachable pairs, quadratic in the nodes of a large strongly connected graph.
// Either walk stops at the query's time limit: DuckDB checks the interrupt between steps.
// Components are numbered 0, 1, ... in the order of their least node id (the page leaves the
// numbering to the engine; this one is stable from run to run).
export interface ComponentsWriter {
  q(name: string): string;
  /** A fresh private name with this prefix. */
  hidden(prefix: string): string;
  /** The input's SELECT. */
  readonly input: string;
  /** The refs of the input's two node id columns. */
  readonly from: string;
  readonly to: string;
  /** The refs of the output's node id and component index. */
  readonly node: string;
  readonly component: string;
}

export function graphComponentsSql(w: ComponentsWriter, strong: boolean): string {
  const [pairs, walk, rec, k, t] = ['_gp', '_gw', '_gr', '_gk', '_gt'].map((p) => w.q(w.hidden(p))) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const [x, y, n, c] = ['x', 'y', 'n', 'c'].map((p) => w.q(`_g${p}`)) as [string, string, string, string];
  const [from, to] = [w.q(w.from), w.q(w.to)];
  const input = `SELECT ${from} AS ${x}, ${to} AS ${y} FROM (${w.input}) AS ${t} WHERE ${from} IS NOT NULL AND ${to} IS NOT NULL`;
  const labels = strong
    ? strongLabels(pairs, walk, rec, k, { x, y, n, c })
    : weakLabels(pairs, walk, rec, { x, y, n, c });
  return (
    `WITH RECURSIVE ${pairs} AS MATERIALIZED (${input}), ${labels} ` +
    `SELECT ${n} AS ${w.q(w.node)}, dense_rank() OVER (ORDER BY ${c}) - 1 AS ${w.q(w.component)} FROM ${rec}`
  );
}

interface Names {
  readonly x: string;
  readonly y: string;
  readonly n: string;
  readonly c: string;
}

/** The CTEs after the pairs that leave `rec(n, c)`: each node and the least node id of its weak component. */
function weakLabels(pairs: string, walk: string, rec: string, { x, y, n, c }: Names): string {
  const both = `SELECT ${x}, ${y} FROM ${pairs} UNION SELECT ${y}, ${x} FROM ${pairs}`;
  const start = `SELECT ${x}, min(${y}) FROM ${walk} GROUP BY ${x}`;
  // A node's candidates: its neighbors' labels, the label of the node its label names (the jump),
  // and for each edge u - v, v's label offered to the node u's label names (the hook).
  const soFar = `recurring.${rec}`;
  const candidates =
    `SELECT ${walk}.${x} AS ${n}, _gm.${c} FROM ${walk} JOIN ${soFar} AS _gm ON _gm.${n} = ${walk}.${y} ` +
    `UNION ALL SELECT _gl.${n}, _gj.${c} FROM ${soFar} AS _gl JOIN ${soFar} AS _gj ON _gj.${n} = _gl.${c} ` +
    `UNION ALL SELECT _gu.${c}, _gv.${c} FROM ${walk} JOIN ${soFar} AS _gu ON _gu.${n} = ${walk}.${x} ` +
    `JOIN ${soFar} AS _gv ON _gv.${n} = ${walk}.${y}`;
  // Every node each step (the jumps need it), so the step reads the changed rows only to exist:
  // a step that changes nothing ends the recursion.
  const step =
    `SELECT _gs.${n}, min(_gk.${c}) FROM (${candidates}) AS _gk JOIN ${soFar} AS _gs ON _gs.${n} = _gk.${n} ` +
    `WHERE EXISTS (SELECT 1 FROM ${rec}) GROUP BY _gs.${n}, _gs.${c} HAVING min(_gk.${c}) < _gs.${c}`;
  return `${walk} AS MATERIALIZED (${both}), ${rec}(${n}, ${c}) USING KEY (${n}) AS (${start} UNION (${step}))`;
}

/** The CTEs after the pairs that leave `rec(n, c)`: each node and the least node id of its strong component. */
function strongLabels(pairs: string, walk: string, rec: string, k: string, { x, y, n, c }: Names): string {
  const reach =
    `SELECT ${x}, ${y} FROM ${pairs} UNION SELECT ${walk}.${x}, ${pairs}.${y} FROM ${walk} ` +
    `JOIN ${pairs} ON ${pairs}.${x} = ${walk}.${y}`;
  const mutual =
    `SELECT ${walk}.${x} AS ${n}, min(${walk}.${y}) AS ${c} FROM ${walk} ` +
    `JOIN ${walk} AS ${k} ON ${k}.${x} = ${walk}.${y} AND ${k}.${y} = ${walk}.${x} GROUP BY ${walk}.${x}`;
  return `${walk}(${x}, ${y}) AS MATERIALIZED (${reach}), ${rec} AS (${mutual})`;
}
