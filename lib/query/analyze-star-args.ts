// `pack_array(*)`: an array of the row's columns, in the input's order (Kusto.Language accepts it
// wherever a scalar goes and types it dynamic; the functions library's pairwise_dist_fl packs each
// row so). The star is spelled out as the input's column names: by project and extend before their
// items are analyzed (their later items must not see the earlier ones), and by the scalar analysis
// everywhere else (where, sort, summarize, mv-apply's sub-query ...) over that position's input.
import { findInChildren, mapChildren } from './ast-walk';
import type { Expr } from './ast';

type Call = Expr & { kind: 'call' };

/** Whether `e` is `pack_array(*)`. */
export const isStarPack = (e: Expr): boolean =>
  e.kind === 'call' && e.name === 'pack_array' && e.args.length === 1 && e.args[0]!.kind === 'star';

/**
 * `pack_array(*)` as `pack_array(c1, c2, ...)` over `columnNames` (hidden columns left out). With no
 * column (`print pack_array(*)`: a print has no input) it packs nothing: `dynamic([])`, which
 * Kusto.Language accepts and types dynamic, where `pack_array()` itself needs an argument.
 */
export function spellPackArrayStar(call: Call, columnNames: readonly string[]): Expr {
  const at = call.args[0]!.span;
  const args: Expr[] = columnNames
    .filter((n) => !n.startsWith('\u0000'))
    .map((name) => ({ kind: 'name', name, span: at }));
  if (args.length === 0) return { kind: 'literal', type: 'dynamic', value: '[]', span: call.span };
  return { ...call, args };
}

/** `e` with each `pack_array(*)` in it written as `pack_array(c1, c2, ...)` over `columnNames`. */
export function expandPackArrayStar(e: Expr, columnNames: readonly string[]): Expr {
  if (!mentionsStarPack(e)) return e;
  const spell = (x: Expr): Expr => (isStarPack(x) ? spellPackArrayStar(x as Call, columnNames) : mapChildren(x, spell));
  return spell(e);
}

function mentionsStarPack(e: Expr): boolean {
  if (isStarPack(e)) return true;
  return findInChildren(e, (c) => (mentionsStarPack(c) ? true : undefined)) ?? false;
}
