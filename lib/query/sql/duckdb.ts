// DuckDB spelling: the embedded TelemetryStore's tables (lib/telemetry/duckdb-layout.ts), dynamic
// as JSON, datetime as TIMESTAMP (microseconds, UTC), timespan as BIGINT microseconds.
import type { KqlType, PathSegment, ScopeRestriction } from '../ir';
import { TABLES, type TableName } from '../../telemetry/tables';
import {
  GMT_SUFFIX_PATTERN,
  HOUR_24_PATTERN,
  MONTH_ABBREVIATIONS,
  MINUTES_ZONE_PATTERN,
  MONTH_FIRST_DATE_PATTERN,
  SPACED_OFFSET_PATTERN,
  RFC_DATETIME_PATTERN,
  TWO_DIGIT_YEAR_PIVOT,
} from '../datetime-formats';
import { formatDatetimeTicks } from '../literals';
import { LONG_TEXT_PATTERN } from '../convert';
import { bindOnce, SHORT_SQL } from './bind-once';
import { BIN_ORIGIN_MICROS, MICROS_PER_DAY, SqlDialect, textToBool } from './dialect';

/** time_bucket's default origin for sub-month widths (2000-01-03) after 0001-01-01: 730,121 days, in µs. */
const DEFAULT_ORIGIN_FROM_BIN_ORIGIN = 946857600000000n - BIN_ORIGIN_MICROS;

/** A property name that a JSON pointer or Trino's JSON path would read as an array index. */
const NUMERIC_NAME = /^[+-]?[0-9]+$/;

const SQL_TYPES: Readonly<Record<KqlType, string>> = {
  string: 'VARCHAR',
  long: 'BIGINT',
  int: 'INTEGER',
  real: 'DOUBLE',
  bool: 'BOOLEAN',
  datetime: 'TIMESTAMP',
  timespan: 'BIGINT',
  dynamic: 'JSON',
  guid: 'UUID',
  decimal: 'DOUBLE',
};

// The pieces of parseDatetime that do not depend on the argument, written once. A two-digit year
// goes through TWO_DIGIT_YEAR_PIVOT; the month's number is its abbreviation's position.
const RFC_SQL = `'(?i)${RFC_DATETIME_PATTERN}', ['d', 'b', 'y', 'h', 'm', 's']`;
const GMT_SQL = `'(?i)${GMT_SUFFIX_PATTERN}', '\\1'`;
const MONTH_FIRST_SQL = `'${MONTH_FIRST_DATE_PATTERN}', '\\3-\\1-\\2\\4'`;
const SPACED_OFFSET_SQL = `'${SPACED_OFFSET_PATTERN}', '\\1'`;
const MINUTES_ZONE_SQL = `'${MINUTES_ZONE_PATTERN}', '\\1:00\\2'`;
const RFC_TEXT_SQL =
  `CASE WHEN length(_rfc.y) = 2 THEN CAST(CAST(_rfc.y AS INTEGER) + CASE WHEN CAST(_rfc.y AS INTEGER) < ${TWO_DIGIT_YEAR_PIVOT} THEN 2000 ELSE 1900 END AS VARCHAR) ELSE _rfc.y END` +
  ` || '-' || list_position([${MONTH_ABBREVIATIONS.map((m) => `'${m}'`).join(', ')}], lower(_rfc.b)) || '-' || _rfc.d` +
  ` || ' ' || _rfc.h || ':' || _rfc.m || ':' || CASE WHEN _rfc.s = '' THEN '00' ELSE _rfc.s END`;

/** Each table's column list, written once per process: the schema is fixed, scans are per query. */
const SCAN_COLUMNS: Partial<Record<TableName, string>> = {};

/**
 * A JSON number token j__p (a real) as Json.NET writes the double. DuckDB's format('{}') (fmt) writes
 * the shortest round-trip digits as .NET does, in the same notation (d.ddde-XX below 1e-4, fixed with
 * `.0` for a whole number) but for the exponent's case and between 1E+15 and 1E+17, where .NET
 * switches to E notation by the number of digits (1E+15, 1.5E+16, but 12345678901234568.0).
 */
