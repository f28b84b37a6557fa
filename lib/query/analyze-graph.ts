// make-graph and graph-to-table (make-graph and graph-to-table operator pages), rewritten into
// tabular operators over two private tables bound as lets:
// - edges: the input's rows with `#src`, `#dst` (the end node ids) and `#eid` (a row number that
//   tells edges apart for graph-match's cycles=unique_edges);
// - nodes: one row per node id (`#id`) with the node properties: every row of the nodes tables
//   (the same id in several rows or tables merges into one node, any value of a property that
//   has one), plus each edge end no nodes table names, with empty properties but its id columns.
// The node "hash id" of with_node_id= / with_source_id= / with_target_id= is hash() of the node
// id: a long that tells nodes apart, not Kusto's own hash values. Throws QueryError
// QUERY_SEMANTIC for unknown or mistyped id columns, QUERY_UNSUPPORTED on an engine without graphs.
import type { Expr, GraphSpec, GraphToTableSpec, MakeGraphSpec, NamedExpr, Operator, Pipeline } from './ast';
import { analyzeGraphMatch } from './analyze-graph-match';
import { markComponents } from './analyze-graph-mark';
import { clip } from './errors';
import { asc, binary, call, long } from './ast-build';
import { readsStoredTable } from './ir-reads';
import { copy, extend, item, over, project, ref, unionOf, where } from './graph-build';
import { EDGE_DST, EDGE_ID, EDGE_SRC, NODE_ID, type GraphHost, type GraphTables } from './graph-tables';
import type { IrColumn, KqlType, Rel } from './ir';
import type { Span } from './tokens';

export function analyzeGraph(h: GraphHost, input: Rel, spec: GraphSpec, span: Span): Rel {
  const { end } = spec;
  // Both forms end a top-level statement (result-tables.ts) or a let (parser-graph-let.ts) before analysis.
  if (end.kind === 'toTables')
    throw h.errors.semantic(
      'graph-to-table of nodes and edges returns two tables: it ends a statement of a batch, whose later statements read the tables by their names',
      end.span,
    );
  if (end.kind === 'open')
    throw h.errors.semantic(
      'make-graph returns a graph, not a table: follow it with graph-match or graph-to-table',
      spec.make.wordSpan,
    );
  if (h.engine === 'timestream')
    throw h.errors.unsupported(
      'make-graph is not supported on the timestream engine (it has no graphs)',
      spec.make.wordSpan,
    );
  const prefix = `#graph${h.newRef()}`;
  const bound: string[] = [];
  const bind = (suffix: string, rel: Rel): string => {
    const name = `${prefix}.${suffix}`;
    h.bindTable(name, rel);
    bound.push(name);
    return name;
  };
  try {
    const graph = spec.marks.reduce(
      (g, mark, i) => markComponents(h, g, mark, bind, i),
      makeGraph(h, input, spec.make, bind),
    );
    if (end.kind === 'toTable') return graphToTable(h, graph, end);
    if (!spec.partitionOperators) return analyzeGraphMatch(h, graph, end, bind, span);
    return perPartition(h, analyzeGraphMatch(h, graph, end, bind, span, PARTITION), spec.partitionOperators, bind);
  } finally {
    for (const name of bound) h.bindTable(name, undefined);
  }
}

/**
 * The hidden column graph-match adds for partitioned-by's operators: its first node's partition.
 * NUL-led, as the other hidden columns: `*` (pack_array(*), pack_all()) does not see it.
 */
const PARTITION = '\u0000partition';

/**
 * partitioned-by's operators after the graph operator, as the partition operator runs a sub-query:
 * on each partition's rows apart (a take keeps N rows of each), the partition column then dropped.
 */
function perPartition(
  h: GraphHost,
  matches: Rel,
  operators: readonly Operator[],
  bind: (s: string, r: Rel) => string,
): Rel {
  const at = operators[0]!.span;
  const partitioned = h.subquery(
    over(
      bind('partitions', matches),
      [{ kind: 'partition', partition: { key: { name: PARTITION, span: at }, operators }, span: at }],
      at,
    ),
  );
  // Kept by operators that keep every column (take, top, where): not one of the query's columns.
  if (!partitioned.columns.some((c) => c.name === PARTITION)) return partitioned;
  const drop: Operator = { kind: 'projectAway', names: [{ name: PARTITION, wildcard: false, span: at }], span: at };
  return h.subquery(over(bind('partitioned', partitioned), [drop], at));
}

