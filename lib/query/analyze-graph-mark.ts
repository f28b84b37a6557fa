// graph-mark-components (graph-mark-components operator page): each node of the graph gets a
// property, the index of its connected component (weak: edges taken either way; strong: both ways
// reachable along the edges). The component of every node is computed by SQL of its own
// (sql/graph-components.ts, an IR relation of kind graphComponents) over the edges' ends and the
// nodes; the graph's nodes table is then that table joined on the node id, the property added (or
// replaced, when the nodes already have one of that name: a node has one value per property).
import type { GraphMarkSpec } from './ast';
import { copy, joinOn, over, project, unionOf } from './graph-build';
import { EDGE_DST, EDGE_SRC, NODE_ID, type GraphHost, type GraphTables } from './graph-tables';
import type { Rel } from './ir';

const FROM = '#a';
const TO = '#b';
const NODE = '#node';

export function markComponents(
  h: GraphHost,
  graph: GraphTables,
  spec: GraphMarkSpec,
  bind: (suffix: string, rel: Rel) => string,
  index: number,
): GraphTables {
  const at = spec.span;
  const ends = (table: string, from: string, to: string) =>
    over(table, [project([copy(FROM, from, at), copy(TO, to, at)], at)], at);
  // A node with itself: one without edges is a component of its own.
  const pairs = h.subquery(unionOf([ends(graph.edges, EDGE_SRC, EDGE_DST), ends(graph.nodes, NODE_ID, NODE_ID)], at));
  const components: Rel = {
    kind: 'graphComponents',
    input: pairs,
    strong: spec.strong,
    columns: [
      { name: NODE, type: pairs.columns[0]!.type, ref: h.newRef() },
      { name: spec.property, type: 'long', ref: h.newRef() },
    ],
  };
  const name = bind(`components${index}`, components);
  const kept = graph.nodeProps.filter((c) => c.name !== spec.property).map((c) => copy(c.name, c.name, at));
  const nodes = h.subquery(
    over(
      graph.nodes,
      [
        project([copy(NODE_ID, NODE_ID, at), ...kept], at),
        // leftouter: a node of a null id (no component) stays, its component null.
        joinOn(over(name, [], at), NODE_ID, NODE, at, 'leftouter'),
        project([copy(NODE_ID, NODE_ID, at), ...kept, copy(spec.property, spec.property, at)], at),
      ],
      at,
    ),
  );
  h.materialize(nodes);
  return {
    ...graph,
    nodes: bind(`marked${index}`, nodes),
    nodeProps: nodes.columns.filter((c) => c.name !== NODE_ID),
  };
}
