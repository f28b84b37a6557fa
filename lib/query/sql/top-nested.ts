// SQL of top-nested (top-nested operator docs), the same for every dialect: level k groups the
// input by the keys of levels 1..k and numbers each group inside its parent (row_number over the
// aggregation); the kept paths join the levels on their common keys (null-safe) and keep rank <= N.
// A `with others` level adds, under each kept parent, one row aggregating the rows outside its top
// (its deeper columns null), computed from the input rows whose group ranks past N.
import type { IrAgg, IrExpr, KqlType, TopNestedLevel } from '../ir';
import { substituteIdents } from './substitute-idents';

export interface TopNestedWriter {
  q(name: string): string;
  /** A fresh quoted table alias. */
  alias(): string;
  expr(e: IrExpr): string;
  aggregate(a: IrAgg): string;
  cast(type: KqlType, sql: string): string;
  nullOf(type: KqlType): string;
  /** The dialect's NaN test of a real. */
  isNan(sql: string): string;
  /**
   * A column of the input numbering its rows in their order, when they have one (rows the query
   * writes): values whose aggregations tie rank in the order of their first row.
   */
  readonly numbered?: string;
}

const RANK = '_rank';

/** A level's aggregation as SQL: its expression with each call's column written as the call. */
function aggregation(w: TopNestedWriter, l: TopNestedLevel): string {
  const calls = new Map(l.agg.parts.map((p) => [p.column.ref, w.aggregate(p.value)]));
  return substituteIdents(w.expr(l.agg.value), calls);
}

/**
 * The ORDER BY of a level's ranking. A real aggregation's NaN sorts with the nulls, last, just before
 * them (sort operator docs: "Null and NaN values are always grouped together", nulls last is `..., NaN,
 * null`); DuckDB would order NaN above +inf, and its row_number() top-N filter (`_rank <= N` without a
 * partition) picks wrong rows when the key holds a NaN, so the key never does.
 */
function rankOrder(w: TopNestedWriter, l: TopNestedLevel, agg: string): string {
  const dir = l.desc ? 'DESC' : 'ASC';
  // Ties in the order of each value's first row (the page's TX, OK, KS of one max each).
  const ties = w.numbered === undefined ? '' : `, min(${w.q(w.numbered)}) ASC`;
  if (l.agg.column.type !== 'real' && l.agg.column.type !== 'decimal') return `${agg} ${dir} NULLS LAST${ties}`;
  const nan = w.isNan(agg);
  return `CASE WHEN ${nan} THEN NULL ELSE ${agg} END ${dir} NULLS LAST, ${nan} DESC NULLS LAST${ties}`;
}

export function topNestedSql(w: TopNestedWriter, input: string, levels: readonly TopNestedLevel[]): string {
  const keys = levels.map((l) => w.q(l.key.column.ref));
  // The input with every level's key computed once, under the key column's ref.
  const keyed = (): string =>
    `(SELECT *, ${levels.map((l, i) => `${w.expr(l.key.value)} AS ${keys[i]!}`).join(', ')} FROM (${input}) AS ${w.alias()})`;
  const level = (k: number): string => {
    const l = levels[k]!;
    const agg = aggregation(w, l);
    const partition = k === 0 ? '' : `PARTITION BY ${keys.slice(0, k).join(', ')} `;
    const order = rankOrder(w, l, agg);
    return (
      `SELECT ${keys.slice(0, k + 1).join(', ')}, ${agg} AS ${w.q(l.agg.column.ref)}, ` +
      `row_number() OVER (${partition}ORDER BY ${order}) AS ${w.q(RANK)} ` +
      `FROM ${keyed()} AS ${w.alias()} GROUP BY ${keys.slice(0, k + 1).join(', ')}`
    );
  };
  /** The kept paths of levels 0..k: each level's key and aggregation columns. */
  const kept = (k: number, ordered = false): string => {
    const aliases = levels.slice(0, k + 1).map(() => w.alias());
    let from = `(${level(0)}) AS ${aliases[0]!}`;
    for (let j = 1; j <= k; j++) {
      const on = keys.slice(0, j).map((key) => `${aliases[j - 1]!}.${key} IS NOT DISTINCT FROM ${aliases[j]!}.${key}`);
      from += ` INNER JOIN (${level(j)}) AS ${aliases[j]!} ON ${on.join(' AND ')}`;
    }
    const where = levels
      .slice(0, k + 1)
      .map((l, j) => (l.count === undefined ? '' : `${aliases[j]!}.${w.q(RANK)} <= ${l.count.toString()}`))
      .filter((c) => c !== '');
    const items = levels
      .slice(0, k + 1)
      .flatMap((l, j) => [`${aliases[j]!}.${keys[j]!}`, `${aliases[j]!}.${w.q(l.agg.column.ref)}`]);
    // The kept paths in the levels' order, each level's values ranked first (the top-nested page prints
    // its results so), as ranked inside their parents; the `others` rows follow.
    const order = ordered ? ` ORDER BY ${aliases.map((a) => `${a}.${w.q(RANK)}`).join(', ')}` : '';
    return `SELECT ${items.join(', ')} FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}${order}`;
  };
  const parts = [`(${kept(levels.length - 1, true)})`];
  levels.forEach((l, k) => {
    if (!l.others) return;
    // Rows of kept parents whose group at this level ranks past N.
    const s = w.alias();
    const r = w.alias();
    const on = keys.slice(0, k + 1).map((key) => `${s}.${key} IS NOT DISTINCT FROM ${r}.${key}`);
    const parentKeys = keys.slice(0, k).map((key) => `${s}.${key}`);
    const rest =
      `SELECT ${[...parentKeys, `${aggregation(w, l)} AS ${w.q(l.agg.column.ref)}`].join(', ')} ` +
      `FROM ${keyed()} AS ${s} INNER JOIN (${level(k)}) AS ${r} ON ${on.join(' AND ')} ` +
      `WHERE ${r}.${w.q(RANK)} > ${(l.count ?? 0n).toString()}` +
      (k > 0 ? ` GROUP BY ${parentKeys.join(', ')}` : '') +
      ' HAVING count(*) > 0';
    const o = w.alias();
    const tail = levels.slice(k + 1).flatMap((d) => [w.nullOf(d.key.column.type), w.nullOf(d.agg.column.type)]);
    const own = [w.cast(l.key.column.type, w.expr(l.others)), `${o}.${w.q(l.agg.column.ref)}`];
    if (k === 0) {
      parts.push(`SELECT ${[...own, ...tail].join(', ')} FROM (${rest}) AS ${o}`);
      return;
    }
    const p = w.alias();
    const parentItems = levels
      .slice(0, k)
      .flatMap((d) => [`${p}.${w.q(d.key.column.ref)}`, `${p}.${w.q(d.agg.column.ref)}`]);
    const join = keys.slice(0, k).map((key) => `${p}.${key} IS NOT DISTINCT FROM ${o}.${key}`);
    parts.push(
      `SELECT ${[...parentItems, ...own, ...tail].join(', ')} FROM (${kept(k - 1)}) AS ${p} INNER JOIN (${rest}) AS ${o} ON ${join.join(' AND ')}`,
    );
  });
  return parts.join(' UNION ALL ');
}
