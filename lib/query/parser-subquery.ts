// Parsing of tabular expressions inside scalar ones (toscalar(T), `x in (T)`, `x in ((T | ...))`,
// toscalar function and in operator docs) and of the as operator. Throws QueryError QUERY_SYNTAX for
// malformed text and QUERY_UNSUPPORTED for as hints other than hint.materialized.
import type { Expr } from './ast';
import type { OperatorCursor } from './parser-operators';
import { boolWord, type Span } from './tokens';

export interface SubqueryCursor extends OperatorCursor {
  /** Whether the token `offset` places ahead starts a tabular expression (a table, a tabular let, datatable ...). */
  startsTabular(offset?: number): boolean;
}

/**
 * A tabular expression at the cursor, bare (`T | where ...`) or in its own parentheses (the docs'
 * double parentheses of an inline query: `x in ((T | distinct y))`); undefined when there is none.
 */
export function tabularOperand(p: SubqueryCursor): Expr | undefined {
  const start = p.peek().span;
  if (p.startsTabular(0)) {
    const pipeline = p.subPipeline(start);
    return { kind: 'tabular', pipeline, span: pipeline.span };
  }
  if (p.peekOp('(') && p.startsTabular(1)) {
    const open = p.next();
    const pipeline = p.subPipeline(open.span);
    p.expectOp(')');
    return { kind: 'tabular', pipeline, span: p.spanFrom(open.span.start) };
  }
  return undefined;
}

/**
 * After the word as: `[hint.materialized = true|false] Name`. Materializing changes no result within
 * one statement; a batch computes a materialized name once for all its tables (statements-names.ts).
 */
export function parseAs(p: OperatorCursor): { name: string; span: Span; materialized?: true } {
  let materialized = false;
  if (p.peekIdent('hint') && p.peekAt(1)?.text === '.') {
    const start = p.next().span.start;
    p.expectOp('.');
    const hint = p.expectName('a hint name');
    if (hint.name !== 'materialized')
      throw p.errors.unsupported(`the 'hint.${hint.name}' hint of as is not supported`, p.spanFrom(start));
    p.expectOp('=');
    const word = p.next();
    const value = boolWord(word);
    if (value === undefined) throw p.errors.syntax("hint.materialized is 'true' or 'false'", word.span);
    materialized = value;
  }
  const name = p.expectName('a name after as');
  return materialized ? { ...name, materialized } : name;
}
