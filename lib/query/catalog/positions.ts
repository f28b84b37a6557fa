// The n-th match of indexof / array_index_of as Kusto computes it: the first match is searched in
// [start, start + length), each next one from one past the previous match over length positions
// again. With P the positions where a match starts (from start on), the k-th occurrence is P[k]
// when every step fits its window. The engines differ only in how lists are written (1-based, null
// past the end).

export interface ListSql {
  /** The positions from..to (inclusive, 0-based) where test(position + 1) holds. */
  positions(from: string, to: string, test: (oneBased: string) => string): string;
  at(list: string, i: string): string;
  size(list: string): string;
  /** Whether test(j) holds for every j in 2..k (true when k < 2). */
  all(k: string, test: (j: string) => string): string;
  /** body(v) with the list value computed once (DuckDB: a lambda parameter; Trino: written as is). */
  bind(value: string, body: (v: string) => string): string;
}

export const DUCK_LISTS: ListSql = {
  positions: (from, to, test) => `list_filter(range(${from}, ${to} + 1), i -> ${test('i + 1')})`,
  at: (list, i) => `list_extract(${list}, ${i})`,
  size: (list) => `len(${list})`,
  all: (k, test) => `coalesce(list_bool_and(list_transform(range(2, ${k} + 1), j -> ${test('j')})), TRUE)`,
  bind: (value, body) => `list_transform([${value}], _np -> ${body('_np')})[1]`,
};

export const TRINO_LISTS: ListSql = {
  positions: (from, to, test) =>
    `CASE WHEN ${to} >= ${from} THEN filter(sequence(${from}, ${to}), i -> ${test('i + 1')}) ELSE ARRAY[] END`,
  at: (list, i) => `element_at(${list}, ${i})`,
  size: (list) => `cardinality(${list})`,
  all: (k, test) => `all_match(filter(sequence(1, greatest(${k}, 1)), j -> j >= 2), j -> ${test('j')})`,
  bind: (value, body) => body(value),
};

export interface Search {
  /** The number of positions (characters or elements). */
  readonly size: string;
  /** How many positions a match covers. */
  readonly matchLength: string;
  /** Whether a match starts at a 1-based position. */
  readonly matchesAt: (oneBased: string) => string;
  /** SQL of the optional arguments: start (negative: from the end), length (-1: to the end), occurrence. */
  readonly start?: string;
  readonly length?: string;
  readonly occurrence?: string;
}

/**
 * position, or null for a length below -1 or a negative occurrence: "irrelevant inputs", as the
 * Returns sections of the indexof and array_index_of pages list them.
 */
export function nullForIrrelevant(
  length: string | undefined,
  occurrence: string | undefined,
  position: string,
): string {
  const invalid = [length === undefined ? '' : `${length} < -1`, occurrence === undefined ? '' : `${occurrence} < 0`]
    .filter(Boolean)
    .join(' OR ');
  return invalid === '' ? position : `CASE WHEN ${invalid} THEN NULL ELSE ${position} END`;
}

/** The 0-based position of the occurrence-th match, -1 when there is none. */
export function nthPosition(l: ListSql, s: Search): string {
  const start = s.start ?? '0';
  // A length beyond the text examines the whole rest, as -1 does, and a start beyond it finds
  // nothing: both are bounded by the size before any addition, where the largest long overflowed.
  const len = s.length === undefined ? '-1' : `least(${s.length}, ${s.size})`;
  const k = s.occurrence ?? '1';
  const m = s.matchLength;
  const from = `(CASE WHEN ${start} < 0 THEN greatest(${s.size} + ${start}, 0) ELSE least(${start}, ${s.size} + 1) END)`;
  // The positions are computed once (on DuckDB): `all` reads them inside a lambda, where their
  // list would otherwise be computed again for every occurrence checked.
  return l.bind(l.positions(from, `${s.size} - ${m}`, s.matchesAt), (p) => {
    const fits = `(${len} < 0 OR (${l.at(p, '1')} + ${m} <= ${from} + ${len} AND ${l.all(k, (j) => `${l.at(p, j)} + ${m} <= ${l.at(p, `${j} - 1`)} + 1 + ${len}`)}))`;
    return `CAST(CASE WHEN ${k} >= 1 AND ${l.size(p)} >= ${k} AND ${fits} THEN ${l.at(p, k)} ELSE -1 END AS BIGINT)`;
  });
}
