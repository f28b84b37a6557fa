// Type functions: gettype, todecimal and the non-constant forms of totimespan (constant strings are
// folded by the analyzer).
import type { KqlType } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { bindOnceIn } from '../sql/bind-once';
import { MAX_LONG, TICKS_PER_DAY, TICKS_PER_MICRO, TIMESPAN_UNITS } from '../literals';
import { MICROS, NON_FINITE } from './sql-helpers';
import type { ScalarFunction, SqlBuilder } from './types';

// The text forms totimespan() reads, as a constant is folded (literals.ts parseTimespanTicks):
// `[-][d.]h:m[:s[.fffffff]]` with minutes and seconds of one or two digits, a number and a unit of
// the timespan literals (`1.5h`, `2d`, `10 seconds`), and a bare number of days (`10`). A value of
// more than 15 integer or 9 fractional digits in the last two forms is no timespan here (its
// decimal product would not fit 38 digits; the constant fold reads it).
const TIMESPAN_CLOCK =
  '^\\s*(-)?(?:([0-9]{1,8})\\.)?([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2})(?:\\.([0-9]{1,7}))?)?\\s*$';
const TIMESPAN_AMOUNT = '^\\s*(-)?([0-9]{1,15}(?:\\.[0-9]{1,9})?) ?([a-z]*)\\s*$';

/** The most microseconds a timespan holds: a long's ticks. */
export const MAX_TIMESPAN_MICROS = MAX_LONG / TICKS_PER_MICRO;

/**
 * Timespan text (or a dynamic holding it) to BIGINT microseconds, null when it does not parse. The
 * text and the clock form's sum are each bound once (the regular expressions read the text about
 * twenty times) and the sign multiplies the magnitude, so the SQL does not multiply per nesting level.
 */
function parseTimespan(d: SqlDialect, text: string): string {
  const clock = d.string(TIMESPAN_CLOCK);
  const amount = d.string(TIMESPAN_AMOUNT);
  return bindOnceIn(d, text, (t) => {
    const group = (n: number): string =>
      `CAST(coalesce(nullif(regexp_extract(${t}, ${clock}, ${n}), ''), '0') AS BIGINT)`;
    // Integer division: DuckDB's `/` would make the whole total a DOUBLE, which datetime arithmetic refuses.
    const fraction = d.intDiv(`CAST(rpad(coalesce(regexp_extract(${t}, ${clock}, 6), ''), 7, '0') AS BIGINT)`, '10');
    const sum = `(${group(2)} * ${MICROS.day} + ${group(3)} * ${MICROS.hour} + ${group(4)} * ${MICROS.minute} + ${group(5)} * ${MICROS.second} + ${fraction})`;
    // Past a long's ticks is no timespan (the fold's range): eight digits of days fit the BIGINT sum.
    const total = bindOnceIn(d, sum, (v) => `CASE WHEN ${v} <= ${MAX_TIMESPAN_MICROS} THEN ${v} END`);
    const unit = `regexp_extract(${t}, ${amount}, 3)`;
    const ticksPerUnit = `CASE ${unit} WHEN '' THEN ${TICKS_PER_DAY} ${[...TIMESPAN_UNITS].map(([u, k]) => `WHEN '${u}' THEN ${k}`).join(' ')} END`;
    // Whole ticks of an exact decimal, null past a long (as the fold computes them), then cut to
    // whole microseconds (the precision the engines keep).
    const ticks = d.tryCast(
      `floor(CAST(regexp_extract(${t}, ${amount}, 2) AS DECIMAL(38, 9)) * ${ticksPerUnit})`,
      'BIGINT',
    );
    const micros = d.intDiv(ticks, String(TICKS_PER_MICRO));
    const sign = (re: string): string => `CASE WHEN regexp_extract(${t}, ${re}, 1) = '-' THEN -1 ELSE 1 END`;
    return `CASE WHEN ${d.regexMatch(t, clock)} THEN ${sign(clock)} * ${total} WHEN ${d.regexMatch(t, amount)} THEN ${sign(amount)} * ${micros} END`;
  });
}

/**
 * Kusto's names of the runtime types of dynamic values (integers that fit 32 bits are int). An
 * integer beyond long's range is real (the dynamic page's number kinds are int, long and real):
 * DuckDB's json_type says UBIGINT for one up to 2^64 - 1. A real NaN or infinity is real, as the
 * functions reading it take it; a JSON string of that very text ("NaN") cannot be told from it.
 */
const gettypeDynamic: Readonly<Record<'duckdb' | 'timestream', (x: string) => string>> = {
  duckdb: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' ELSE CASE json_type(${x}) WHEN 'ARRAY' THEN 'array' WHEN 'OBJECT' THEN 'dictionary' WHEN 'VARCHAR' THEN CASE WHEN CAST(${x} AS VARCHAR) IN (${NON_FINITE}) THEN 'real' ELSE 'string' END WHEN 'BOOLEAN' THEN 'bool' WHEN 'DOUBLE' THEN 'real' WHEN 'NULL' THEN 'null' ELSE CASE WHEN TRY_CAST(CAST(${x} AS VARCHAR) AS INTEGER) IS NOT NULL THEN 'int' WHEN TRY_CAST(CAST(${x} AS VARCHAR) AS BIGINT) IS NOT NULL THEN 'long' ELSE 'real' END END END`,
  timestream: (x) =>
    `CASE WHEN ${x} IS NULL OR ${x} = 'null' THEN 'null' WHEN substr(${x}, 1, 1) = '[' THEN 'array' WHEN substr(${x}, 1, 1) = '{' THEN 'dictionary' WHEN ${x} IN (${NON_FINITE}) THEN 'real' WHEN substr(${x}, 1, 1) = '"' THEN 'string' WHEN ${x} IN ('true', 'false') THEN 'bool' WHEN try_cast(${x} AS INTEGER) IS NOT NULL THEN 'int' WHEN try_cast(${x} AS BIGINT) IS NOT NULL THEN 'long' ELSE 'real' END`,
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
  return bindOnceIn(d, x, (v) => `CASE WHEN ${v} > -1e38 AND ${v} < 1e38 THEN ${v} END`);
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
