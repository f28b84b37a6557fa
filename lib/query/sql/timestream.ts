// Timestream for LiveAnalytics spelling (Presto/Trino-like SQL, no bind parameters): the physical
// mapping of lib/telemetry/timestream-layout.ts, dynamic values as JSON text (VARCHAR), timespans as BIGINT microseconds.
import type { KqlType, PathSegment, ScopeRestriction } from '../ir';
import { TABLES, type TableName } from '../../telemetry/tables';
import {
  GMT_SUFFIX_PATTERN,
  MONTH_ABBREVIATIONS,
  MINUTES_ZONE_PATTERN,
  MONTH_FIRST_DATE_PATTERN,
  SPACED_OFFSET_PATTERN,
  RFC_DATETIME_PATTERN,
  TWO_DIGIT_YEAR_PIVOT,
} from '../datetime-formats';
import { formatDatetimeTicks } from '../literals';
import { BIN_ORIGIN_MICROS, MICROS_PER_DAY, SqlDialect } from './dialect';
import { columnSource, DEFAULT_TIMESTREAM_DATABASE, TIMESTREAM_MEASURE_NAME } from '../../telemetry/timestream-layout';

/** A property name that Trino's JSON path would read as an array index. */
const NUMERIC_NAME = /^[+-]?[0-9]+$/;

const SQL_TYPES: Readonly<Record<KqlType, string>> = {
  string: 'VARCHAR',
  long: 'BIGINT',
  int: 'INTEGER',
  real: 'DOUBLE',
  bool: 'BOOLEAN',
  datetime: 'TIMESTAMP',
  timespan: 'BIGINT',
  dynamic: 'VARCHAR',
  guid: 'VARCHAR',
  decimal: 'DOUBLE',
};

// parseDatetime's patterns (Joni, as Trino's regexp functions read them).
const RFC_SQL = `'(?i)${RFC_DATETIME_PATTERN}'`;
const GMT_SQL = `'(?i)${GMT_SUFFIX_PATTERN}', '$1'`;
const MONTH_FIRST_SQL = `'${MONTH_FIRST_DATE_PATTERN}', '$3-$1-$2$4'`;
const SPACED_OFFSET_SQL = `'${SPACED_OFFSET_PATTERN}', '$1'`;
const MINUTES_ZONE_SQL = `'${MINUTES_ZONE_PATTERN}', '$1:00$2'`;

const DURATION_UNITS: readonly [bigint, string][] = [
  [86400000000n, 'd'],
  [3600000000n, 'h'],
  [60000000n, 'm'],
  [1000000n, 's'],
  [1000n, 'ms'],
  [1n, 'us'],
];

/** Each table's column list, written once per process: the schema is fixed, scans are per query. */
const SCAN_COLUMNS: Partial<Record<TableName, string>> = {};

export class TimestreamDialect extends SqlDialect {
  readonly name = 'timestream' as const;

  constructor(private readonly database: string = DEFAULT_TIMESTREAM_DATABASE) {
    super();
  }

  nan(): string {
    return 'nan()';
  }
  isNan(x: string): string {
    return `is_nan(${x})`;
  }
  infinity(negative: boolean): string {
    return negative ? '-infinity()' : 'infinity()';
  }
  datetime(ticks: bigint): string {
    return `from_iso8601_timestamp('${formatDatetimeTicks(ticks)}')`;
  }
  dynamic(json: string): string {
    return this.string(json);
  }
  sqlType(type: KqlType): string {
    return SQL_TYPES[type];
  }

  intDiv(a: string, b: string): string {
    return `(${a} / ${b})`;
  }
  regexMatch(value: string, pattern: string): string {
    return `regexp_like(${value}, ${pattern})`;
  }
  contains(haystack: string, needle: string): string {
    return `(strpos(${haystack}, ${needle}) > 0)`;
  }
  startsWith(value: string, prefix: string): string {
    return `(strpos(${value}, ${prefix}) = 1)`;
  }
  endsWith(value: string, suffix: string): string {
    return `(strpos(reverse(${value}), reverse(${suffix})) = 1)`;
  }
  override tryCast(value: string, type: string): string {
    return `try_cast(${value} AS ${type})`;
  }

