// Dynamic arrays and property bags. DuckDB holds dynamic as JSON and works on arrays as JSON[] lists;
// Timestream holds dynamic as JSON text and works on ARRAY(JSON). A value that is not an array where
// one is needed gives null, as in Kusto.
import type { IrExpr } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { DUCK_LISTS, nthPosition, nullForIrrelevant, TRINO_LISTS } from './positions';
import { both, type ArgumentCheck, type ScalarFunction, type SqlBuilder, type SqlCall } from './types';
import { bindOnce } from '../sql/bind-once';
import { bagPack } from './bag-pack-sql';
import { NON_FINITE } from './sql-helpers';

const dyn = (name: string) => ({ name, type: 'dynamic' as const });

/**
 * array_slice's first and last 0-based positions in an array of n elements: a negative index counts
 * from the end ("out of bounds indices are ignored", its page), then the first is held within [0, n]
 * and the last within [-1, n - 1], so that the engine's + 1 never overflows
 * (`array_slice(a, 0, 9223372036854775807)` is the whole array). A null last position stays null.
 */
function slicePositions(length: string, start: string, end: string): [string, string] {
  const n = `CAST(${length} AS BIGINT)`;
  const idx = (i: string): string => `(CASE WHEN ${i} < 0 THEN ${i} + ${n} ELSE ${i} END)`;
  const last = `(CASE WHEN ${idx(end)} < -1 THEN -1 WHEN ${idx(end)} > ${n} - 1 THEN ${n} - 1 ELSE ${idx(end)} END)`;
  return [`least(greatest(${idx(start)}, 0), ${n})`, last];
}

/** DuckDB: the JSON[] list of an array value, null for anything else. */
const list = (x: string): string =>
  bindOnce(x, (v) => `CASE WHEN json_type(${v}) = 'ARRAY' THEN CAST(${v} AS JSON[]) END`);
/** Timestream: the ARRAY(JSON) of an array value, null for anything else. */
const tsList = (x: string): string => `try(CAST(json_parse(${x}) AS ARRAY(JSON)))`;
const tsJson = (arr: string): string => `json_format(CAST(${arr} AS JSON))`;

/**
 * The first occurrence of each element, in order (Kusto keeps the order of first appearance). The
 * elements are sorted with their positions, the first of each run of equal ones kept, and those put
 * back in order: O(n log n). (A list_position per element was O(n^2) on one value, with the list
 * written out again inside the lambda: set_union of two 1,000-element arrays took 1.6 s.) Nulls
 * count as equal to each other, as list_position has them.
 */
export const distinctDuck = (l: string): string => {
  // -0.0 and 0.0 are one value, as .NET's Equals says (make_set of reals counts them once too).
  const zeroed = `list_transform(${l}, e -> CASE WHEN json_type(e) = 'DOUBLE' AND CAST(e AS DOUBLE) = 0 THEN CAST('0.0' AS JSON) ELSE e END)`;
  const firsts = `list_filter(_ds, (e, n) -> n = 1 OR _ds[n - 1].v IS DISTINCT FROM e.v)`;
  const inOrder = `list_sort(list_transform(${firsts}, e -> {'i': e.i, 'v': e.v}))`;
  // The cast keeps _ds's element type when DuckDB folds a constant that is no array to an untyped
  // NULL (set_intersect(dynamic({}), ...) was a Binder Error: "Cannot extract field 'v' from NULL").
  return `list_transform([CAST(list_sort(list_transform(${zeroed}, (e, i) -> {'v': e, 'i': i})) AS STRUCT(v JSON, i BIGINT)[])], _ds -> list_transform(${inOrder}, e -> e.v))[1]`;
};
const distinctTs = (l: string): string => `array_distinct(${l})`;

/**
 * The elements of `kept` (distinct) that are (members true) or are not in `other`, in order. Both are
 * tagged and sorted together, an element of `other` (distinct too) sorting just before the equal
 * element of `kept`, so membership is a look at the previous entry: O(n log n). (A list_contains
 * per element was O(n m): set_intersect of two 64,000-element arrays took 15 s.) A null element is
 * in no array, as list_contains has it: intersect drops it, difference keeps it.
 */
