// Array reshaping (reverse, rotate, shift, repeat), set similarity and bag key tests. DuckDB works on
// JSON[] lists; Timestream on ARRAY(JSON) with transform() over sequence() positions (the lambda and
// array functions of its query language). The Timestream forms are checked as SQL text only: no
// Timestream engine runs here (docs/query-api.md, "written, never run").
import type { IrExpr, PathSegment } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { constantOf, type ScalarFunction, type SqlBuilder } from './types';
import { bindOnce } from '../sql/bind-once';
import { parseJsonPath } from './functions-v5-json';

/** repeat()'s most elements: range()'s bound and make_list's most (Kusto's [1..1048576]). */
export const MAX_REPEAT = 1_048_576;

const dyn = (name: string) => ({ name, type: 'dynamic' as const });
const int = (name: string, optional = false) => ({ name, type: 'integer' as const, ...(optional ? { optional } : {}) });
/** The JSON[] list of an array value, null for anything else (Kusto's answer for a non-array). */
const list = (x: string): string =>
  bindOnce(x, (v) => `CASE WHEN json_type(${v}) = 'ARRAY' THEN CAST(${v} AS JSON[]) END`);
/**
 * body(l) with the JSON[] list of x bound once to the lambda parameter _rl. Written out inside a
 * per-element lambda, the cast of the whole array would run again for every element: O(n^2) on one
 * value, which DuckDB cannot interrupt (a rotation of 1,000 elements took 6 s).
 */
const withList = (x: string, body: (l: string) => string): string =>
  `list_transform([${list(x)}], _rl -> ${body('_rl')})[1]`;

/**
 * A key is a JSONPath when it starts with `$.` or `$[` (the page's second example, `$.key2.prop1`);
 * any other text, `$price` and `$` included, is a plain top-level name, as before JSONPath keys.
 */
const PATH_PREFIXES = ['$.', '$['] as const;

/**
 * bag_has_key's key as a path when it is a constant JSONPath; undefined for a plain name or a key
 * known only per row; a message when the JSONPath is malformed or indexes an array ("Array indexing
 * isn't supported").
 */
function jsonPathKey(arg: IrExpr | undefined): PathSegment[] | string | undefined {
  const text = constantOf(arg);
  if (typeof text !== 'string' || !PATH_PREFIXES.some((p) => text.startsWith(p))) return undefined;
  const path = parseJsonPath(text, false);
  if (typeof path === 'string') return path;
  if (path.length === 0 || path.some((s) => typeof s === 'number'))
    return `'${text}' must name a key: array indexes are not supported here`;
  return path;
}

/**
 * Whether the bag (or the bag a JSONPath key leads to) has the key; false for anything but a bag.
 * A key known only per row is a name unless it starts as a JSONPath, which is not read per row:
 * DuckDB fails the query with a 400 saying so; Timestream, which has no error function, gives null
 * (never a false that the path would have made true).
 */
function hasKey(
  bag: string,
  args: readonly IrExpr[],
  key: string,
  d: SqlDialect,
  test: (bag: string, key: string) => string,
): string {
  const byName = `coalesce(${test(bag, key)}, FALSE)`;
  if (typeof constantOf(args[1]) !== 'string') {
    const refused =
      d.name === 'duckdb'
        ? `error('bag_has_key(): a JSONPath key ($. or $[) must be a constant, not computed per row')`
        : 'NULL';
    const prefixes = PATH_PREFIXES.map((p) => d.string(p)).join(', ');
    return `CASE WHEN substr(${key}, 1, 2) IN (${prefixes}) THEN ${refused} ELSE ${byName} END`;
  }
  const path = jsonPathKey(args[1]);
  if (path === undefined || typeof path === 'string') return byName;
  const parent = path.length === 1 ? bag : d.dynGet(bag, path.slice(0, -1));
  return `coalesce(${test(parent, d.string(String(path[path.length - 1])))}, FALSE)`;
}

const entry = (
  name: string,
  summary: string,
  params: ScalarFunction['signatures'][number]['params'],
  duckdb: SqlBuilder,
  timestream: SqlBuilder,
  result: 'dynamic' | 'bool' | 'real' = 'dynamic',
): ScalarFunction => ({ name, family: 'array', summary, signatures: [{ params, result }], duckdb, timestream });

