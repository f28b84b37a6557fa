// One walk over an expression's scalar children, for the analyzers that rewrite or search
// expressions (aggregates inside expressions, window functions, scan's step references). A new
// expression kind with children is added here once. A tabular expression (toscalar(T), x in (T))
// is not walked into: its columns are another scope's.
import type { Expr } from './ast';

/** `e` with each direct child expression replaced by `f(child)`; leaves are returned as they are. */
export function mapChildren(e: Expr, f: (child: Expr) => Expr): Expr {
  switch (e.kind) {
    case 'binary':
      return { ...e, left: f(e.left), right: f(e.right) };
    case 'unary':
      return { ...e, operand: f(e.operand) };
    case 'call':
      return { ...e, args: e.args.map(f) };
    case 'member':
      return { ...e, target: f(e.target) };
    case 'index':
      return { ...e, target: f(e.target), index: f(e.index) };
    case 'in':
      return { ...e, left: f(e.left), values: e.values.map(f) };
    case 'between':
      return { ...e, left: f(e.left), low: f(e.low), high: f(e.high) };
    default:
      return e;
  }
}

/** The first result of `f` over the direct children of `e`, in source order, that is not undefined. */
export function findInChildren<T>(e: Expr, f: (child: Expr) => T | undefined): T | undefined {
  switch (e.kind) {
    case 'binary':
      return f(e.left) ?? f(e.right);
    case 'unary':
      return f(e.operand);
    case 'call':
      for (const a of e.args) {
        const found = f(a);
        if (found !== undefined) return found;
      }
      return undefined;
    case 'member':
      return f(e.target);
    case 'index':
      return f(e.target) ?? f(e.index);
    case 'in':
      return f(e.left) ?? e.values.map(f).find((x) => x !== undefined);
    case 'between':
      return f(e.left) ?? f(e.low) ?? f(e.high);
    default:
      return undefined;
  }
}

/** Every column name an expression reads (its `name` nodes), at any depth. */
export function namesIn(e: Expr): Set<string> {
  const named = new Set<string>();
  const collect = (x: Expr): void => {
    if (x.kind === 'name') named.add(x.name);
    else findInChildren(x, collect);
  };
  collect(e);
  return named;
}

/** Functions that read a row's columns without naming them (so namesIn() does not see what they read). */
const WHOLE_ROW_CALLS: ReadonlySet<string> = new Set(['pack_all', 'column_ifexists']);

/** Whether an expression reads columns it does not name: `*` (`* has "x"`, `hash(*)`), pack_all(), column_ifexists(). */
export function readsUnnamedColumns(e: Expr): boolean {
  if (e.kind === 'star' || (e.kind === 'call' && WHOLE_ROW_CALLS.has(e.name))) return true;
  return findInChildren(e, (x) => (readsUnnamedColumns(x) ? true : undefined)) ?? false;
}