const JSON_REAL = `list_transform([format('{}', CAST(j__p AS DOUBLE))], j__f -> CASE WHEN ends_with(j__f, 'inf') THEN CASE WHEN j__f[1] = '-' THEN '"-Infinity"' ELSE '"Infinity"' END WHEN abs(CAST(j__p AS DOUBLE)) >= 1E15 AND abs(CAST(j__p AS DOUBLE)) < 1E17 THEN list_transform([{'s': CASE WHEN j__f[1] = '-' THEN '-' ELSE '' END, 'f': ltrim(j__f, '-'), 'd': rtrim(replace(regexp_extract(j__f, '[0-9.]+'), '.', ''), '0'), 'e': CASE WHEN contains(j__f, 'e') THEN 16 ELSE 15 END}], j__b -> j__b.s || CASE WHEN length(j__b.d) <= j__b.e THEN left(j__b.d, 1) || CASE WHEN length(j__b.d) > 1 THEN '.' || substr(j__b.d, 2) ELSE '' END || 'E+' || j__b.e WHEN j__b.e = 15 THEN j__b.f ELSE j__b.d || '.0' END)[1] ELSE upper(j__f) END)[1]`;

export class DuckDbDialect extends SqlDialect {
  readonly name = 'duckdb' as const;

  nan(): string {
    return "CAST('NaN' AS DOUBLE)";
  }
  isNan(x: string): string {
    return `isnan(${x})`;
  }
  infinity(negative: boolean): string {
    return `CAST('${negative ? '-' : ''}Infinity' AS DOUBLE)`;
  }
  datetime(ticks: bigint): string {
    // TIMESTAMP literal without zone: the engine's TIMESTAMP is UTC wall time; 6 fractional digits.
    const iso = formatDatetimeTicks(ticks - (((ticks % 10n) + 10n) % 10n));
    // Every scan writes two of these: cut at the fixed positions of a four-digit year (no search);
    // another year (only through Date, its sign and six digits) by search.
    const text = iso[10] === 'T' ? `${iso.slice(0, 10)} ${iso.slice(11, -1)}` : iso.replace('T', ' ').replace('Z', '');
    return `TIMESTAMP '${text}'`;
  }
  dynamic(json: string): string {
    return `CAST(${this.string(json)} AS JSON)`;
  }
  sqlType(type: KqlType): string {
    return SQL_TYPES[type];
  }

  intDiv(a: string, b: string): string {
    return `(${a} // ${b})`;
  }
  regexMatch(value: string, pattern: string): string {
    return `regexp_matches(${value}, ${pattern})`;
  }
  contains(haystack: string, needle: string): string {
    return `contains(${haystack}, ${needle})`;
  }
  startsWith(value: string, prefix: string): string {
    return `starts_with(${value}, ${prefix})`;
  }
  endsWith(value: string, suffix: string): string {
    return `ends_with(${value}, ${suffix})`;
  }

