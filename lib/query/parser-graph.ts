// Parsing of make-graph and the graph operators after it (make-graph, graph-to-table,
// graph-match and graph-mark-components pages of the Kusto docs). make-graph's result is a graph,
// not a table: the parser reads it together with its graph-mark-components and the graph operator
// that turns it back into a table (after `|`, or inside partitioned-by's parentheses, where tabular
// operators may follow it, run per partition by analyze-graph.ts), so a graph
// can never reach an operator that expects a table. A graph that ends a top-level let's value is
// kept open for the graph operator at each use of the let's name (parser-graph-let.ts). Throws
// QueryError QUERY_SEMANTIC for a graph that ends the query or meets a tabular operator (and for a
// graph operator without a graph), QUERY_UNSUPPORTED for forms not run here, QUERY_SYNTAX for
// malformed text.
import type {
  GraphEnd,
  GraphMarkSpec,
  GraphName,
  GraphSpec,
  GraphTablesSpec,
  GraphToTableSpec,
  MakeGraphSpec,
  Pipeline,
} from './ast';
import { parseGraphMatch } from './parser-graph-pattern';
import type { OperatorCursor } from './parser-operators';
import type { Span, Token } from './tokens';

/** The graph operators that read a graph (graph operators page). */
export const GRAPH_OPERATORS: ReadonlySet<string> = new Set([
  'graph-match',
  'graph-to-table',
  'graph-shortest-paths',
  'graph-mark-components',
]);

const FOLLOW = 'follow it with graph-match or graph-to-table';

/**
 * graph-merge (its page), which reads two graphs: not run here (Kusto.Language does not know it
 * either). Refused at its word, `at` the token `graph` of `graph-merge`, with what to do instead.
 */
export function refuseGraphMerge(p: OperatorCursor, at: Token, offset: number): void {
  const dash = p.peekAt(offset);
  const merge = p.peekAt(offset + 1);
  if (at.text !== 'graph' || dash?.text !== '-' || merge?.text !== 'merge' || dash.span.start !== at.span.end) return;
  throw p.errors.unsupported(
    'graph-merge is not supported: it merges two graphs; union their edges and their nodes tables and build one graph with make-graph instead',
    { start: at.span.start, end: merge.span.end },
  );
}

/** The parser, which knows whether a graph may end here: the value of a top-level `let`. */
export interface GraphCursor extends OperatorCursor {
  /** Whether a graph followed by `;` is a let's value, kept open for its uses. */
  graphLetValue(): boolean;
}

/**
 * After the word make-graph: the graph, its graph-mark-components, and the graph operator that
 * ends it (an open end for a let's value).
 */
export function parseGraph(p: GraphCursor, word: Token): GraphSpec {
  const make = parseMakeGraph(p, word.span);
  const partitioned = partitionedBy(p);
  if (!partitioned) {
    const first = nextGraphOperator(p, word);
    return { make, ...(first ? graphOperators(p, first) : { marks: [], end: openEnd(word) }) };
  }
  // partitioned-by Column ( GraphOperator ): the operators inside the parentheses, a table after them.
  const open = p.expectOp('(');
  const first = p.next();
  if (first.kind !== 'ident' || !GRAPH_OPERATORS.has(first.text))
    throw p.errors.syntax(
      `partitioned-by runs a graph operator on each partition's graph, not '${first.text}'`,
      first.span,
    );
  const rest = graphOperators(p, first);
  if (rest.marks.length > 0)
    throw p.errors.unsupported(
      "graph-mark-components inside make-graph's partitioned-by is not supported (its component numbers would run across the partitions, not from 0 in each)",
      rest.marks[0]!.span,
    );
  // Tabular operators may follow inside the parentheses (graph_path_discovery_fl's `| limit N`), per partition.
  const bar = p.peek();
  const after = p.acceptOp('|') ? p.subOperators(bar.span) : undefined;
  if (after && rest.end.kind !== 'match')
    throw p.errors.unsupported(
      "tabular operators after graph-to-table inside make-graph's partitioned-by are not supported: put them after the parentheses",
      bar.span,
    );
  if (!p.acceptOp(')')) throw p.errors.syntax("expected ')' closing partitioned-by's graph operator", open.span);
  return { make: { ...make, partitionBy: partitioned }, ...rest, ...(after ? { partitionOperators: after } : {}) };
}