function makeGraph(h: GraphHost, input: Rel, spec: MakeGraphSpec, bind: (s: string, r: Rel) => string): GraphTables {
  const at = spec.wordSpan;
  const column = (cols: readonly IrColumn[], n: { name: string; span: Span }, where: string): IrColumn => {
    const c = cols.find((x) => x.name === n.name);
    if (!c) throw h.unknownColumn(n.name, cols, n.span, where);
    return c;
  };
  const src = column(input.columns, spec.source, 'in the edges');
  const dst = column(input.columns, spec.target, 'in the edges');
  if (src.type !== dst.type || src.type === 'dynamic')
    throw h.errors.semantic(
      `make-graph's node ids '${clip(src.name)}' (${src.type}) and '${clip(dst.name)}' (${dst.type}) must be of one type, not dynamic`,
      { start: spec.source.span.start, end: spec.target.span.end },
    );
  const partition = spec.partitionBy ? column(input.columns, spec.partitionBy, 'in the edges') : undefined;
  // A null id's key in a partitioned graph: the edge end's own (its edge's number) or the nodes tables' one.
  const endKey = (end: string): Expr =>
    call('strcat', [text(`${NULL_KEY}${end}`, at), call('tostring', [ref(EDGE_ID, at)], at)], at);
  const key = (id: string, nullKey: Expr): Expr =>
    partition ? partitionedKey(partition.name, id, nullKey, at) : ref(id, at);
  const inputName = bind('input', input);
  const edgesRel = h.subquery(
    over(
      inputName,
      [
        {
          kind: 'serialize',
          items: [item(EDGE_ID, { kind: 'call', name: 'row_number', nameSpan: at, args: [], span: at })],
          span: at,
        },
        extend([item(EDGE_SRC, key(src.name, endKey('s'))), item(EDGE_DST, key(dst.name, endKey('d')))], at),
      ],
      at,
    ),
  );
  h.materialize(edgesRel);
  const edges = bind('edges', edgesRel);
  // Each nodes table, with its id column checked against the edges' node ids.
  const tables = spec.nodes.map((n, i) => {
    const rel = h.subquery(n.table);
    const id = column(rel.columns, n.id, 'in the nodes table');
    if (id.type !== src.type)
      throw h.errors.semantic(
        `the node id '${clip(id.name)}' is ${id.type} but the edges' node ids are ${src.type}`,
        n.id.span,
      );
    if (partition && spec.partitionBy) {
      const own = column(rel.columns, spec.partitionBy, 'in the nodes table (partitioned-by wants it in every one)');
      if (own.type !== partition.type)
        throw h.errors.semantic(
          `the partition column '${clip(own.name)}' is ${own.type} in a nodes table but ${partition.type} in the edges`,
          n.span,
        );
    }
    return { name: bind(`nodes${i}`, rel), rel, id: id.name };
  });
  const props: IrColumn[] = [];
  for (const t of tables) for (const c of t.rel.columns) if (!props.some((p) => p.name === c.name)) props.push(c);
  // The id properties an edge end gets when no nodes table has a row for it.
  const idProps = spec.nodeIdProperty ? [spec.nodeIdProperty.name] : [...new Set(tables.map((t) => t.id))];
  // A property two legs give different types is dynamic in every leg (as Kusto.Language types
  // it): the union would otherwise split it into type-suffixed columns and lose the name.
  const mixed = mixedTypes([
    ...tables.flatMap((t) => t.rel.columns),
    ...idProps.map((name) => ({ name, type: src.type })),
  ]);
  const value = (to: string, from: string): NamedExpr =>
    mixed.has(to) ? item(to, asDynamic(from, at)) : copy(to, from, at);
  // Over rows the query writes, the nodes come in the order their ids first appear in the edges,
  // each edge's source before its target (graph-mark-components page: Alice, Bob, Carol, Dave, ...):
  // each end carries its edge's number and its side, sorted on before the nodes are grouped. A
  // stored table's nodes come in any order.
  const inOrder = !readsStoredTable(input);
  const position = (side: bigint): NamedExpr[] =>
    inOrder ? [copy(FIRST_EDGE, EDGE_ID, at), item(FIRST_SIDE, long(side, at))] : [];
  const ends = [
    [EDGE_SRC, src.name, 0n],
    [EDGE_DST, dst.name, 1n],
  ].map(([end, id, side]) =>
    over(
      edges,
      [
        project(
          [
            copy(NODE_ID, end as string, at),
            ...idProps.map((p) => value(p, id as string)),
            ...position(side as bigint),
          ],
          at,
        ),
      ],
      at,
    ),
  );
  const nodeLeg = (t: (typeof tables)[number]): Pipeline => {
    const dynamic = t.rel.columns.filter((c) => mixed.has(c.name)).map((c) => value(c.name, c.name));
    return over(
      t.name,
      [extend([item(NODE_ID, key(t.id, text(NULL_KEY, at)))], at), ...(dynamic.length ? [extend(dynamic, at)] : [])],
      at,
    );
  };
  const legs = [...tables.map(nodeLeg), ...ends];
  const propNames = spec.nodeIdProperty ? [spec.nodeIdProperty.name] : props.map((p) => p.name);
  const merged = unionOf(legs, at);
  const nodesRel = h.subquery({
    ...merged,
    operators: [
      ...(partition ? [NO_NODE(at)] : []),
      // Nodes tables' rows (no edge number) first, in their order; the sort is stable.
      ...(inOrder
        ? [{ kind: 'sort', keys: [asc(ref(FIRST_EDGE, at)), asc(ref(FIRST_SIDE, at))], span: at } as Operator]
        : []),
      {
        kind: 'summarize',
        aggregates: propNames.map((p) =>
          item(p, { kind: 'call', name: 'take_any', nameSpan: at, args: [ref(p, at)], span: at }),
        ),
        by: [item(NODE_ID, ref(NODE_ID, at))],
        span: at,
      },
    ],
  });
  h.materialize(nodesRel);
  return {
    nodes: bind('nodes', nodesRel),
    edges,
    nodeProps: nodesRel.columns.filter((c) => c.name !== NODE_ID),
    edgeProps: input.columns,
  };
}