const keepMembers = (kept: string, other: string, members: boolean): string => {
  // _ka: kept's tagged elements, bound so that a null (not an array) stays null: list_concat would
  // read it as empty.
  const tagged = `list_concat(list_transform(${distinctDuck(other)}, e -> {'v': e, 't': 0, 'i': 0}), _ka)`;
  const inOther = `(e.v IS NOT NULL AND n > 1 AND _km[n - 1].t = 0 AND _km[n - 1].v = e.v)`;
  const chosen = `list_filter(_km, (e, n) -> e.t = 1 AND ${members ? '' : 'NOT '}${inOther})`;
  const sorted = `list_transform([list_sort(${tagged})], _km -> list_transform(list_sort(list_transform(${chosen}, e -> {'i': e.i, 'v': e.v})), e -> e.v))[1]`;
  return `list_transform([list_transform(${kept}, (e, i) -> {'v': e, 't': 1, 'i': i})], _ka -> CASE WHEN _ka IS NOT NULL THEN ${sorted} END)[1]`;
};

/**
 * array_sort_*(array1, array2, ... [, nulls_last]) sorts the first array and orders the others to
 * match it (the array_sort pages); as a value it is the array of the sorted arrays, so that the
 * pages' `array_sort_asc(timestamps, commands)[1]` is the second. In extend, project and print an
 * unnamed call gives one column per array instead (array1_sorted, array2_sorted: see
 * lib/query/series-stats.ts). nulls_last is a constant (Kusto.Language: "The expression must be a
 * constant"), so any argument after the second but the last must be an array.
 */
const severalArrays: ArgumentCheck = (args) => {
  const bad = args.findIndex(
    (x, i) => i >= 2 && x.type !== 'dynamic' && !(i === args.length - 1 && x.type === 'bool' && x.kind === 'lit'),
  );
  return bad < 0 ? undefined : [bad, 'expects dynamic arrays, then an optional constant nulls_last'];
};

/**
 * The positions (1-based) of a JSON[] list's elements in sorted order: numbers before strings, then
 * by value (Kusto sorts numbers numerically); JSON nulls kept apart and put last (or first when
 * nulls_last is false), in either direction. Null for a null list. `l` is read twice: a column or a
 * bound name.
 */
const sortedPositions = (l: string, desc: boolean, nullsLast: string | undefined): string => {
  const tagged = `list_transform(${l}, (_se, _si) -> {'e': _se, 'i': _si, 'z': _se IS NULL OR json_type(_se) = 'NULL'})`;
  // A real NaN or infinity (held as its JSON string) is ordered as the real: -Infinity first.
  const number = `TRY_CAST(CASE WHEN CAST(_sx.e AS VARCHAR) IN (${NON_FINITE}) THEN trim(CAST(_sx.e AS VARCHAR), '"') ELSE CAST(_sx.e AS VARCHAR) END AS DOUBLE)`;
  const keyed = `list_transform(list_filter(${tagged}, _sx -> NOT _sx.z), _sx -> {'n': ${number}, 's': CAST(_sx.e AS VARCHAR), 'i': _sx.i})`;
  const values = `list_transform(list_sort(${keyed}, '${desc ? 'DESC' : 'ASC'}', 'NULLS LAST'), _sx -> _sx.i)`;
  const nulls = `list_transform(list_filter(${tagged}, _sx -> _sx.z), _sx -> _sx.i)`;
  return `CASE WHEN ${l} IS NOT NULL THEN CASE WHEN ${nullsLast ?? 'TRUE'} THEN list_concat(${values}, ${nulls}) ELSE list_concat(${nulls}, ${values}) END END`;
};

/** `body` with the sorted positions of `x`'s array bound once as _sp (null when x is no array). */
const withPositions = (x: string, desc: boolean, nullsLast: string | undefined, body: string): string =>
  bindOnce(list(x), (l) => `list_transform([${sortedPositions(l, desc, nullsLast)}], _sp -> ${body})[1]`);

/** The elements of `x`'s array in the order of the positions _sp (a list whose length is _sp's). */
const inPositions = (x: string): string =>
  bindOnce(list(x), (l) => `CASE WHEN len(${l}) = len(_sp) THEN list_transform(_sp, _si -> ${l}[_si]) END`);

const sortDuck = (x: string, desc: boolean, nullsLast: string | undefined): string =>
  withPositions(x, desc, nullsLast, `to_json(${inPositions(x)})`);

/**
 * Several arrays: each ordered by the first's sorted positions, null for one whose length differs
 * from the first's (the pages' Returns); null when the first is not an array.
 */
const sortSeveralDuck = (c: SqlCall, desc: boolean): string => {
  const last = c.args.length - 1;
  const nullsLast = c.args[last]!.type === 'bool' ? c.a[last] : undefined;
  const arrays = nullsLast === undefined ? c.a : c.a.slice(0, last);
  const ordered = arrays.map(inPositions).join(', ');
  return withPositions(arrays[0]!, desc, nullsLast, `CASE WHEN _sp IS NOT NULL THEN to_json([${ordered}]) END`);
};

