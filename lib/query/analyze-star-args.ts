// `pack_array(*)`: an array of the row's columns, in the input's order (Kusto.Language accepts it and
// types it dynamic; the functions library's pairwise_dist_fl packs each row so). The star is spelled
// out as the input's column names before the scalar analysis, which knows no star outside the
// aggregations that take one.
import { findInChildren, mapChildren } from './ast-walk';
import type { Expr } from './ast';
import type { IrColumn } from './ir';

/** `e` with each `pack_array(*)` written as `pack_array(c1, c2, ...)` over `columns` (hidden ones left out). */
export function expandPackArrayStar(e: Expr, columns: readonly IrColumn[]): Expr {
  if (!mentionsStarPack(e)) return e;
  const spell = (x: Expr): Expr => {
    if (x.kind === 'call' && x.name === 'pack_array' && x.args.length === 1 && x.args[0]!.kind === 'star') {
      const args: Expr[] = columns
        .filter((c) => !c.name.startsWith('\u0000'))
        .map((c) => ({ kind: 'name', name: c.name, span: x.args[0]!.span }));
      return { ...x, args };
    }
    return mapChildren(x, spell);
  };
  return spell(e);
}

function mentionsStarPack(e: Expr): boolean {
  if (e.kind === 'call' && e.name === 'pack_array' && e.args.length === 1 && e.args[0]!.kind === 'star') return true;
  return findInChildren(e, (c) => (mentionsStarPack(c) ? true : undefined)) ?? false;
}