  epochMicros(ts: string): string {
    return `(to_nanoseconds(${ts}) / 1000)`;
  }
  fromEpochMicros(us: string): string {
    return `from_nanoseconds((${us}) * 1000)`;
  }
  addMicros(ts: string, us: string): string {
    return `from_nanoseconds(to_nanoseconds(${ts}) + (${us}) * 1000)`;
  }
  binDatetime(ts: string, micros: bigint): string {
    if (MICROS_PER_DAY % micros === 0n) {
      const [size, unit] = DURATION_UNITS.find(([u]) => micros % u === 0n)!;
      return `bin(${ts}, ${micros / size}${unit})`;
    }
    return `from_nanoseconds(((((to_nanoseconds(${ts}) / 1000) - (${BIN_ORIGIN_MICROS})) / ${micros}) * ${micros} + (${BIN_ORIGIN_MICROS})) * 1000)`;
  }
  datetimeToString(ts: string): string {
    return `coalesce(regexp_replace(date_format(${ts}, '%Y-%m-%dT%H:%i:%s.%f'), '\\.?0+$', '') || 'Z', '')`;
  }
  parseDatetime(text: string): string {
    // from_iso8601_timestamp wants ISO text with its T: an RFC 822/850 form is cut into its fields
    // (datetime-formats.ts) and written as ISO, a Sortable or ISO text with a space gets its T and
    // loses a trailing GMT, a month-first date is turned round. The text is bound once; the fallbacks run only where the first is null.
    const year = `CASE WHEN length(_p[1]) = 2 THEN CAST(CAST(_p[1] AS INTEGER) + CASE WHEN CAST(_p[1] AS INTEGER) < ${TWO_DIGIT_YEAR_PIVOT} THEN 2000 ELSE 1900 END AS VARCHAR) ELSE _p[1] END`;
    const month = `lpad(CAST((strpos('${MONTH_ABBREVIATIONS.join('')}', lower(_p[2])) + 2) / 3 AS VARCHAR), 2, '0')`;
    const iso = `${year} || '-' || ${month} || '-' || lpad(_p[3], 2, '0') || 'T' || lpad(_p[4], 2, '0') || ':' || _p[5] || ':' || CASE WHEN _p[6] = '' THEN '00' ELSE _p[6] END`;
    const rfc = `CASE WHEN regexp_like(_dt, ${RFC_SQL}) THEN element_at(transform(ARRAY[split(regexp_replace(_dt, ${RFC_SQL}, '$3|$2|$1|$4|$5|$6'), '|')], _p -> try(from_iso8601_timestamp(${iso}))), 1) END`;
    const sortable = `try(from_iso8601_timestamp(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(_dt, ${MONTH_FIRST_SQL}), ${GMT_SQL}), ${MINUTES_ZONE_SQL}), ${SPACED_OFFSET_SQL}), '^(\\d{4}-\\d{1,2}-\\d{1,2}) ', '$1T')))`;
    return `element_at(transform(ARRAY[${text}], _dt -> coalesce(try(from_iso8601_timestamp(_dt)), ${rfc}, ${sortable})), 1)`;
  }
  realToString(x: string): string {
    return `coalesce(CAST(${x} AS VARCHAR), '')`;
  }