/** An edge end's edge number and side (0 source, 1 target), the order of the nodes over rows the query writes. */
const FIRST_EDGE = '#firstedge';
const FIRST_SIDE = '#firstside';

/** The text every null id's key starts with: no real key does (each starts with a length, a digit). */
const NULL_KEY = '-';

/**
 * Drops the null ids' nodes of a partitioned graph. The engines' null cannot carry a key (tostring(null)
 * is ""), so each edge end with a null id gets a key of its own that no other end or node has, and its
 * node is dropped here: the edge then joins nothing, as a null id joins nothing without partitioned-by.
 */
const NO_NODE = (at: Span): Operator =>
  where(call('not', [binary('startswith_cs', ref(NODE_ID, at), text(NULL_KEY, at), at)], at), at);

/**
 * A node's id in a partitioned graph (make-graph's partitioned-by): its partition and its id in one
 * string, the partition's text prefixed with its length so that no two pairs give one key. Every
 * join of the graph's operators is on this key, so each partition is a graph of its own. A null
 * partition reads as an empty string; a null id gets `nullKey`, a text that starts with NULL_KEY.
 */
function partitionedKey(partition: string, id: string, nullKey: Expr, at: Span): Expr {
  const part = call('tostring', [ref(partition, at)], at);
  const colon = text(':', at);
  const key = call(
    'strcat',
    [call('tostring', [call('strlen', [part], at)], at), colon, part, colon, call('tostring', [ref(id, at)], at)],
    at,
  );
  return call('iff', [call('isnull', [ref(id, at)], at), nullKey, key], at);
}

/** A string literal. */
const text = (value: string, at: Span): Expr => ({ kind: 'literal', type: 'string', value, span: at });

/** The names given more than one type. */
function mixedTypes(columns: readonly { name: string; type: KqlType }[]): Set<string> {
  const first = new Map<string, KqlType>();
  const mixed = new Set<string>();
  for (const c of columns) {
    const seen = first.get(c.name);
    if (seen === undefined) first.set(c.name, c.type);
    else if (seen !== c.type) mixed.add(c.name);
  }
  return mixed;
}

/** `v` as a dynamic value: the one element of pack_array(v), the rule every typed value enters an array by. */
function asDynamic(v: string, at: Span): Expr {
  const packed: Expr = { kind: 'call', name: 'pack_array', nameSpan: at, args: [ref(v, at)], span: at };
  return { kind: 'index', target: packed, index: { kind: 'literal', type: 'long', value: 0n, span: at }, span: at };
}

function graphToTable(h: GraphHost, graph: GraphTables, spec: GraphToTableSpec): Rel {
  const at = spec.span;
  const hashOf = (as: { name: string; span: Span }, id: string) =>
    item(as.name, { kind: 'call', name: 'hash', nameSpan: as.span, args: [ref(id, as.span)], span: as.span });
  if (spec.what === 'nodes') {
    const props = graph.nodeProps.map((c) => copy(c.name, c.name, at));
    const items = spec.nodeId ? [hashOf(spec.nodeId, NODE_ID), ...props] : props;
    if (items.length === 0)
      throw h.errors.semantic(
        "the graph's nodes have no properties: give make-graph a nodes table (with T on Id) or with_node_id=Name, or export with_node_id=",
        at,
      );
    return h.subquery(over(graph.nodes, [project(items, at)], at));
  }
  const items = [
    ...(spec.sourceId ? [hashOf(spec.sourceId, EDGE_SRC)] : []),
    ...(spec.targetId ? [hashOf(spec.targetId, EDGE_DST)] : []),
    ...graph.edgeProps.map((c) => copy(c.name, c.name, at)),
  ];
  return h.subquery(over(graph.edges, [project(items, at)], at));
}