  epochMicros(ts: string): string {
    return `epoch_us(${ts})`;
  }
  fromEpochMicros(us: string): string {
    return `make_timestamp(${us})`;
  }
  addMicros(ts: string, us: string): string {
    return `(${ts} + to_microseconds(${us}))`;
  }
  binDatetime(ts: string, micros: bigint): string {
    if (MICROS_PER_DAY % micros === 0n || micros % MICROS_PER_DAY === 0n) {
      // time_bucket with an origin argument took about 30% more CPU per row than without one (10M
      // rows). Its default origin, 2000-01-03, lies a whole number of bins after 0001-01-01 for
      // every width dividing that distance (all widths dividing a day, and 7d): the same buckets
      // then (checked on 4M timestamps over the years 1-9999).
      if (DEFAULT_ORIGIN_FROM_BIN_ORIGIN % micros === 0n)
        return `time_bucket(to_microseconds(${this.long(micros)}), ${ts})`;
      return `time_bucket(to_microseconds(${this.long(micros)}), ${ts}, TIMESTAMP '0001-01-01 00:00:00')`;
    }
    return `make_timestamp(((epoch_us(${ts}) - (${BIN_ORIGIN_MICROS})) // ${micros}) * ${micros} + (${BIN_ORIGIN_MICROS}))`;
  }
  datetimeToString(ts: string): string {
    return `CASE WHEN ${ts} IS NULL THEN '' WHEN microsecond(${ts}) % 1000000 = 0 THEN strftime(${ts}, '%Y-%m-%dT%H:%M:%SZ') ELSE rtrim(strftime(${ts}, '%Y-%m-%dT%H:%M:%S.%f'), '0') || 'Z' END`;
  }
  parseDatetime(text: string): string {
    // ISO 8601 by the cast; the RFC 822/850 forms (and a Sortable time ending in GMT, a month-first
    // date) only for the rows the cast leaves null, rewritten to `yyyy-mm-dd hh:mm:ss` (datetime-formats.ts);
    // last, a zone after a time without seconds (given `:00`) or an offset after a space, read without the space.
    // Hour 24 is no time (the cast would read 24:00:00 as the next midnight).
    return bindOnce(
      text,
      (v) =>
        `CASE WHEN NOT regexp_matches(${v}, '${HOUR_24_PATTERN}') THEN coalesce(CAST(TRY_CAST(${v} AS TIMESTAMPTZ) AT TIME ZONE 'UTC' AS TIMESTAMP), list_transform([regexp_extract(${v}, ${RFC_SQL})], _rfc -> TRY_CAST(CASE WHEN _rfc.d = '' THEN regexp_replace(regexp_replace(${v}, ${MONTH_FIRST_SQL}), ${GMT_SQL}) ELSE ${RFC_TEXT_SQL} END AS TIMESTAMP))[1], CAST(TRY_CAST(regexp_replace(regexp_replace(${v}, ${MINUTES_ZONE_SQL}), ${SPACED_OFFSET_SQL}) AS TIMESTAMPTZ) AT TIME ZONE 'UTC' AS TIMESTAMP)) END`,
    );
  }
  realToString(x: string): string {
    // .NET's double.ToString() (Kusto's tostring of a real): the shortest round-trip digits (DuckDB's
    // own text has them), fixed unless the decimal point is more than max(15, digits) places right of
    // the first digit or more than 3 left of it, then d.dddE+XX with at least two exponent digits
    // (1E+20, 1E-05, 1.2345678901234568E+17); -0 (.NET Core 3.0 on); NaN, Infinity, -Infinity. The
    // same rules in TypeScript: lib/query/dotnet-real-text.ts. d: the significant digits,
    // p: where the point goes, counted from the first of them (.NET's number scale).
    const mantissa = `regexp_extract(r__s, '^[0-9.]+')`;
    const digits = `replace(${mantissa}, '.', '')`;
    const point = `length(split_part(${mantissa}, '.', 1)) + coalesce(TRY_CAST(regexp_extract(r__s, 'e([-+]?[0-9]+)$', 1) AS INTEGER), 0) - (length(${digits}) - length(ltrim(${digits}, '0')))`;
    const text = `CASE WHEN r__t.p > greatest(length(r__t.d), 15) OR r__t.p < -3 THEN left(r__t.d, 1) || CASE WHEN length(r__t.d) > 1 THEN '.' || substr(r__t.d, 2) ELSE '' END || 'E' || CASE WHEN r__t.p < 1 THEN '-' ELSE '+' END || CASE WHEN abs(r__t.p - 1) < 10 THEN '0' ELSE '' END || CAST(abs(r__t.p - 1) AS VARCHAR) WHEN r__t.p <= 0 THEN '0.' || repeat('0', -r__t.p) || r__t.d WHEN r__t.p >= length(r__t.d) THEN r__t.d || repeat('0', r__t.p - length(r__t.d)) ELSE left(r__t.d, r__t.p) || '.' || substr(r__t.d, r__t.p + 1) END`;
    const parsed = `list_transform([{'d': rtrim(ltrim(${digits}, '0'), '0'), 'p': ${point}}], r__t -> ${text})[1]`;
    const finite = `CASE WHEN r__v < 0 THEN '-' ELSE '' END || list_transform([CAST(abs(r__v) AS VARCHAR)], r__s -> ${parsed})[1]`;
    // Fast path, outside the lambda: between 1E-04 and 1E+15 both write the digits in fixed notation
    // (DuckDB writes no exponent there), and only an integral value differs (DuckDB's 2.0 is .NET's
    // 2); the rewriting above costs about 30 times the plain cast per row.
    const slow = (v: string): string =>
      `coalesce(list_transform([CAST(${v} AS DOUBLE)], r__v -> CASE WHEN isnan(r__v) THEN 'NaN' WHEN isinf(r__v) THEN CASE WHEN r__v > 0 THEN 'Infinity' ELSE '-Infinity' END WHEN r__v = 0 THEN CASE WHEN signbit(r__v) THEN '-0' ELSE '0' END ELSE ${finite} END)[1], '')`;
    return bindOnce(x, (v) => {
      const d = `CAST(${v} AS DOUBLE)`;
      return `CASE WHEN abs(${d}) >= 1E-4 AND abs(${d}) < 1E15 THEN CASE WHEN ${d} = trunc(${d}) THEN CAST(CAST(${d} AS BIGINT) AS VARCHAR) ELSE CAST(${d} AS VARCHAR) END ELSE ${slow(v)} END`;
    });
  }

