// Relations and expressions that pick rows or values at random (sample, rand(), new_guid()), and
// the structural key under which two of them are the same computation (analyzer.ts: a scalar
// sub-query is computed once, as the named-expressions page's toscalar(rand(1000)) shows).
import type { Rel } from './ir';

/** Whether a relation or expression picks rows or values at random anywhere inside. */
export function isRandom(node: unknown, seen = new Set<unknown>()): boolean {
  if (typeof node !== 'object' || node === null || seen.has(node)) return false;
  seen.add(node);
  const o = node as { kind?: unknown; catalog?: unknown; name?: unknown };
  if (o.kind === 'sample') return true;
  if (o.catalog === 'scalar' && (o.name === 'rand' || o.name === 'new_guid')) return true;
  return Object.values(node).some((v) => isRandom(v, seen));
}

/**
 * The relation's structure with its column refs numbered in order of appearance: two analyses of
 * the same text (a function's body expanded at two calls) give the same key.
 */
export function structuralKey(rel: Rel): string {
  const refs = new Map<string, string>();
  return JSON.stringify(rel, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'string' && /^_c\d+$/.test(value)) {
      let n = refs.get(value);
      if (n === undefined) refs.set(value, (n = `#${refs.size}`));
      return n;
    }
    return value;
  });
}

/** Whether an expression reads a column of the row it is computed for. */
export function readsColumns(node: unknown, seen = new Set<unknown>()): boolean {
  if (typeof node !== 'object' || node === null || seen.has(node)) return false;
  seen.add(node);
  const kind = (node as { kind?: unknown }).kind;
  if (kind === 'col') return true;
  // A sub-query's columns are its own rows', not the row's.
  if (kind === 'subquery') return false;
  return Object.values(node).some((v) => readsColumns(v, seen));
}