/** Timestream: the ARRAY(JSON) of an array value (null for anything else), and back to JSON text. */
const tsList = (x: string): string => `try(CAST(json_parse(${x}) AS ARRAY(JSON)))`;
const tsJson = (arr: string): string => `json_format(CAST(${arr} AS JSON))`;
/**
 * Timestream: the array whose element at 0-based position i is element(i, n), n the length. An empty
 * array stays empty (sequence(0, -1) would be an error); a null stays null.
 */
const tsByPosition = (x: string, element: (i: string, n: string) => string): string => {
  const l = tsList(x);
  const n = `cardinality(${l})`;
  return tsJson(`CASE WHEN ${n} = 0 THEN ${l} ELSE transform(sequence(0, ${n} - 1), i -> ${element('i', n)}) END`);
};

/**
 * A count of places (rotate_count, shift_count) as a BIGINT, to the left: a right one is negated after
 * `bounded` has brought it within the array's length, so neither the negation nor i + count can
 * overflow for a count at the ends of a long.
 */
const leftward = (left: boolean, bounded: string): string => (left ? bounded : `(-${bounded})`);

/** Element i (0-based, any integer) of a rotation by n to the left: list[((i + n) mod len) + 1]. */
const rotate =
  (left: boolean): SqlBuilder =>
  ({ a }) =>
    withList(a[0]!, (l) => {
      const k = leftward(left, `(CAST(${a[1]} AS BIGINT) % len(${l}))`);
      return `to_json(list_transform(range(len(${l})), i -> ${l}[((((i + ${k}) % len(${l})) + len(${l})) % len(${l})) + 1]))`;
    });

const rotateTs =
  (left: boolean): SqlBuilder =>
  ({ a }) =>
    tsByPosition(a[0]!, (i, n) => {
      const k = leftward(left, `(CAST(${a[1]} AS BIGINT) % ${n})`);
      return `element_at(${tsList(a[0]!)}, ((((${i} + ${k}) % ${n}) + ${n}) % ${n}) + 1)`;
    });

/** A shift count held within [-n, n] (a null stays null): a longer shift fills every place alike. */
const withinLength = (count: string, n: string): string => {
  const c = `CAST(${count} AS BIGINT)`;
  return `(CASE WHEN ${c} > ${n} THEN ${n} WHEN ${c} < -${n} THEN -${n} ELSE ${c} END)`;
};

/** A shift by n to the left: element i is list[i + n] when inside, else the fill value (null by default). */
const shift =
  (left: boolean): SqlBuilder =>
  ({ a, json }) => {
    const fill = a[2] === undefined ? `CAST('null' AS JSON)` : `CAST(${json(2)} AS JSON)`;
    // The fill value and the count are bound once: they are read inside the per-element lambda.
    return withList(a[0]!, (l) => {
      const bound = `{'f': ${fill}, 'k': ${leftward(left, withinLength(a[1]!, `len(${l})`))}}`;
      return `list_transform([${bound}], _rf -> to_json(list_transform(range(len(${l})), i -> CASE WHEN i + _rf.k >= 0 AND i + _rf.k < len(${l}) THEN ${l}[i + _rf.k + 1] ELSE _rf.f END)))[1]`;
    });
  };

const shiftTs =
  (left: boolean): SqlBuilder =>
  ({ a, json }) => {
    const fill = a[2] === undefined ? 'CAST(NULL AS JSON)' : `json_parse(${json(2)})`;
    return tsByPosition(a[0]!, (i, n) => {
      const k = leftward(left, withinLength(a[1]!, n));
      return `CASE WHEN ${i} + ${k} >= 0 AND ${i} + ${k} < ${n} THEN element_at(${tsList(a[0]!)}, ${i} + ${k} + 1) ELSE ${fill} END`;
    });
  };

/** Timestream: the distinct elements of an array as JSON texts (JSON values compare as their text). */
const tsDistinctTexts = (x: string): string => `array_distinct(transform(${tsList(x)}, e -> json_format(e)))`;

const arraysOnly = (args: readonly IrExpr[]): readonly [number, string] | undefined =>
  args[0]?.type === 'dynamic' ? undefined : [0, 'expects a dynamic array'];