/** array_sort_asc / array_sort_desc: one array, or several sorted by the first. */
const arraySort = (name: string, desc: boolean): ScalarFunction => ({
  name,
  family: 'array',
  summary: `The array sorted ${desc ? 'descending' : 'ascending'} (numbers numerically), nulls last unless nulls_last is false; several arrays: the array of them, each ordered as the first.`,
  signatures: [
    {
      params: [dyn('array1'), dyn('array2'), { name: 'arrays_or_nulls_last', type: 'any', optional: true }],
      variadic: true,
      result: 'dynamic',
    },
    { params: [dyn('array'), { name: 'nulls_last', type: 'bool', optional: true }], result: 'dynamic' },
  ],
  check: severalArrays,
  duckdb: (c) =>
    c.args.length > 1 && c.args[1]!.type === 'dynamic' ? sortSeveralDuck(c, desc) : sortDuck(c.a[0]!, desc, c.a[1]),
  timestream: null,
});

/** A bag as a MAP(VARCHAR, JSON) of its entries in order; null for a value that is not a bag. */
export const bagAsMap = (x: string): string =>
  `CASE WHEN json_type(${x}) = 'OBJECT' THEN CAST(${x} AS MAP(VARCHAR, JSON)) END`;

/**
 * The bags of a list of MAP(VARCHAR, JSON) (nulls skipped) merged into one, keys in order of first
 * appearance and the earliest bag's value winning (bag_merge's page prints A1, B1, C1, A2, B2).
 * Sorting the entries by key and position keeps each key's first entry, and sorting those by
 * position restores the order: O(n log n) in the entries (a fold merging bag by bag re-read the
 * merged bag at every step: make_bag of 200,000 single-key rows took 13 s instead of 0.7 s).
 */
export const firstWinsMerge = (maps: string, maxKeys?: string): string => {
  const ordered = `list_sort(list_transform(list_filter(fw_s, (e, n) -> n = 1 OR fw_s[n - 1].k <> e.k), e -> {'i': e.i, 'j': e.j, 'k': e.k, 'v': e.v}))`;
  // make_bag(expr, maxSize): the first maxSize keys, in their order.
  const kept = maxKeys === undefined ? ordered : `list_slice(${ordered}, 1, ${maxKeys})`;
  return `list_transform([list_sort(flatten(list_transform(list_filter(${maps}, m -> m IS NOT NULL), (m, i) -> list_transform(map_entries(m), (e, j) -> {'k': e.key, 'i': i, 'j': j, 'v': e.value}))))], fw_s -> to_json(map_from_entries(list_transform(${kept}, e -> {'key': e.k, 'value': e.v}))))[1]`;
};

const arraysOnly = (args: readonly IrExpr[]): readonly [number, string] | undefined => {
  const i = args.findIndex((x) => x.type !== 'dynamic');
  return i < 0 ? undefined : [i, 'expects dynamic arrays'];
};

const setOp = (name: 'set_union' | 'set_intersect' | 'set_difference', summary: string): ScalarFunction => ({
  name,
  family: 'array',
  summary,
  signatures: [{ params: [dyn('set1'), dyn('set2')], variadic: true, result: 'dynamic' }],
  check: arraysOnly,
  duckdb: ({ a }) => {
    const lists = a.map(list);
    if (name === 'set_union') return `to_json(${distinctDuck(`flatten([${lists.join(', ')}])`)})`;
    const [first, ...rest] = lists as [string, ...string[]];
    // The distinct elements of the first array, filtered by each other array in turn.
    return `to_json(${rest.reduce((kept, other) => keepMembers(kept, other, name === 'set_intersect'), distinctDuck(first))})`;
  },
  timestream: ({ a }) => {
    const lists = a.map(tsList);
    if (name === 'set_union') return tsJson(distinctTs(`concat(${lists.join(', ')})`));
    const [first, ...rest] = lists as [string, ...string[]];
    return tsJson(
      rest.reduce(
        (acc, l) => (name === 'set_intersect' ? `array_intersect(${acc}, ${l})` : `array_except(${acc}, ${l})`),
        first,
      ),
    );
  },
});

const packArray: SqlBuilder = ({ a, d, json }) =>
  jsonArrayOf(
    d,
    a.map((_, i) => json(i)),
  );
