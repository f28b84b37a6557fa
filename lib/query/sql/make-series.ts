// SQL of make-series (make-series operator docs): the input once (a CTE), the bounds (constants, or
// each series' own min and max binned: the page's start "the first bin that has data in each
// series" and end "the last bin that has data per each series"), the aggregates per group and bin,
// then a grid of every group times its bin indexes left-joined to them, folded into JSON arrays
// ordered by the bin index, so each array has exactly one value per bin of its series. The axis is computed as a number: epoch microseconds
// for datetimes (bins aligned to 0001-01-01, as bin() does), microseconds for timespans.
// DuckDB only (ordered string_agg over a generated grid); the generator refuses other engines.
import type { IrAgg, IrExpr, KqlType, MakeSeriesIr } from '../ir';
import { BIN_ORIGIN_MICROS, type SqlDialect } from './dialect';
import { floorDiv } from '../catalog/sql-helpers';
import { MAX_SERIES_LENGTH } from '../analyze-make-series';

/** What the generator lends: its dialect, expression writer and the input relation's SELECT. */
export interface SeriesWriter {
  readonly d: SqlDialect;
  q(name: string): string;
  /** A fresh private name with this prefix. */
  hidden(prefix: string): string;
  expr(e: IrExpr): string;
  aggregate(a: IrAgg): string;
  /** JSON text of a value of type `type` (never SQL null: 'null'). */
  json(type: KqlType, sql: string): string;
  /** The input's SELECT, with these items added to its columns, and its rows' numbers in their order under `numbered`. */
  input(items: readonly { sql: string; ref: string }[], numbered?: string): string;
}

/**
 * A real axis value that is NaN or infinite falls in no bin, as a null does: NaN compares false with
 * every bound, and an infinite one would stretch the default range without end (the engine failed
 * the query casting the bin count). make-series runs on DuckDB only.
 */
const finiteOrNull = (x: string): string => `CASE WHEN isfinite(${x}) THEN ${x} END`;

/**
 * A SELECT giving the key columns, one JSON array per aggregate and the axis array, under their refs;
 * with `first`, also each series' first input row number (the input's rows numbered in their order).
 */