  dynGet(value: string, path: readonly PathSegment[]): string {
    // Two segments have no JSON pointer: a negative index (from the end), read by JSONPath's $[#-n],
    // and a numeric property name, which a pointer reads as an index on an array (Kusto gives null:
    // an array has no properties), read by JSONPath's quoted key $."0". Both go between pointers.
    const cut = path.findIndex((p) => (typeof p === 'number' ? p < 0 : NUMERIC_NAME.test(p)));
    if (cut >= 0) {
      const before = cut === 0 ? value : this.dynGet(value, path.slice(0, cut));
      const step = typeof path[cut] === 'number' ? `$[#${path[cut]}]` : `$."${path[cut]}"`;
      const element = `json_extract(${before}, '${step}')`;
      return cut === path.length - 1 ? element : this.dynGet(element, path.slice(cut + 1));
    }
    const pointer = path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
    return `json_extract(${value}, ${this.string(pointer)})`;
  }
  dynKey(value: string, key: string): string {
    // A numeric key as a pointer would read an array's element: as a quoted JSONPath key it cannot.
    return `json_extract(${value}, CASE WHEN regexp_full_match(${key}, '[+-]?[0-9]+') THEN '$."' || ${key} || '"' ELSE '/' || replace(replace(${key}, '~', '~0'), '/', '~1') END)`;
  }
  dynIndex(value: string, index: string): string {
    const i = `CAST(${index} AS BIGINT)`;
    return `json_extract(${value}, CASE WHEN ${i} >= 0 THEN '/' || CAST(${i} AS VARCHAR) ELSE '$[#' || CAST(${i} AS VARCHAR) || ']' END)`;
  }
  dynIsNull(value: string): string {
    return `(${value} IS NULL OR json_type(${value}) = 'NULL')`;
  }
  dynToString(value: string): string {
    return bindOnce(
      value,
      (v) =>
        // One json_type per row; integers and booleans are written alike by both (no real to rewrite).
        `coalesce(CASE json_type(${v}) WHEN 'VARCHAR' THEN json_extract_string(${v}, '$') WHEN 'NULL' THEN '' WHEN 'BIGINT' THEN CAST(${v} AS VARCHAR) WHEN 'UBIGINT' THEN CAST(${v} AS VARCHAR) WHEN 'BOOLEAN' THEN CAST(${v} AS VARCHAR) ELSE ${this.kustoJsonText(`CAST(${v} AS VARCHAR)`)} END, '')`,
    );
  }
  /**
   * Each real as .NET writes it in JSON (Json.NET: the round-trip text, a whole number keeping `.0`;
   * the series_stats_dynamic page prints {"min": 2.0, ..., "sum": 492.0}), one beyond the double's
   * range the string of an infinite real (parse_json("[1e400]"), as dynamic literals write it).
   * DuckDB's JSON writer differs from .NET's only outside 1E-04 .. 1E+15 (1e-7, 0.00001,
   * 1000000000000000.0 where .NET writes 1E-07, 1E-05, 1E+15) and in exponents as typed (1e+21 in
   * stored data): only a text holding a digit before an exponent, 16 digits before a point or
   * `0.0000` is taken apart into strings, numbers and the rest; any other text is kept as it is.
   */
  override kustoJsonText(text: string): string {
    return bindOnce(text, (t) => {
      const parts = `regexp_extract_all(${t}, '"(?:[^"\\\\]|\\\\.)*"|-?[0-9][0-9.eE+-]*|[^"0-9-]+')`;
      const rewritten = `array_to_string(list_transform(${parts}, j__p -> CASE WHEN regexp_matches(j__p, '^-?[0-9]+[.eE]') THEN ${JSON_REAL} ELSE j__p END), '')`;
      return `CASE WHEN regexp_matches(${t}, '[0-9][eE]|[0-9]{16}\\.|0\\.0000') THEN ${rewritten} ELSE ${t} END`;
    });
  }
  dynToDouble(value: string): string {
    // Fast path first: a JSON number's text casts straight to DOUBLE (6x faster than inspecting
    // the JSON type per row); strings, booleans and null fall through to the general form.
    return bindOnce(
      value,
      (v) =>
        // A string with a digit separator ('1_0') is no number to Kusto: the '_' made uncastable.
        `coalesce(TRY_CAST(CAST(${v} AS VARCHAR) AS DOUBLE), CASE json_type(${v}) WHEN 'BOOLEAN' THEN CASE WHEN CAST(${v} AS VARCHAR) = 'true' THEN 1E0 ELSE 0E0 END ELSE TRY_CAST(replace(json_extract_string(${v}, '$'), '_', 'x') AS DOUBLE) END)`,
    );
  }
  dynToLong(value: string): string {
    return bindOnce(
      value,
      (v) =>
        // A string reads as tolong() reads a string (convert.ts); the cast alone took '1_0' and rounded '1.5'.
        `CASE json_type(${v}) WHEN 'BOOLEAN' THEN CASE WHEN CAST(${v} AS VARCHAR) = 'true' THEN CAST(1 AS BIGINT) ELSE CAST(0 AS BIGINT) END WHEN 'DOUBLE' THEN TRY_CAST(trunc(CAST(CAST(${v} AS VARCHAR) AS DOUBLE)) AS BIGINT) WHEN 'VARCHAR' THEN CASE WHEN regexp_matches(trim(json_extract_string(${v}, '$')), ${this.string(LONG_TEXT_PATTERN)}) THEN TRY_CAST(trim(json_extract_string(${v}, '$')) AS BIGINT) END ELSE TRY_CAST(json_extract_string(${v}, '$') AS BIGINT) END`,
    );
  }
  dynToBool(value: string): string {
    return bindOnce(
      value,
      (v) =>
        // A string reads as tobool() reads a string (textToBool): "1", " true" and "0" too.
        `CASE json_type(${v}) WHEN 'BOOLEAN' THEN CAST(CAST(${v} AS VARCHAR) = 'true' AS BOOLEAN) WHEN 'VARCHAR' THEN ${textToBool(`json_extract_string(${v}, '$')`)} WHEN 'BIGINT' THEN CAST(${v} AS VARCHAR) <> '0' WHEN 'UBIGINT' THEN CAST(${v} AS VARCHAR) <> '0' WHEN 'DOUBLE' THEN CAST(CAST(${v} AS VARCHAR) AS DOUBLE) <> 0 END`,
    );
  }
  parseJson(text: string): string {
    // parse_json('') is null in Kusto; other text that is not JSON is kept as a dynamic string.
    // json() re-writes the document compactly (a cast keeps the text as written): tostring() of it
    // then gives '{"a":1}' for '{ "a" : 1 }', as Kusto, which keeps the value, not the text.
    // The text bound once: tostring(parse_json(...)) nested wrote it four times per level.
    return bindOnce(
      text,
      (t) => `CASE WHEN ${t} = '' THEN NULL WHEN json_valid(${t}) THEN json(${t}) ELSE to_json(${t}) END`,
    );
  }
  jsonText(value: string, type: KqlType): string {
    switch (type) {
      case 'string':
        return `CAST(to_json(${value}) AS VARCHAR)`;
      case 'datetime':
        // Inside dynamic values Kusto writes 7 fractional digits (the docs' printed arrays, as make-series
        // does here); a null datetime stays null (the caller writes it as JSON null).
        return `'"' || strftime(${value}, '%Y-%m-%dT%H:%M:%S.%f') || '0Z"'`;
      case 'dynamic':
        return `CAST(${value} AS VARCHAR)`;
      case 'bool':
        return `CASE WHEN ${value} THEN 'true' ELSE 'false' END`;
      default:
        return `CAST(to_json(${value}) AS VARCHAR)`;
    }
  }
  jsonArrayAgg(element: string, filter: string, distinct: boolean, inOrder = false): string {
    if (distinct && inOrder) {
      const set = distinctInOrder(`list(${element}) FILTER (WHERE ${filter})`);
      return `CAST('[' || coalesce(array_to_string(${set}, ','), '') || ']' AS JSON)`;
    }
    return `CAST('[' || coalesce(string_agg(${distinct ? 'DISTINCT ' : ''}${element}, ',') FILTER (WHERE ${filter}), '') || ']' AS JSON)`;
  }