/** `partitioned-by Column` (the make-graph page's third form), if it comes next. */
function partitionedBy(p: OperatorCursor): GraphName | undefined {
  if (!(p.peekIdent('partitioned') && p.peekAt(1)?.text === '-' && p.peekAt(2)?.text === 'by')) return undefined;
  p.next();
  p.next();
  p.next();
  return p.expectName('the partition column after partitioned-by');
}

/** From the graph operator `op` on: its graph-mark-components and the operator that ends the graph. */
export function graphOperators(p: GraphCursor, op: Token): Pick<GraphSpec, 'marks' | 'end'> {
  const marks: GraphMarkSpec[] = [];
  while (op.text === 'graph-mark-components') {
    marks.push(parseMarkComponents(p, op.span.start));
    const next = nextGraphOperator(p, op);
    if (!next) return { marks, end: openEnd(op) };
    op = next;
  }
  const end: GraphEnd =
    op.text === 'graph-to-table'
      ? parseGraphTables(p, op.span.start)
      : parseGraphMatch(p, op.span.start, op.text === 'graph-shortest-paths');
  return { marks, end };
}

/** The end of a graph that a let keeps, after the operator `after`. */
function openEnd(after: Token): GraphEnd {
  return { kind: 'open', span: after.span };
}

/**
 * The graph operator after the graph that `after` returned; none where a let keeps the graph (a
 * top-level let's value ends there). Anything else is refused there.
 */
function nextGraphOperator(p: GraphCursor, after: Token): Token | undefined {
  const bar = p.peek();
  if (p.graphLetValue() && bar.kind === 'op' && bar.text === ';') return undefined;
  if (!(bar.kind === 'op' && bar.text === '|'))
    throw p.errors.semantic(
      `${after.text} returns a graph, not a table, so it cannot end a query or a sub-query (only a top-level let keeps a graph): ${FOLLOW}`,
      after.span,
    );
  p.next();
  const op = p.next();
  refuseGraphMerge(p, op, 0);
  if (op.kind !== 'ident' || !GRAPH_OPERATORS.has(op.text)) {
    const shown = op.kind === 'eof' ? 'the end of the query' : `'${op.text}'`;
    throw p.errors.semantic(
      `${shown} cannot follow ${after.text}: a graph is not a table, only graph operators read it; ${FOLLOW}`,
      op.span,
    );
  }
  return op;
}

/** After the word graph-mark-components: `[kind=weak|strong] [with_component_id=Name]` (its page). */
function parseMarkComponents(p: OperatorCursor, start: number): GraphMarkSpec {
  let strong = false;
  let property = 'ComponentId';
  const given = new Set<string>();
  for (;;) {
    const t = p.peek();
    if (t.kind !== 'ident' || p.peekAt(1)?.text !== '=') break;
    if (t.text !== 'kind' && t.text !== 'with_component_id')
      throw p.errors.syntax(`graph-mark-components takes kind= and with_component_id=, not '${t.text}'`, t.span);
    // Kusto.Language: "The parameter 'kind' is already specified." (the later one would win silently).
    if (given.has(t.text)) throw p.errors.syntax(`graph-mark-components' ${t.text}= is given twice`, t.span);
    given.add(t.text);
    p.next();
    p.next();
    if (t.text === 'with_component_id') {
      property = p.expectName('a property name after with_component_id=').name;
      continue;
    }
    const k = p.next();
    const value = k.kind === 'string' ? String(k.value) : k.text;
    if (value !== 'weak' && value !== 'strong')
      throw p.errors.syntax(`kind is weak or strong, not '${k.text}'`, k.span);
    strong = value === 'strong';
  }
  return { strong, property, span: p.spanFrom(start) };
}

/** A graph operator with no make-graph before it: its input is a table. */
export function graphOperatorWithoutGraph(p: OperatorCursor, word: Token): Error {
  return p.errors.semantic(`${word.text} reads a graph, not a table: build one with make-graph before it`, word.span);
}

