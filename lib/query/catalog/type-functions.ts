// Type functions: gettype, todecimal and the non-constant forms of totimespan (constant strings are
// folded by the analyzer).
import type { KqlType } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { bindOnce } from '../sql/bind-once';
import { MICROS } from './sql-helpers';
import type { ScalarFunction, SqlBuilder } from './types';

const TIMESPAN_TEXT = '^\\s*(-)?(?:([0-9]+)\\.)?([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]{1,7}))?)?\\s*$';

/** `[-][d.]hh:mm[:ss[.fffffff]]` text to BIGINT microseconds, null when it does not parse. */
function parseTimespan(d: SqlDialect, text: string): string {
  const re = d.string(TIMESPAN_TEXT);
  const group = (n: number): string =>
    `CAST(coalesce(nullif(regexp_extract(${text}, ${re}, ${n}), ''), '0') AS BIGINT)`;
  // Integer division: DuckDB's `/` would make the whole total a DOUBLE, which datetime arithmetic refuses.
  const fraction = d.intDiv(`CAST(rpad(coalesce(regexp_extract(${text}, ${re}, 6), ''), 7, '0') AS BIGINT)`, '10');
  const total = `(${group(2)} * ${MICROS.day} + ${group(3)} * ${MICROS.hour} + ${group(4)} * ${MICROS.minute} + ${group(5)} * ${MICROS.second} + ${fraction})`;
  return `CASE WHEN ${d.regexMatch(text, re)} THEN CASE WHEN regexp_extract(${text}, ${re}, 1) = '-' THEN -${total} ELSE ${total} END END`;
}

/**
 * Kusto's names of the runtime types of dynamic values (integers that fit 32 bits are int). An
 * integer beyond long's range is real (the dynamic page's number kinds are int, long and real):
 * DuckDB's json_type says UBIGINT for one up to 2^64 - 1.
 */
const gettypeDynamic: Readonly<Record<'duckdb' | 'timestream', (x: string) => string>> = {
  duckdb: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' ELSE CASE json_type(${x}) WHEN 'ARRAY' THEN 'array' WHEN 'OBJECT' THEN 'dictionary' WHEN 'VARCHAR' THEN 'string' WHEN 'BOOLEAN' THEN 'bool' WHEN 'DOUBLE' THEN 'real' WHEN 'NULL' THEN 'null' ELSE CASE WHEN TRY_CAST(CAST(${x} AS VARCHAR) AS INTEGER) IS NOT NULL THEN 'int' WHEN TRY_CAST(CAST(${x} AS VARCHAR) AS BIGINT) IS NOT NULL THEN 'long' ELSE 'real' END END END`,
  timestream: (x) =>
    `CASE WHEN ${x} IS NULL OR ${x} = 'null' THEN 'null' WHEN substr(${x}, 1, 1) = '[' THEN 'array' WHEN substr(${x}, 1, 1) = '{' THEN 'dictionary' WHEN substr(${x}, 1, 1) = '"' THEN 'string' WHEN ${x} IN ('true', 'false') THEN 'bool' WHEN try_cast(${x} AS INTEGER) IS NOT NULL THEN 'int' WHEN try_cast(${x} AS BIGINT) IS NOT NULL THEN 'long' ELSE 'real' END`,
};

const gettype: SqlBuilder = ({ a, args, d }) =>
  args[0]!.type === 'dynamic' ? gettypeDynamic[d.name](a[0]!) : d.string(args[0]!.type);

/**
 * A decimal is .NET's SqlDecimal (the decimal data type page): no NaN or infinities and fewer than
 * 38 digits. A double outside that (NaN, an infinity, 1e38 and beyond) is no conversion: null, as the
 * todecimal page says of a conversion that does not succeed. Written so that NaN fails on both
 * engines (DuckDB orders NaN above every number; Trino's comparisons with NaN are false).
 */
function asDecimal(d: SqlDialect, x: string): string {
  const inRange = (v: string): string => `CASE WHEN ${v} > -1e38 AND ${v} < 1e38 THEN ${v} END`;
  return d.name === 'duckdb' ? bindOnce(x, inRange) : inRange(x);
}

const toDecimal: SqlBuilder = ({ a, args, d }) => {
  const t: KqlType = args[0]!.type;
  if (t === 'string')
    return asDecimal(d, `CASE WHEN NOT ${d.regexMatch(a[0]!, "'_'")} THEN ${d.tryCast(`trim(${a[0]})`, 'DOUBLE')} END`);
  if (t === 'dynamic') return asDecimal(d, d.dynToDouble(a[0]!));
  if (t === 'bool') return `CAST(CASE WHEN ${a[0]} THEN 1 WHEN NOT ${a[0]} THEN 0 END AS DOUBLE)`;
  if (t === 'real') return asDecimal(d, `CAST(${a[0]} AS DOUBLE)`);
  return `CAST(${a[0]} AS DOUBLE)`;
};

export const TYPE_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'gettype',
    family: 'type',
    summary:
      'The runtime type of value as text (array, dictionary, int, long, real, string, bool, datetime, timespan, guid, null ...).',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'string' }],
    duckdb: gettype,
    timestream: gettype,
  },
  {
    name: 'todecimal',
    family: 'type',
    summary: 'value as decimal (computed in double precision); null when it does not convert.',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'decimal' }],
    check: (args) =>
      ['datetime', 'timespan', 'guid'].includes(args[0]!.type)
        ? [0, `a ${args[0]!.type} does not convert to decimal`]
        : undefined,
    duckdb: toDecimal,
    timestream: toDecimal,
  },
  {
    name: 'totimespan',
    aliases: ['totime'],
    family: 'type',
    summary: 'Text `[-][d.]hh:mm[:ss[.fffffff]]` (or a dynamic holding it) as a timespan; null when it does not parse.',
    signatures: [
      { params: [{ name: 'value', type: 'string' }], result: 'timespan' },
      { params: [{ name: 'value', type: 'timespan' }], result: 'timespan' },
    ],
    duckdb: ({ a, args, d }) => (args[0]!.type === 'timespan' ? a[0]! : parseTimespan(d, a[0]!)),
    timestream: ({ a, args, d }) => (args[0]!.type === 'timespan' ? a[0]! : parseTimespan(d, a[0]!)),
  },
];