  dynGet(value: string, path: readonly PathSegment[]): string {
    // Two segments are not read through Trino's JSON path: a negative index (from the end), where
    // element_at counts from the end, and a numeric property name, which the path reads as an index
    // on an array (Kusto gives null: an array has no properties); a MAP cast finds keys only.
    const cut = path.findIndex((p) => (typeof p === 'number' ? p < 0 : NUMERIC_NAME.test(p)));
    if (cut >= 0) {
      const before = cut === 0 ? value : this.dynGet(value, path.slice(0, cut));
      const segment = path[cut]!;
      const element =
        typeof segment === 'number'
          ? `json_format(element_at(try(CAST(json_parse(${before}) AS ARRAY(JSON))), ${segment}))`
          : this.dynKey(before, this.string(segment));
      return cut === path.length - 1 ? element : this.dynGet(element, path.slice(cut + 1));
    }
    const jsonPath =
      '$' +
      path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `["${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`))
        .join('');
    return `json_format(json_extract(${value}, ${this.string(jsonPath)}))`;
  }
  dynKey(value: string, key: string): string {
    return `json_format(element_at(try(CAST(json_parse(${value}) AS MAP(VARCHAR, JSON))), ${key}))`;
  }
  dynIndex(value: string, index: string): string {
    const i = `CAST(${index} AS BIGINT)`;
    return `json_format(element_at(try(CAST(json_parse(${value}) AS ARRAY(JSON))), CASE WHEN ${i} >= 0 THEN ${i} + 1 ELSE ${i} END))`;
  }
  dynIsNull(value: string): string {
    return `(${value} IS NULL OR ${value} = 'null')`;
  }
  dynToString(value: string): string {
    return `coalesce(json_extract_scalar(${value}, '$'), CASE WHEN ${value} = 'null' THEN '' ELSE ${value} END, '')`;
  }
  dynToDouble(value: string): string {
    return `try_cast(json_extract_scalar(${value}, '$') AS DOUBLE)`;
  }
  dynToLong(value: string): string {
    return `try_cast(json_extract_scalar(${value}, '$') AS BIGINT)`;
  }
  dynToBool(value: string): string {
    return `try_cast(json_extract_scalar(${value}, '$') AS BOOLEAN)`;
  }
  parseJson(text: string): string {
    // parse_json('') is null in Kusto; other text that is not JSON is kept as a dynamic string.
    return `CASE WHEN ${text} = '' THEN NULL ELSE coalesce(try(json_format(json_parse(${text}))), json_format(CAST(${text} AS JSON))) END`;
  }
  jsonText(value: string, type: KqlType): string {
    switch (type) {
      case 'string':
        return `json_format(CAST(${value} AS JSON))`;
      case 'datetime':
        // As on DuckDB: 7 fractional digits inside dynamic values, null stays null (%f is microseconds).
        return `'"' || date_format(${value}, '%Y-%m-%dT%H:%i:%s.%f') || '0Z"'`;
      case 'dynamic':
        return value;
      case 'bool':
        return `CASE WHEN ${value} THEN 'true' ELSE 'false' END`;
      default:
        return `CAST(${value} AS VARCHAR)`;
    }
  }
  jsonArrayAgg(element: string, filter: string, distinct: boolean): string {
    // array_agg(DISTINCT) keeps no order of first appearance; inOrder is not honoured here.
    return `'[' || coalesce(array_join(array_agg(${distinct ? 'DISTINCT ' : ''}${element}) FILTER (WHERE ${filter}), ','), '') || ']'`;
  }

  percentile(value: string, fraction: number): string {
    return `approx_percentile(${value}, ${this.real(fraction)})`;
  }
  argMax(ret: string, by: string, min: boolean, byNullable: boolean): string {
    const pick = `${min ? 'min_by' : 'max_by'}(${ret}, ${by})`;
    // min_by/max_by skip a null by: a group of null bys gives one of its rows as take_any does.
    return byNullable ? `CASE WHEN count(${by}) > 0 THEN ${pick} ELSE ${this.anyValue(ret, true)} END` : pick;
  }
  anyValue(value: string, multi: boolean): string {
    // arbitrary() gives a non-null value, each column its own: several columns of one call would
    // come from different rows. max_by over one key for every row keeps a null and the first row it
    // reads, the same row for every column (each aggregation of a group reads the rows in one order).
    return multi ? `max_by(${value}, 0)` : `arbitrary(${value})`;
  }

  scan(table: TableName, scope: ScopeRestriction): string {
    const columns = (SCAN_COLUMNS[table] ??= this.scanColumns(table));
    const where = [
      `measure_name = ${this.string(TIMESTREAM_MEASURE_NAME)}`,
      `"CustomerId" = ${this.string(scope.customerId)}`,
    ];
    if (scope.plantIds !== null) {
      where.push(
        scope.plantIds.length === 0
          ? 'FALSE'
          : `"PlantId" IN (${scope.plantIds.map((p) => this.string(p)).join(', ')})`,
      );
    }
    where.push(`time >= ${this.datetime(scope.startTicks)}`, `time < ${this.datetime(scope.endTicks)}`);
    return `SELECT ${columns} FROM ${this.quoteIdent(this.database)}.${this.quoteIdent(table)} WHERE ${where.join(' AND ')}`;
  }

  private scanColumns(table: TableName): string {
    return TABLES[table]
      .map((c) => {
        const source = columnSource(table, c.name);
        const q = this.quoteIdent(c.name);
        if (source.kind === 'time') return `time AS ${q}`;
        if (source.kind === 'dimension' || c.type === 'string') return `coalesce(${q}, '') AS ${q}`;
        return q;
      })
      .join(', ');
  }

  series(from: string, to: string, step: string, type: KqlType, ref: string): string {
    // from cast as in DuckDB's: integer bounds with a real stop still give DOUBLE values.
    if (type === 'real') {
      return `(SELECT CAST(${from} AS DOUBLE) + i * ${step} AS ${this.quoteIdent(ref)} FROM UNNEST(sequence(0, CAST(floor((${to} - ${from}) / ${step}) AS BIGINT))) AS t(i))`;
    }
    const s = type === 'datetime' ? `parse_duration(CAST(${step} AS VARCHAR) || 'us')` : step;
    return `(SELECT x AS ${this.quoteIdent(ref)} FROM UNNEST(sequence(${from}, ${to}, ${s})) AS t(x))`;
  }
}
