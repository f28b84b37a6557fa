// project-reorder with an order per pattern (project-reorder operator docs): each pattern's matches
// in the order asked (names compared as text, or "granny" order where digit runs compare as
// numbers: a2 before a10), the patterns in the order written, then the other columns in input order.
// Throws QueryError QUERY_SEMANTIC for a plain name that is no column.
import type { NamePattern, ReorderOrder } from './ast';
import type { IrColumn } from './ir';
import { matchesWildcard } from './naming';
import type { Span } from './tokens';

export interface ReorderHost {
  unknownColumn(name: string, cols: readonly IrColumn[], span: Span): Error;
}

export function reorderColumns(
  host: ReorderHost,
  cols: readonly IrColumn[],
  names: readonly NamePattern[],
  orders: readonly (ReorderOrder | undefined)[],
): IrColumn[] {
  const picked = new Set<IrColumn>();
  names.forEach((p, i) => {
    const matches = p.wildcard
      ? cols.filter((c) => matchesWildcard(p.name, c.name))
      : cols.filter((c) => c.name === p.name).slice(0, 1);
    if (!p.wildcard && matches.length === 0) throw host.unknownColumn(p.name, cols, p.span);
    const order = orders[i];
    const fresh = matches.filter((c) => !picked.has(c));
    if (order !== undefined) fresh.sort(comparator(order));
    for (const c of fresh) picked.add(c);
  });
  return [...picked, ...cols.filter((c) => !picked.has(c))];
}

function comparator(order: ReorderOrder): (a: IrColumn, b: IrColumn) => number {
  const sign = order.endsWith('desc') ? -1 : 1;
  const granny = order.startsWith('granny');
  return (a, b) => sign * (granny ? grannyCompare(a.name, b.name) : ordinal(a.name, b.name));
}

const ordinal = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Digit runs compare by value, the rest as text. */
function grannyCompare(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    const c = numeric ? Number(x) - Number(y) || x.length - y.length : ordinal(x, y);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}