const jsonArrayOf = (d: SqlDialect, elements: readonly string[]): string => {
  const text = `'[' || ${elements.length ? elements.join(" || ',' || ") : "''"} || ']'`;
  return d.name === 'duckdb' ? `CAST(${text} AS JSON)` : text;
};

export const ARRAY_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'array_length',
    family: 'array',
    summary: 'The number of elements of an array; null for anything else.',
    signatures: [{ params: [dyn('array')], result: 'long' }],
    duckdb: ({ a }) => `CASE WHEN json_type(${a[0]}) = 'ARRAY' THEN CAST(json_array_length(${a[0]}) AS BIGINT) END`,
    timestream: ({ a }) => `try(CAST(json_array_length(json_parse(${a[0]})) AS BIGINT))`,
  },
  {
    name: 'array_concat',
    family: 'array',
    summary: 'The arrays concatenated into one.',
    signatures: [{ params: [dyn('array1')], variadic: true, result: 'dynamic' }],
    duckdb: ({ a }) => `to_json(list_concat(${a.map(list).join(', ')}))`,
    timestream: ({ a }) => tsJson(`concat(${a.map(tsList).join(', ')})`),
  },
  {
    name: 'array_slice',
    family: 'array',
    summary: 'The elements from start to end inclusive; negative indexes count from the end.',
    signatures: [
      {
        params: [dyn('array'), { name: 'start', type: 'integer' }, { name: 'end', type: 'integer' }],
        result: 'dynamic',
      },
    ],
    duckdb: ({ a }) => {
      const [from, to] = slicePositions(`json_array_length(${a[0]})`, a[1]!, a[2]!);
      return `CASE WHEN json_type(${a[0]}) = 'ARRAY' THEN to_json(list_slice(CAST(${a[0]} AS JSON[]), ${from} + 1, ${to} + 1)) END`;
    },
    timestream: ({ a }) => {
      const [from, to] = slicePositions(`cardinality(${tsList(a[0]!)})`, a[1]!, a[2]!);
      return tsJson(`slice(${tsList(a[0]!)}, ${from} + 1, greatest(${to} - ${from} + 1, 0))`);
    },
  },
  {
    name: 'array_index_of',
    family: 'array',
    summary:
      'The zero-based index of the occurrence-th element equal to value, searched from start (negative: from the end) over length elements (-1: to the end); -1 when absent.',
    signatures: [
      {
        params: [
          dyn('array'),
          { name: 'value', type: 'any' },
          { name: 'start', type: 'integer', optional: true },
          { name: 'length', type: 'integer', optional: true },
          { name: 'occurrence', type: 'integer', optional: true },
        ],
        result: 'long',
      },
    ],
    duckdb: ({ a, json }) => {
      // The elements' texts and the value's are bound once (_ie, _iv): inside the per-position lambda
      // they were computed again for every element, O(n^2) on one array.
      const elements = `list_transform(CAST(${a[0]} AS JSON[]), e -> CAST(e AS VARCHAR))`;
      const found = nthPosition(DUCK_LISTS, {
        size: `len(_ie)`,
        matchLength: '1',
        matchesAt: (i) => `_ie[${i}] = _iv`,
        start: a[2],
        length: a[3],
        occurrence: a[4],
      });
      // Null for "irrelevant inputs (occurrence < 0 or length < -1)" (the page's Returns section).
      return nullForIrrelevant(
        a[3],
        a[4],
        `CASE WHEN json_type(${a[0]}) = 'ARRAY' THEN list_transform([{'e': ${elements}, 'v': ${json(1)}}], _ib -> list_transform([_ib.e], _ie -> list_transform([_ib.v], _iv -> ${found})[1])[1])[1] END`,
      );
    },
    timestream: ({ a, json }) => {
      const elements = `transform(${tsList(a[0]!)}, e -> json_format(e))`;
      return nullForIrrelevant(
        a[3],
        a[4],
        `CASE WHEN ${elements} IS NOT NULL THEN ${nthPosition(TRINO_LISTS, { size: `cardinality(${elements})`, matchLength: '1', matchesAt: (i) => `element_at(${elements}, ${i}) = ${json(1)}`, start: a[2], length: a[3], occurrence: a[4] })} END`,
      );
    },
  },
  arraySort('array_sort_asc', false),
  arraySort('array_sort_desc', true),
  {
    name: 'array_sum',
    family: 'array',
    summary: 'The sum of a numeric array, as real; null when an element is not a number.',
    signatures: [{ params: [dyn('array')], result: 'real' }],
    // "If the array contains elements of non-numeric types, the result is null" (the page): the
    // engines' casts would read "2" and true as numbers. (Null elements are skipped, as before.)
    duckdb: ({ a }) =>
      bindOnce(
        list(a[0]!),
        (l) =>
          `CASE WHEN list_bool_and(list_transform(${l}, e -> coalesce(json_type(e) IN ('BIGINT', 'UBIGINT', 'DOUBLE', 'NULL'), TRUE))) THEN TRY(list_sum(CAST(${l} AS DOUBLE[]))) END`,
      ),
    timestream: ({ a }) =>
      `CASE WHEN all_match(try(CAST(json_parse(${a[0]}) AS ARRAY(JSON))), e -> e IS NULL OR regexp_like(json_format(e), '^(-?[0-9]|null$)')) THEN try(reduce(CAST(json_parse(${a[0]}) AS ARRAY(DOUBLE)), 0E0, (s, e) -> s + e, s -> s)) END`,
  },
  {
    name: 'pack_array',
    family: 'array',
    summary: 'A dynamic array of the arguments.',
    signatures: [{ params: [{ name: 'value', type: 'any' }], variadic: true, result: 'dynamic' }],
    ...both(packArray),
  },
  {
    name: 'bag_pack',
    aliases: ['pack', 'pack_dictionary'],
    family: 'array',
    summary: 'A property bag from key, value pairs.',
    signatures: [
      {
        params: [
          { name: 'key', type: 'string' },
          { name: 'value', type: 'any' },
        ],
        variadic: true,
        result: 'dynamic',
      },
    ],
    check: (args) =>
      args.length % 2 === 0 && args.every((x, i) => i % 2 === 1 || x.type === 'string')
        ? undefined
        : [args.length - 1, 'expects pairs of string key and value'],
    ...both(bagPack),
  },
  {
    name: 'bag_keys',
    family: 'array',
    summary: 'The keys of a property bag, as a dynamic array; null for anything else.',
    signatures: [{ params: [dyn('object')], result: 'dynamic' }],
    duckdb: ({ a }) => `CASE WHEN json_type(${a[0]}) = 'OBJECT' THEN to_json(json_keys(${a[0]})) END`,
    timestream: ({ a }) => `try(json_format(CAST(map_keys(CAST(json_parse(${a[0]}) AS MAP(VARCHAR, JSON))) AS JSON)))`,
  },
  {
    name: 'bag_merge',
    family: 'array',
    summary: "The property bags merged; on a duplicate key the first bag's value wins.",
    signatures: [{ params: [dyn('bag1'), dyn('bag2')], variadic: true, result: 'dynamic' }],
    // Keys in order of first appearance, the first bag's value kept (the page prints A1, B1, C1, A2, B2).
    duckdb: ({ a }) => firstWinsMerge(`[${a.map(bagAsMap).join(', ')}]`),
    // map_concat keeps the last map's value for a key, so the maps are concatenated last to first too.
    timestream: ({ a }) =>
      tsJson(
        `map_concat(${[...a]
          .reverse()
          .map((x) => `coalesce(try(CAST(json_parse(${x}) AS MAP(VARCHAR, JSON))), CAST(MAP() AS MAP(VARCHAR, JSON)))`)
          .join(', ')})`,
      ),
  },
  setOp('set_union', 'The distinct elements of all the arrays, in order of first appearance.'),
  setOp('set_intersect', 'The distinct elements present in every array.'),
  setOp('set_difference', 'The distinct elements of the first array present in none of the others.'),
  {
    name: 'zip',
    family: 'array',
    summary: 'An array of arrays: the i-th elements of each array, null-padded to the longest.',
    signatures: [{ params: [dyn('array1'), dyn('array2')], variadic: true, result: 'dynamic' }],
    duckdb: ({ a }) => {
      const lists = a.map(list);
      const n = `greatest(${lists.map((_, k) => `coalesce(len(_z${k}), 0)`).join(', ')})`;
      // Each list bound once (_z0, _z1 ...): written inside the lambda, each was cast again per element.
      const body = `to_json(list_transform(range(1, ${n} + 1), i -> [${lists.map((_, k) => `_z${k}[i]`).join(', ')}]))`;
      return lists.reduceRight((inner, l, k) => `list_transform([${l}], _z${k} -> ${inner})[1]`, body);
    },
    timestream: ({ a }) => tsJson(`zip(${a.map(tsList).join(', ')})`),
  },
];
