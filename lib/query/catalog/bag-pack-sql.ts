// bag_pack (pack, pack_dictionary): a property bag from key, value pairs, written as JSON text.
// A bag holds a key once. The page (pack-function.md) is silent on a repeated key, so the last
// pair's value wins, as in bag_zip and parse_url: a pair is kept only when no later key equals it.
import type { IrExpr } from '../ir';
import type { SqlBuilder } from './types';

const constKey = (e: IrExpr | undefined): string | undefined =>
  e?.kind === 'lit' && typeof e.value === 'string' ? e.value : undefined;

/**
 * The later keys that may equal key i: two constant keys are compared here, so the common case
 * (distinct constant keys) compiles to the plain concatenation; a column key is compared in SQL.
 * undefined when a later constant key is the same constant: the pair is dropped outright.
 */
function laterRivals(args: readonly IrExpr[], a: readonly string[], i: number): string[] | undefined {
  const mine = constKey(args[i]);
  const rivals: string[] = [];
  for (let j = i + 2; j + 1 < a.length; j += 2) {
    const theirs = constKey(args[j]);
    if (mine !== undefined && theirs !== undefined) {
      if (mine === theirs) return undefined;
    } else rivals.push(a[j]!);
  }
  return rivals;
}

export const bagPack: SqlBuilder = ({ a, args, d, json }) => {
  const pieces: { readonly key: string; readonly pair: string; readonly rivals: readonly string[] }[] = [];
  for (let i = 0; i + 1 < a.length; i += 2) {
    const rivals = laterRivals(args, a, i);
    if (rivals) pieces.push({ key: a[i]!, pair: `${json(i)} || ':' || ${json(i + 1)}`, rivals });
  }
  let body: string;
  if (pieces.every((p) => p.rivals.length === 0)) {
    body = pieces.length ? pieces.map((p) => p.pair).join(" || ',' || ") : "''";
  } else {
    // Each kept pair carries its leading comma; the first comma is cut off. A null key matches no
    // rival (IN gives null), so it is kept as before.
    const withComma = pieces.map((p) =>
      p.rivals.length === 0
        ? `',' || ${p.pair}`
        : `CASE WHEN ${p.key} IN (${p.rivals.join(', ')}) THEN '' ELSE ',' || ${p.pair} END`,
    );
    body = `substr(${withComma.join(' || ')}, 2)`;
  }
  const text = `'{' || ${body} || '}'`;
  return d.name === 'duckdb' ? `CAST(${text} AS JSON)` : text;
};