  override expandCount(value: string): string {
    return `CASE json_type(${value}) WHEN 'ARRAY' THEN json_array_length(${value}) WHEN 'OBJECT' THEN len(json_keys(${value})) ELSE 1 END`;
  }
  override expandElement(value: string, index: string, bagKind: 'bag' | 'array'): string {
    const key = `json_keys(${value})[${index} + 1]`;
    // A key is read as a JSON pointer: '~' and '/' inside it are escaped as the pointer syntax wants.
    const property = `json_extract(${value}, '/' || replace(replace(${key}, '~', '~0'), '/', '~1'))`;
    const bag = bagKind === 'bag' ? `json_object(${key}, ${property})` : `json_array(${key}, ${property})`;
    return `CASE json_type(${value}) WHEN 'ARRAY' THEN json_extract(${value}, ${index}) WHEN 'OBJECT' THEN CASE WHEN ${index} < len(json_keys(${value})) THEN ${bag} END ELSE CASE WHEN ${index} = 0 THEN ${value} END END`;
  }

  percentile(value: string, fraction: number): string {
    return `quantile_disc(${value}, ${this.real(fraction)})`;
  }
  argMax(ret: string, by: string, min: boolean, byNullable: boolean): string {
    // arg_max_null keeps a null returned value of the winning row; plain arg_max would skip that row.
    const pick = `${min ? 'arg_min_null' : 'arg_max_null'}(${ret}, ${by})`;
    if (!byNullable) return pick;
    // Both skip a null by: a group of null bys takes its first row, for every column of the call
    // alike. A short by (a column) is counted, the fast form; a long one would be written twice per
    // returned column (arg_max(expr, *) over a 4-way join passed the SQL size limit), so its sort
    // key is used, never null and ordering a null by last (slower than the counted form).
    if (by.length <= SHORT_SQL) return `CASE WHEN count(${by}) > 0 THEN ${pick} ELSE first(${ret}) END`;
    return `arg_min_null(${ret}, create_sort_key(${by}, '${min ? 'ASC' : 'DESC'} NULLS LAST'))`;
  }
  anyValue(value: string, multi: boolean): string {
    return multi ? `first(${value})` : `any_value(${value})`;
  }