export const ARRAY_RESHAPE_FUNCTIONS: readonly ScalarFunction[] = [
  entry(
    'array_reverse',
    'The array in reverse order.',
    [dyn('value')],
    ({ a }) => `to_json(list_reverse(${list(a[0]!)}))`,
    ({ a }) => tsByPosition(a[0]!, (i, n) => `element_at(${tsList(a[0]!)}, ${n} - ${i})`),
  ),
  entry(
    'array_rotate_left',
    'The array rotated left by rotate_count (negative: right).',
    [dyn('array'), int('rotate_count')],
    rotate(true),
    rotateTs(true),
  ),
  entry(
    'array_rotate_right',
    'The array rotated right by rotate_count (negative: left).',
    [dyn('array'), int('rotate_count')],
    rotate(false),
    rotateTs(false),
  ),
  {
    ...entry(
      'array_shift_left',
      'The array shifted left by shift_count (negative: right), emptied places filled with fill_value (null by default).',
      [dyn('array'), int('shift_count'), { name: 'fill_value', type: 'scalar', optional: true }],
      shift(true),
      shiftTs(true),
    ),
    check: arraysOnly,
  },
  {
    ...entry(
      'array_shift_right',
      'The array shifted right by shift_count (negative: left), emptied places filled with fill_value (null by default).',
      [dyn('array'), int('shift_count'), { name: 'fill_value', type: 'scalar', optional: true }],
      shift(false),
      shiftTs(false),
    ),
    check: arraysOnly,
  },
  entry(
    'repeat',
    `A dynamic array of count copies of value (a dynamic value too, as Kusto.Language accepts); empty when count is zero, null when it is negative (the page); at most ${MAX_REPEAT} elements.`,
    [{ name: 'value', type: 'any' }, int('count')],
    ({ a, json }) => {
      const count = `CAST(${a[1]} AS BIGINT)`;
      // A count past the bound failed after minutes and gigabytes (2^31 copies), holding a thread
      // and the memory other queries need: it fails the query at once instead.
      const copies = `CASE WHEN ${count} > ${MAX_REPEAT} THEN error('repeat(): count is more than ${MAX_REPEAT}, the most elements an array is built with here') WHEN ${count} >= 0 THEN to_json(list_transform(range(${count}), i -> _rv)) END`;
      // The value bound once: inside the lambda it would be computed count times.
      return `list_transform([CAST(${json(0)} AS JSON)], _rv -> ${copies})[1]`;
    },
    ({ a, json }) =>
      `CASE WHEN CAST(${a[1]} AS BIGINT) < 0 THEN NULL WHEN CAST(${a[1]} AS BIGINT) = 0 THEN '[]' ELSE ${tsJson(`transform(sequence(1, CAST(${a[1]} AS BIGINT)), i -> json_parse(${json(0)}))`)} END`,
  ),
  entry(
    'jaccard_index',
    'The size of the intersection of the distinct elements of two arrays divided by the size of their union.',
    [dyn('set1'), dyn('set2')],
    ({ a }) => {
      const [x, y] = [`list_distinct(${list(a[0]!)})`, `list_distinct(${list(a[1]!)})`];
      // Both sets bound once (_jx, _jy): inside the filter's lambda the second was cast and made
      // distinct again for every element of the first. Still a list_contains per element (O(n m)).
      const both = `len(list_filter(_jx, e -> list_contains(_jy, e)))`;
      return `list_transform([${x}], _jx -> list_transform([${y}], _jy -> (CAST(${both} AS DOUBLE) / (len(_jx) + len(_jy) - ${both})))[1])[1]`;
    },
    ({ a }) => {
      const [x, y] = [tsDistinctTexts(a[0]!), tsDistinctTexts(a[1]!)];
      return `(CAST(cardinality(array_intersect(${x}, ${y})) AS DOUBLE) / cardinality(array_union(${x}, ${y})))`;
    },
    'real',
  ),
  {
    name: 'bag_has_key',
    family: 'array',
    summary:
      'Whether the property bag has the key: a top-level name, or a constant JSONPath (starting $. or $[) to a nested key.',
    signatures: [{ params: [dyn('bag'), { name: 'key', type: 'string' }], result: 'bool' }],
    check: (args) => {
      const path = jsonPathKey(args[1]);
      return typeof path === 'string' ? [1, path] : undefined;
    },
    duckdb: ({ a, args, d }) =>
      hasKey(
        a[0]!,
        args,
        a[1]!,
        d,
        (bag, key) => `json_type(${bag}) = 'OBJECT' AND list_contains(json_keys(${bag}), ${key})`,
      ),
    timestream: ({ a, args, d }) =>
      hasKey(
        a[0]!,
        args,
        a[1]!,
        d,
        (bag, key) => `try(contains(map_keys(CAST(json_parse(${bag}) AS MAP(VARCHAR, JSON))), ${key}))`,
      ),
  },
];