function parseMakeGraph(p: OperatorCursor, wordSpan: Span): MakeGraphSpec {
  const source = p.expectName('the edges source column');
  p.expectOp('-');
  p.expectOp('-');
  p.expectOp('>');
  const target = p.expectName('the edges target column');
  const base = { source, target, wordSpan };
  if (p.peekIdent('with_node_id') && p.peekAt(1)?.text === '=') {
    p.next();
    p.next();
    const nodeIdProperty = p.expectName('a property name after with_node_id=');
    return { ...base, nodes: [], nodeIdProperty };
  }
  const nodes: MakeGraphSpec['nodes'][number][] = [];
  if (p.acceptIdent('with')) {
    do {
      const start = p.peek().span.start;
      const table = nodesTable(p);
      p.expectIdent('on');
      const id = p.expectName('the node id column');
      nodes.push({ table, id, span: p.spanFrom(start) });
    } while (p.acceptOp(','));
  }
  return { ...base, nodes };
}

/** A parenthesized tabular expression, or a table or let name. */
function nodesTable(p: OperatorCursor): Pipeline {
  const open = p.acceptOp('(');
  if (open) {
    const pipeline = p.subPipeline(open.span);
    p.expectOp(')');
    return pipeline;
  }
  const name = p.expectName('a nodes table name or a parenthesized query');
  return {
    kind: 'pipeline',
    source: { kind: 'table', name: name.name, span: name.span },
    operators: [],
    span: name.span,
  };
}

/** After the word graph-to-table: one table, nodes or edges, or both (`nodes as N ..., edges as E ...`). */
function parseGraphTables(p: OperatorCursor, start: number): GraphToTableSpec | GraphTablesSpec {
  const first = parseGraphToTable(p, start);
  if (!p.acceptOp(',')) return first;
  const second = parseGraphToTable(p, p.peek().span.start);
  const span = p.spanFrom(start);
  if (first.what !== 'nodes' || second.what !== 'edges')
    throw p.errors.syntax('graph-to-table of two tables exports nodes, then edges', span);
  const { name: nodesName } = first;
  const { name: edgesName } = second;
  if (!nodesName || !edgesName)
    throw p.errors.syntax('graph-to-table of nodes and edges names each table: nodes as N ..., edges as E ...', span);
  return { kind: 'toTables', nodes: { ...first, name: nodesName }, edges: { ...second, name: edgesName }, span };
}

/** `nodes [as N] [with_node_id=C]` or `edges [as E] [with_source_id=S] [with_target_id=T]`. */
function parseGraphToTable(p: OperatorCursor, start: number): GraphToTableSpec {
  const what = p.next();
  if (what.text !== 'nodes' && what.text !== 'edges')
    throw p.errors.syntax(`graph-to-table exports nodes or edges, not '${what.text}'`, what.span);
  let nodeId: GraphName | undefined;
  let sourceId: GraphName | undefined;
  let targetId: GraphName | undefined;
  let name: GraphName | undefined;
  const allowed = what.text === 'nodes' ? ['with_node_id'] : ['with_source_id', 'with_target_id'];
  for (;;) {
    if (p.acceptIdent('as')) {
      name = p.expectName('a table name after as');
      continue;
    }
    const t = p.peek();
    if (t.kind !== 'ident' || p.peekAt(1)?.text !== '=') break;
    if (!allowed.includes(t.text))
      throw p.errors.syntax(`graph-to-table ${what.text} takes ${allowed.join(' and ')}, not '${t.text}'`, t.span);
    p.next();
    p.next();
    const column = p.expectName(`a column name after ${t.text}=`);
    if (t.text === 'with_node_id') nodeId = column;
    else if (t.text === 'with_source_id') sourceId = column;
    else targetId = column;
  }
  return {
    kind: 'toTable',
    what: what.text,
    ...(nodeId ? { nodeId } : {}),
    ...(sourceId ? { sourceId } : {}),
    ...(targetId ? { targetId } : {}),
    ...(name ? { name } : {}),
    span: p.spanFrom(start),
  };
}