  scan(table: TableName, scope: ScopeRestriction): string {
    const columns = (SCAN_COLUMNS[table] ??= TABLES[table].map((c) => this.quoteIdent(c.name)).join(', '));
    const plants = scope.plantIds === null ? '' : ` AND ${this.plantFilter(scope.plantIds)}`;
    return (
      `SELECT ${columns} FROM ${this.quoteIdent(table)} WHERE "CustomerId" = ${this.string(scope.customerId)}${plants}` +
      ` AND "Timestamp" >= ${this.datetime(scope.startTicks)} AND "Timestamp" < ${this.datetime(scope.endTicks)}`
    );
  }

  /**
   * The caller's plants. Not `IN (a, b)`: DuckDB turns a multi-value IN into an OR evaluated
   * after the scan, which made a filtered `top` 40% slower on 10M rows (9.1 vs 6.4 ms);
   * `list_contains` costs what no plant filter costs (bench/query-duckdb.bench.ts).
   */
  private plantFilter(plantIds: readonly string[]): string {
    if (plantIds.length === 0) return 'FALSE';
    if (plantIds.length === 1) return `"PlantId" = ${this.string(plantIds[0] as string)}`;
    return `list_contains([${plantIds.map((p) => this.string(p)).join(', ')}], "PlantId")`;
  }

