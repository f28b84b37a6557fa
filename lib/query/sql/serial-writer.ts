// What the generator lends to the SQL writers of operators that walk the rows in their serialized
// order with a recursive CTE (row_window_session, scan): its dialect and expression writer, and the
// input in its order.
import type { IrExpr } from '../ir';
import type { SqlDialect } from './dialect';

export interface SerialWriter {
  readonly d: SqlDialect;
  q(name: string): string;
  /** A fresh private name with this prefix. */
  hidden(prefix: string): string;
  expr(e: IrExpr): string;
  /** e's SQL without counting it against the size limit: a look at what expr() would write. */
  peek(e: IrExpr): string;
  /** A QUERY_UNSUPPORTED error at e (else at the operator) for what the walk cannot compute. */
  refuse(detail: string, e: IrExpr): Error;
  /** The input's SELECT (its columns and carried refs). */
  readonly input: string;
  /** The input's refs (columns and carried order keys). */
  readonly refs: readonly string[];
  /** The ORDER BY keys of the input's serialized order. */
  readonly orderBy: string;
}
