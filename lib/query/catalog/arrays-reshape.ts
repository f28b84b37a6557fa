// Array reshaping (reverse, rotate, shift, repeat), set similarity and bag key tests, on DuckDB's
// JSON[] lists. Timestream refuses them (a 400 naming the function and engine): its JSON arrays
// would need every one written again with Trino's array functions.
import type { IrExpr } from '../ir';
import type { ScalarFunction, SqlBuilder } from './types';

const dyn = (name: string) => ({ name, type: 'dynamic' as const });
const int = (name: string, optional = false) => ({ name, type: 'integer' as const, ...(optional ? { optional } : {}) });
/** The JSON[] list of an array value, null for anything else (Kusto's answer for a non-array). */
const list = (x: string): string => `CASE WHEN json_type(${x}) = 'ARRAY' THEN CAST(${x} AS JSON[]) END`;

const duckOnly = (
  name: string,
  summary: string,
  params: ScalarFunction['signatures'][number]['params'],
  duckdb: SqlBuilder,
  result: 'dynamic' | 'bool' | 'real' = 'dynamic',
): ScalarFunction => ({ name, family: 'array', summary, signatures: [{ params, result }], duckdb, timestream: null });

/** Element i (0-based, any integer) of a rotation by n to the left: list[((i + n) mod len) + 1]. */
const rotate =
  (left: boolean): SqlBuilder =>
  ({ a }) => {
    const l = list(a[0]!);
    const n = left ? `CAST(${a[1]} AS BIGINT)` : `-CAST(${a[1]} AS BIGINT)`;
    return `to_json(list_transform(range(len(${l})), i -> ${l}[((((i + ${n}) % len(${l})) + len(${l})) % len(${l})) + 1]))`;
  };

/** A shift by n to the left: element i is list[i + n] when inside, else the fill value (null by default). */
const shift =
  (left: boolean): SqlBuilder =>
  ({ a, json }) => {
    const l = list(a[0]!);
    const n = left ? `CAST(${a[1]} AS BIGINT)` : `-CAST(${a[1]} AS BIGINT)`;
    const fill = a[2] === undefined ? `CAST('null' AS JSON)` : `CAST(${json(2)} AS JSON)`;
    return `to_json(list_transform(range(len(${l})), i -> CASE WHEN i + ${n} >= 0 AND i + ${n} < len(${l}) THEN ${l}[i + ${n} + 1] ELSE ${fill} END))`;
  };

const arraysOnly = (args: readonly IrExpr[]): readonly [number, string] | undefined =>
  args[0]?.type === 'dynamic' ? undefined : [0, 'expects a dynamic array'];

export const ARRAY_RESHAPE_FUNCTIONS: readonly ScalarFunction[] = [
  duckOnly(
    'array_reverse',
    'The array in reverse order.',
    [dyn('value')],
    ({ a }) => `to_json(list_reverse(${list(a[0]!)}))`,
  ),
  duckOnly(
    'array_rotate_left',
    'The array rotated left by rotate_count (negative: right).',
    [dyn('array'), int('rotate_count')],
    rotate(true),
  ),
  duckOnly(
    'array_rotate_right',
    'The array rotated right by rotate_count (negative: left).',
    [dyn('array'), int('rotate_count')],
    rotate(false),
  ),
  {
    ...duckOnly(
      'array_shift_left',
      'The array shifted left by shift_count (negative: right), emptied places filled with fill_value (null by default).',
      [dyn('array'), int('shift_count'), { name: 'fill_value', type: 'scalar', optional: true }],
      shift(true),
    ),
    check: arraysOnly,
  },
  {
    ...duckOnly(
      'array_shift_right',
      'The array shifted right by shift_count (negative: left), emptied places filled with fill_value (null by default).',
      [dyn('array'), int('shift_count'), { name: 'fill_value', type: 'scalar', optional: true }],
      shift(false),
    ),
    check: arraysOnly,
  },
  duckOnly(
    'repeat',
    'A dynamic array of count copies of value; empty when count is zero or negative.',
    [{ name: 'value', type: 'scalar' }, int('count')],
    ({ a, json }) =>
      `to_json(list_transform(range(greatest(CAST(${a[1]} AS BIGINT), 0)), i -> CAST(${json(0)} AS JSON)))`,
  ),
  duckOnly(
    'jaccard_index',
    'The size of the intersection of the distinct elements of two arrays divided by the size of their union.',
    [dyn('set1'), dyn('set2')],
    ({ a }) => {
      const [x, y] = [`list_distinct(${list(a[0]!)})`, `list_distinct(${list(a[1]!)})`];
      const both = `len(list_filter(${x}, e -> list_contains(${y}, e)))`;
      return `(CAST(${both} AS DOUBLE) / (len(${x}) + len(${y}) - ${both}))`;
    },
    'real',
  ),
  duckOnly(
    'bag_has_key',
    'Whether the property bag has the key (a top-level key name).',
    [dyn('bag'), { name: 'key', type: 'string' }],
    ({ a }) => `coalesce(json_type(${a[0]}) = 'OBJECT' AND list_contains(json_keys(${a[0]}), ${a[1]}), FALSE)`,
    'bool',
  ),
];
