// The query's lets as a user function's body reads them (expand-udf.ts): those visible where the
// function is defined, not those at its call (lexical scope). Kusto.Language binds
// `let x = 1; let f = () { x }; let x = 2; print f()` to the first x (and refuses the second let of
// one name; the let statement page only says the innermost let applies), and a body naming a let
// declared after it reads no let ("does not refer to any known ... variable"). Expanded at its call,
// a body would read the let current there, so:
// - a let hidden by a later let of its name, after a function was defined, is kept under an alias
//   (a let of a NUL-led name, no column's or table's) that the function's body reads instead;
// - a name in a body that is a let declared after the function reads no let: the row's column of
//   that name, else an unknown name.
// Throws QueryError QUERY_SEMANTIC for a body reading a tabular let declared after it.
import type { Expr, LetStatement, Pipeline } from './ast';
import { clip, type ErrorFactory } from './errors';
import { graphLetOf } from './parser-graph-let';
import { isTableName } from '../telemetry/tables';

interface LetDecl {
  /** The name the let is read by: its own until a later let hides it, then its alias. */
  readAs: string;
  readonly tabular: boolean;
  /** Functions defined before it: one defined after it may read it. */
  readonly functionsBefore: number;
}

/** The query's lets a function's body sees, by name. */
export type LetsSeen = ReadonlyMap<string, LetDecl>;

/** No let has this name: a name bound to it reads only a column. */
const NO_LET = '\u0000no_let';

export class QueryLets {
  private readonly decls = new Map<string, LetDecl>();
  private functions = 0;
  private aliases = 0;

  /** The lets a function defined now sees. */
  defineFunction(): LetsSeen {
    this.functions++;
    return new Map(this.decls);
  }

  /**
   * Declares a let (its value already expanded); gives the statements that go before it: an alias
   * of the let of its name it hides, when a function defined since can read that one.
   */
  declare(stmt: LetStatement): LetStatement[] {
    // A graph let's private lets are the graph's own (parser-graph-let.ts).
    if (graphLetOf(stmt.name) !== undefined) return [];
    const hidden = this.decls.get(stmt.name);
    this.decls.set(stmt.name, {
      readAs: stmt.name,
      tabular: stmt.value.kind === 'pipeline',
      functionsBefore: this.functions,
    });
    if (!hidden || hidden.functionsBefore === this.functions) return [];
    hidden.readAs = `\u0000let_${this.aliases++}_${stmt.name}`;
    const span = stmt.nameSpan;
    const value: Expr | Pipeline = hidden.tabular
      ? { kind: 'pipeline', source: { kind: 'table', name: stmt.name, span }, operators: [], span }
      : { kind: 'name', name: stmt.name, span };
    return [{ kind: 'let', name: hidden.readAs, nameSpan: span, value, span }];
  }
}

/**
 * A name in a body that no parameter or body let binds, as the body reads it: a let of the query
 * under the name it had at the function's definition; a column first, as for any let.
 */
export function seenName(seen: LetsSeen, queryLets: ReadonlySet<string>, node: Expr & { kind: 'name' }): Expr {
  if (node.orLet !== undefined || !queryLets.has(node.name)) return node;
  const readAs = seen.get(node.name)?.readAs ?? NO_LET;
  return readAs === node.name ? node : { ...node, orLet: readAs };
}

/**
 * A table name in a body that no parameter, body let or function binds: a tabular let of the query
 * visible at the function's definition (under the name it had there), else the table; undefined
 * when it reads the name as written.
 */
export function seenTable(
  errors: ErrorFactory,
  seen: LetsSeen,
  queryLets: ReadonlySet<string>,
  source: { readonly name: string; readonly span: Pipeline['span'] },
): Pipeline | undefined {
  if (!queryLets.has(source.name)) return undefined;
  const decl = seen.get(source.name);
  if (!decl) {
    // A stored table a later let hides: left as written (the analyzer reads it as that let, a gap
    // noted in docs/query-api.md), where Kusto's body would read the table.
    if (isTableName(source.name)) return undefined;
    throw errors.semantic(
      `unknown table '${clip(source.name)}': its let comes after the function that reads it, which sees only the lets before its definition`,
      source.span,
    );
  }
  if (decl.readAs === source.name) return undefined;
  const { span } = source;
  return { kind: 'pipeline', source: { kind: 'table', name: decl.readAs, span }, operators: [], span };
}