export function makeSeriesSql(
  w: SeriesWriter,
  s: MakeSeriesIr,
  refs: { keys: string[]; aggs: string[]; axis: string; first?: string },
): string {
  const { d, q } = { d: w.d, q: (n: string): string => w.q(n) };
  const axisType = s.axis.value.type;
  const real = axisType === 'real' || axisType === 'decimal' || s.step.type === 'real' || s.step.type === 'decimal';
  const origin = axisType === 'datetime' ? `(${BIN_ORIGIN_MICROS.toString()})` : '0';
  const num = (e: IrExpr): string => {
    const x = w.expr(e);
    if (e.type === 'datetime') return d.epochMicros(x);
    return `CAST(${x} AS ${real ? 'DOUBLE' : 'BIGINT'})`;
  };
  const step = num(s.step);
  /** floor(a / step) as BIGINT. */
  const div = (a: string): string => (real ? `CAST(floor((${a}) / ${step}) AS BIGINT)` : floorDiv(d, a, step));
  const binOf = (v: string): string => `(${origin} + ${div(`${v} - ${origin}`)} * ${step})`;

  const [inp, bnd, agg] = [w.hidden('_msi'), w.hidden('_msb'), w.hidden('_msa')].map(q) as [string, string, string];
  const xRef = w.hidden('_x');
  const x = q(xRef);
  const [lo, hi, n, k] = ['_lo', '_hi', '_n', '_k'].map((r) => q(w.hidden(r))) as [string, string, string, string];
  const nthRef = refs.first === undefined ? undefined : w.hidden('_nth');
  const input = w.input(
    [
      ...s.keys.map((key, i) => ({ sql: w.expr(key.value), ref: refs.keys[i]! })),
      { sql: real ? finiteOrNull(num(s.axis.value)) : num(s.axis.value), ref: xRef },
    ],
    nthRef,
  );
  // Each series' first row: the least number of its rows in a bin, carried through the bins to its row.
  const first = refs.first === undefined ? undefined : q(refs.first);
  const firstOf = (from: string): string[] => (first ? [`min(${from}) AS ${first}`] : []);

  const keys = refs.keys.map(q);
  const needsData = !s.from || !s.to;
  // A bound taken from the data is each series' own: the bounds are then one row per group.
  const perSeries = needsData && keys.length > 0;
  const sameKeys = (l: string, r: string): string =>
    keys.map((c) => `${l}.${c} IS NOT DISTINCT FROM ${r}.${c}`).join(' AND ');
  const withKeys = (items: string): string => (perSeries ? [...keys, items].join(', ') : items);
  const low = s.from ? (s.range ? binOf(num(s.from)) : num(s.from)) : binOf('_mn');
  const high = s.to
    ? s.range
      ? `(${binOf(num(s.to))} + ${step})`
      : num(s.to)
    : `(${lo} + (${div(`_mx - ${lo}`)} + 1) * ${step})`;
  const count = real ? `CAST(ceil((${hi} - ${lo}) / ${step}) AS BIGINT)` : `-${floorDiv(d, `${lo} - ${hi}`, step)}`;
  const data = needsData
    ? `(SELECT ${withKeys(`min(${x}) AS _mn, max(${x}) AS _mx`)} FROM ${inp}${perSeries ? ` GROUP BY ${keys.join(', ')}` : ''})`
    : '(SELECT 1 AS _one)';
  const lows = `SELECT ${withKeys(`${low} AS ${lo}${needsData ? ', _mx' : ''}`)} FROM ${data} AS _m`;
  const highs = `SELECT ${withKeys(`${lo}, ${high} AS ${hi}`)} FROM (${lows}) AS _l`;
  const bounds = `SELECT ${withKeys(`${lo}, ${hi}, greatest(0, least(${count}, ${MAX_SERIES_LENGTH})) AS ${n}`)} FROM (${highs}) AS _h`;

  const aggItems = s.aggs.map((a, i) => `${w.aggregate(a.value)} AS ${q(refs.aggs[i]!)}`);
  const withBounds = perSeries ? `${inp} AS i JOIN ${bnd} AS b ON ${sameKeys('i', 'b')}` : `${inp} CROSS JOIN ${bnd}`;
  const inputKeys = perSeries ? keys.map((c) => `i.${c}`) : keys;
  const aggregated =
    `SELECT ${[...inputKeys, `${div(`${x} - ${lo}`)} AS ${k}`, ...aggItems, ...firstOf(q(nthRef ?? ''))].join(', ')} FROM ${withBounds}` +
    ` WHERE ${x} >= ${lo} AND ${x} < ${hi} GROUP BY ${[...inputKeys, k].join(', ')}`;

  // kind=nonempty with by: no group in the bounds gives one group of empty keys ('' for strings,
  // else null: Kusto's values of a missing cell), so the answer is still one row of defaults.
  const emptyKeys = s.keys.map((key, i) => {
    const type = key.column.type;
    return `${type === 'string' ? d.string('') : d.nullOf(type)} AS ${keys[i]!}`;
  });
  const groups =
    keys.length > 0
      ? s.nonEmpty
        ? `(SELECT DISTINCT ${keys.join(', ')} FROM ${agg} UNION ALL SELECT ${emptyKeys.join(', ')} WHERE NOT EXISTS (SELECT 1 FROM ${agg}))`
        : `(SELECT DISTINCT ${keys.join(', ')} FROM ${agg})`
      : s.nonEmpty
        ? '(SELECT 1 AS _one)'
        : `(SELECT DISTINCT 1 AS _one FROM ${agg})`;
  const grid = perSeries
    ? `(SELECT _g.*, unnest(range(b.${n})) AS ${k}, b.${lo} FROM ${groups} AS _g JOIN ${bnd} AS b ON ${sameKeys('_g', 'b')}) AS g`
    : `(SELECT _g.*, unnest(range(${n})) AS ${k}, ${lo} FROM ${groups} AS _g CROSS JOIN ${bnd}) AS g`;
  const on = [...keys.map((c) => `g.${c} IS NOT DISTINCT FROM a.${c}`), `g.${k} = a.${k}`].join(' AND ');
  // Each bin's values under the aggregates' refs first, then folded: the JSON writers repeat their argument.
  const values = s.aggs.map((a, i) => {
    const type = d.sqlType(a.elementType);
    const ref = q(refs.aggs[i]!);
    return `CASE WHEN a.${k} IS NULL THEN CAST(${w.expr(a.default)} AS ${type}) ELSE CAST(a.${ref} AS ${type}) END AS ${ref}`;
  });
  const at = `(g.${lo} + g.${k} * ${step})`;
  const axisValue =
    axisType === 'datetime'
      ? d.fromEpochMicros(at)
      : real && axisType !== 'real'
        ? at
        : `CAST(${at} AS ${d.sqlType(axisType)})`;
  const axis = q(refs.axis);
  const joined =
    `SELECT ${[...(keys.length > 0 ? keys.map((c) => `g.${c}`) : ['g._one']), `g.${k}`, ...values, `${axisValue} AS ${axis}`, ...(first ? [`a.${first}`] : [])].join(', ')}` +
    ` FROM ${grid} LEFT JOIN ${agg} AS a ON ${on}`;
  const array = (element: string): string =>
    `CAST('[' || coalesce(string_agg(${element}, ',' ORDER BY ${k}), '') || ']' AS JSON)`;
  // Reals by hand: NaN <> NaN is false in DuckDB, so the writer's NaN test does not see it.
  const element = (type: KqlType, v: string): string =>
    type === 'real' || type === 'decimal'
      ? `CASE WHEN ${v} IS NULL THEN 'null' WHEN isnan(${v}) THEN '"NaN"' WHEN isinf(${v}) THEN CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END ELSE CAST(to_json(${v}) AS VARCHAR) END`
      : w.json(type, v);
  const series = s.aggs.map((a, i) => `${array(element(a.elementType, q(refs.aggs[i]!)))} AS ${q(refs.aggs[i]!)}`);
  const axisElement =
    axisType === 'datetime'
      ? // Kusto writes datetimes inside dynamic values with 7 fractional digits (the docs' printed arrays).
        `'"' || strftime(${axis}, '%Y-%m-%dT%H:%M:%S.%f') || '0Z"'`
      : element(axisType === 'decimal' || real ? 'real' : axisType, axis);
  const select = [...keys, ...series, `${array(axisElement)} AS ${axis}`, ...firstOf(first ?? '')];
  const groupBy = keys.length > 0 ? ` GROUP BY ${keys.join(', ')}` : s.nonEmpty ? '' : ' GROUP BY _one';
  return (
    `WITH ${inp} AS (${input}), ${bnd} AS (${bounds}), ${agg} AS (${aggregated}) ` +
    `SELECT ${select.join(', ')} FROM (${joined}) AS j${groupBy}`
  );
}