  series(from: string, to: string, step: string, type: KqlType, ref: string): string {
    if (type === 'datetime')
      return `(SELECT generate_series AS ${this.quoteIdent(ref)} FROM generate_series(${from}, ${to}, to_microseconds(${step})))`;
    // Reals: generate_series takes integers only, so count the steps and scale; from is cast so that
    // integer bounds (range x from 1 to 2.5 step 1) still give DOUBLE values, as the column's type says.
    if (type === 'real')
      return `(SELECT CAST(${from} AS DOUBLE) + i * ${step} AS ${this.quoteIdent(ref)} FROM generate_series(0, CAST(floor((${to} - ${from}) / ${step}) AS BIGINT)) AS g(i))`;
    return `(SELECT generate_series AS ${this.quoteIdent(ref)} FROM generate_series(${from}, ${to}, ${step}))`;
  }
}

/** Element comparisons the first-appearance order of a set may take (distinctInOrder). */
const DISTINCT_IN_ORDER_WORK = 50_000_000;

/**
 * The distinct elements of a list, each where it first comes (the make_set page prints [1,5,7] for
 * 1, 5, 7, 5: the order of first appearance, which a hash DISTINCT does not keep). Each distinct
 * element's first position is looked up (list_position stops at the first match), which is cheap
 * while few distinct elements face a long list; past DISTINCT_IN_ORDER_WORK positions to search, the
 * set keeps the hash order (the page calls the order undefined). The list is bound once by lambdas.
 */
export const distinctInOrder = (list: string): string =>
  `list_transform([${list}], _l -> list_transform([list_distinct(_l)], _d -> CASE WHEN len(_d) * len(_l) <= ${DISTINCT_IN_ORDER_WORK} THEN list_transform(list_sort(list_transform(_d, v -> {'i': list_position(_l, v), 'v': v})), e -> e.v) ELSE _d END)[1])[1]`;
