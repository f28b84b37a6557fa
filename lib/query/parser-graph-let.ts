// A graph kept in a let (graph scenarios page: `let G = edges | make-graph source --> target with
// nodes on name; G | graph-match ...`). A graph is not a table, so the let binds no value: its
// edges input and each nodes table become lets of their own under private names (read in the let's
// scope, as a let's value is), and each use `G | graph-operator ...` is read as the let's
// make-graph over them ended by that operator, as `make-graph | graph-match` is. Any other use of
// the name (alone, in a join or a sub-query) is refused there: QueryError QUERY_SEMANTIC.
import type { GraphMarkSpec, LetStatement, MakeGraphSpec, Operator, Pipeline, Source } from './ast';
import { GRAPH_OPERATORS, graphOperators, refuseGraphMerge, type GraphCursor } from './parser-graph';
import type { Span } from './tokens';

interface GraphLet {
  /** The private let of the edges: the let's value before make-graph. */
  readonly edges: string;
  /** make-graph with its nodes tables read from their private lets. */
  readonly make: MakeGraphSpec;
  readonly marks: readonly GraphMarkSpec[];
}

const PRIVATE = '#graph-let.';

/** A private name: `#` starts no name of the query text (as analyze-graph.ts's tables). */
function privateName(letName: string, part: string): string {
  return `${PRIVATE}${letName}.${part}`;
}

/** The graph let whose input a private name holds, or undefined for any other name. */
export function graphLetOf(name: string): string | undefined {
  if (!name.startsWith(PRIVATE)) return undefined;
  const rest = name.slice(PRIVATE.length);
  return rest.slice(0, rest.lastIndexOf('.'));
}

function tableOf(name: string, span: Span): Pipeline {
  return { kind: 'pipeline', source: { kind: 'table', name, span }, operators: [], span };
}

export class GraphLets {
  private readonly graphs = new Map<string, GraphLet>();

  /**
   * The let statements that stand for `statement`: the private lets of a graph's inputs for a let
   * whose value ends in an open make-graph, the statement itself otherwise (which hides an earlier
   * graph let of its name).
   */
  bind(statement: LetStatement): readonly LetStatement[] {
    const { value } = statement;
    const last = value.kind === 'pipeline' ? value.operators[value.operators.length - 1] : undefined;
    if (value.kind !== 'pipeline' || last?.kind !== 'graph' || last.graph.end.kind !== 'open') {
      this.graphs.delete(statement.name);
      return [statement];
    }
    const { make, marks } = last.graph;
    const at = statement.nameSpan;
    const letOf = (name: string, pipeline: Pipeline): LetStatement => ({
      kind: 'let',
      name,
      nameSpan: at,
      value: pipeline,
      span: statement.span,
    });
    const edges = letOf(privateName(statement.name, 'edges'), {
      ...value,
      operators: value.operators.slice(0, -1),
    });
    const nodes = make.nodes.map((n, i) => letOf(privateName(statement.name, `nodes${i}`), n.table));
    this.graphs.set(statement.name, {
      edges: edges.name,
      make: { ...make, nodes: make.nodes.map((n, i) => ({ ...n, table: tableOf(nodes[i]!.name, n.table.span) })) },
      marks,
    });
    return [edges, ...nodes];
  }

  isGraph(name: string): boolean {
    return this.graphs.has(name);
  }

  /**
   * The source and operators of a pipeline that starts with the graph let's name: its make-graph
   * over the edges let, ended by the graph operators after the name.
   * @throws QueryError QUERY_SEMANTIC when no graph operator follows the name.
   */
  use(p: GraphCursor, source: Source & { kind: 'table' }): { source: Source; operators: Operator[] } {
    const graph = this.graphs.get(source.name);
    if (!graph) throw new TypeError(`'${source.name}' is not a graph let`);
    const word = p.peekAt(1);
    if (p.peekOp('|') && word) refuseGraphMerge(p, word, 2);
    if (!(p.peekOp('|') && word?.kind === 'ident' && GRAPH_OPERATORS.has(word.text)))
      throw p.errors.semantic(
        `'${source.name}' is a graph (its let ends in make-graph), not a table: only a graph operator reads it (${source.name} | graph-match ..., ${source.name} | graph-to-table ...)`,
        source.span,
      );
    p.next();
    const rest = graphOperators(p, p.next());
    const operator: Operator = {
      kind: 'graph',
      graph: { make: graph.make, marks: [...graph.marks, ...rest.marks], end: rest.end },
      span: p.spanFrom(source.span.start),
    };
    return { source: { kind: 'table', name: graph.edges, span: source.span }, operators: [operator] };
  }
}
