// scan's steps run inside list_reduce lambdas (sql/scan.ts), and DuckDB refuses a subquery inside a
// lambda ("subqueries in lambda expressions are not supported"). Some functions' SQL holds one
// (dynamic_to_json and treepath walk json_tree() in a recursive query, the time zone functions read
// the zone table, toscalar() is one): where such a call reads only the row's input columns, it is
// computed before the walk, as a column of the numbered rows the walk reads. One that reads the
// state (a declared column, `s.x`) cannot move: it is refused at the step's expression.
import type { IrColumn, IrExpr, ScanIr } from '../ir';
import type { SerialWriter } from './serial-writer';

/** A hoisted computation: a hidden input column of the walk and its SQL over the input's columns. */
export interface HoistedColumn extends IrColumn {
  readonly sql: string;
}

/** `scan` with its row-only calls holding a subquery read from hidden input columns, and those columns. */
export function hoistSubqueries(w: SerialWriter, scan: ScanIr): { scan: ScanIr; hoisted: HoistedColumn[] } {
  const inputs = new Set(scan.inputs.map((c) => c.ref));
  const hoisted: HoistedColumn[] = [];
  const rowOnly = (e: IrExpr): boolean =>
    e.kind === 'col' ? inputs.has(e.ref) : e.kind === 'call' ? e.args.every(rowOnly) : true;
  // The largest row-only scalar computation holding a subquery moves (a list's subquery, the right
  // side of in, moves with its call). The SQL looked at here (peek) is not counted against the size
  // limit: only what the query's SQL holds is (the walk's steps, a hoisted column's SQL).
  const rewrite = (e: IrExpr): IrExpr => {
    if (!hasSubquery(w.peek(e))) return e;
    const scalar = e.kind === 'call' || (e.kind === 'subquery' && e.mode === 'scalar');
    if (scalar && rowOnly(e)) {
      const column: HoistedColumn = { name: '', type: e.type, ref: w.hidden('_xh'), sql: w.expr(e) };
      hoisted.push(column);
      return { kind: 'col', ref: column.ref, type: e.type };
    }
    return e.kind === 'call' ? { ...e, args: e.args.map(rewrite) } : e;
  };
  const refuseLeft = (before: IrExpr, after: IrExpr): IrExpr => {
    if (hasSubquery(w.peek(after)))
      throw w.refuse(
        "this step's expression reads the scan's state through a function the engine computes with a subquery (dynamic_to_json, treepath, the time zone functions, toscalar()), which cannot run inside the step; compute it from the row's columns, or with extend after the scan",
        before,
      );
    return after;
  };
  const steps = scan.steps.map((s) => ({
    ...s,
    condition: refuseLeft(s.condition, rewrite(s.condition)),
    assigned: s.assigned.map((a) => (a ? refuseLeft(a, rewrite(a)) : a)),
  }));
  return { scan: { ...scan, inputs: [...scan.inputs, ...hoisted], steps }, hoisted };
}

export const hasSubquery = (sql: string): boolean => sql.includes('SELECT ');
