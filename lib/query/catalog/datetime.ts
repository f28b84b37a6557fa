// Date and time functions. Datetimes carry microseconds on the SQL side: results below one
// microsecond (endof* is 100 ns before the next period in Kusto) are one microsecond off.
import type { IrExpr } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { formatDatetime, formatTimespan, FORMAT_DATETIME_CHECK, FORMAT_TIMESPAN_CHECK } from './formats';
import {
  addMonths,
  calendarPart,
  floorDiv,
  MICROS,
  startOfWeek,
  subSecondMicros,
  truncate,
  type CalendarPart,
} from './sql-helpers';
import { both, constantOf, type ArgumentCheck, type ScalarFunction, type SqlBuilder } from './types';
import { MAX_TIMESPAN_MICROS } from './type-functions';
import { bindOnceIn } from '../sql/bind-once';

/** Microseconds from 1970 of Kusto's first datetime (0001-01-01) and of the last whole microsecond of 9999-12-31. */
const FIRST_DATETIME_MICROS = -62135596800000000n;
const LAST_DATETIME_MICROS = 253402300799999999n;
/** Whole days in the largest timespan. */
const MAX_TIMESPAN_DAYS = MAX_TIMESPAN_MICROS / MICROS.day;

const unitOf = (e: IrExpr | undefined): string =>
  String(constantOf(e) ?? '')
    .toLowerCase()
    .replace(/_/g, '');

const DIFF_ADD_UNITS = [
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'hour',
  'minute',
  'second',
  'millisecond',
  'microsecond',
  'nanosecond',
];
const PART_UNITS = [
  'year',
  'quarter',
  'month',
  'weekofyear',
  'week',
  'day',
  'dayofyear',
  'hour',
  'minute',
  'second',
  'millisecond',
  'microsecond',
  'nanosecond',
];

const unitCheck =
  (units: readonly string[]) =>
  (args: readonly IrExpr[]): readonly [number, string] | undefined =>
    units.includes(unitOf(args[0]))
      ? undefined
      : [0, `unknown period '${String(constantOf(args[0]))}'; expected one of ${units.join(', ')}`];

/** Months since year 0 (for month, quarter and year differences). */
const monthIndex = (d: SqlDialect, ts: string): string =>
  `(${calendarPart(d, 'year', ts)} * 12 + ${calendarPart(d, 'month', ts)} - 1)`;
/** Sunday-based week number since the epoch (1970-01-01 was a Thursday). */
const weekIndex = (d: SqlDialect, ts: string): string =>
  floorDiv(d, `${floorDiv(d, d.epochMicros(ts), String(MICROS.day))} + 4`, '7');

const datetimeDiff: SqlBuilder = ({ args, a, d }) => {
  const [, x, y] = a as [string, string, string];
  const unit = unitOf(args[0]);
  switch (unit) {
    case 'year':
      return `(${calendarPart(d, 'year', x)} - ${calendarPart(d, 'year', y)})`;
    case 'quarter':
      return `(${floorDiv(d, monthIndex(d, x), '3')} - ${floorDiv(d, monthIndex(d, y), '3')})`;
    case 'month':
      return `(${monthIndex(d, x)} - ${monthIndex(d, y)})`;
    case 'week':
      return `(${weekIndex(d, x)} - ${weekIndex(d, y)})`;
    case 'nanosecond':
      return `((${d.epochMicros(x)} - ${d.epochMicros(y)}) * 1000)`;
    default: {
      // Kusto counts the period boundaries crossed: both ends are floored to the unit first.
      const n = String(MICROS[unit]);
      return `(${floorDiv(d, d.epochMicros(x), n)} - ${floorDiv(d, d.epochMicros(y), n)})`;
    }
  }
};

/** Days in 10,000 Gregorian years: no amount beyond that many of a unit lands inside Kusto's datetimes. */
const DAYS_IN_10000_YEARS = 3_652_425n;

/**
 * SQL: the amount `n` of `unit`s plus `plus` where that can land inside Kusto's datetimes (at most
 * 10,000 years either way), else null, so that the datetime it gives is null, as a datetime computed
 * past the range is (docs/query-api.md, "Values at the edges"); the engines would fail the query
 * instead, casting a month count past 32 bits or multiplying microseconds past 64. Undefined for a
 * constant past that. The guarded value is what is multiplied and what `plus` is added to: DuckDB's
 * optimizer regroups `(i * 200000000) * 86400000000` into `i * (200000000 * 86400000000)` and folds
 * that constant product at plan time, failing the query before any guard around it is evaluated.
 */
function withinDatetimeSpan(unit: string, n: Amount, plus = 0n): string | undefined {
  const perUnit: Readonly<Record<string, bigint>> = { year: 1n, quarter: 4n, month: 12n };
  const limit =
    unit in perUnit
      ? 10_000n * perUnit[unit]!
      : (DAYS_IN_10000_YEARS * MICROS.day + MICROS[unit === 'week' ? 'day' : unit]! - 1n) /
        (unit === 'week' ? MICROS.day * 7n : MICROS[unit]!);
  const shifted = (sql: string): string => (plus === 0n ? sql : `(${sql}) + ${plus}`);
  // A constant amount is checked here: no CASE, whose depth nested calls would add up.
  if (n.value !== undefined) return n.value + plus >= -limit && n.value + plus <= limit ? shifted(n.sql) : undefined;
  return shifted(`CASE WHEN (${n.sql}) BETWEEN ${-limit - plus} AND ${limit - plus} THEN ${n.sql} END`);
}

/** An amount's SQL, and its value when it is a constant integer. */
interface Amount {
  readonly sql: string;
  readonly value?: bigint;
}

function amountOf(sql: string, arg: IrExpr | undefined): Amount {
  const v = constantOf(arg);
  if (typeof v === 'bigint') return { sql, value: v };
  return typeof v === 'number' && Number.isInteger(v) ? { sql, value: BigInt(v) } : { sql };
}

const datetimeAdd: SqlBuilder = ({ args, a, d }) => {
  const [, n, x] = a as [string, string, string];
  const unit = unitOf(args[0]);
  if (unit === 'nanosecond') return d.addMicros(x, d.intDiv(`(${n})`, '1000'));
  const amount = withinDatetimeSpan(unit, amountOf(n, args[1]));
  return amount === undefined ? d.nullOf('datetime') : addAmount(d, unit, amount, x);
};

/** x plus n units (any unit but nanosecond). */
function addAmount(d: SqlDialect, unit: string, n: string, x: string): string {
  if (unit === 'year') return addMonths(d, x, `(${n}) * 12`);
  if (unit === 'quarter') return addMonths(d, x, `(${n}) * 3`);
  if (unit === 'month') return addMonths(d, x, n);
  if (unit === 'week') return d.addMicros(x, `(${n}) * ${MICROS.day * 7n}`);
  const micros = MICROS[unit]!;
  // An int amount times a unit the engine reads as an int (a minute's 60000000 µs) overflows 32 bits.
  return d.addMicros(x, micros < 2n ** 31n ? `CAST(${n} AS BIGINT) * ${micros}` : `(${n}) * ${micros}`);
}

const datetimePart: SqlBuilder = ({ args, a, d }) => {
  const x = a[1]!;
  const unit = unitOf(args[0]);
  const simple: Readonly<Record<string, CalendarPart>> = {
    year: 'year',
    quarter: 'quarter',
    month: 'month',
    weekofyear: 'week',
    week: 'week',
    day: 'day',
    dayofyear: 'dayofyear',
    hour: 'hour',
    minute: 'minute',
    second: 'second',
  };
  const part = simple[unit];
  if (part) return `CAST(${calendarPart(d, part, x)} AS INTEGER)`;
  const us = subSecondMicros(d, x);
  if (unit === 'millisecond') return `CAST(${d.intDiv(us, '1000')} AS INTEGER)`;
  if (unit === 'microsecond') return `CAST(${us} AS INTEGER)`;
  return `CAST(${us} * 1000 AS INTEGER)`;
};

const part =
  (p: CalendarPart): SqlBuilder =>
  ({ a, d }) =>
    `CAST(${calendarPart(d, p, a[0]!)} AS INTEGER)`;

/** startof*(date [, offset]): the period's start, offset (plus `plus`) whole periods later. */
function startOf(
  period: 'day' | 'week' | 'month' | 'year',
  d: SqlDialect,
  x: string,
  offset: Amount | undefined,
  plus = 0n,
): string {
  const start = period === 'week' ? startOfWeek(d, x) : truncate(period, x);
  if (offset === undefined) return start;
  const amount = withinDatetimeSpan(period, offset, plus);
  return amount === undefined ? d.nullOf('datetime') : addAmount(d, period, amount, start);
}

const periodFunctions = (['day', 'week', 'month', 'year'] as const).flatMap((period): ScalarFunction[] => {
  const signatures = [
    {
      params: [
        { name: 'date', type: 'datetime' as const },
        { name: 'offset', type: 'integer' as const, optional: true },
      ],
      result: 'datetime' as const,
    },
  ];
  return [
    {
      name: `startof${period}`,
      family: 'datetime',
      summary: `The start of the ${period} of date, shifted by offset ${period}s.${period === 'week' ? ' Weeks start on Sunday.' : ''}`,
      signatures,
      ...both(({ a, args, d }) => startOf(period, d, a[0]!, a[1] === undefined ? undefined : amountOf(a[1], args[1]))),
    },
    {
      name: `endof${period}`,
      family: 'datetime',
      summary: `The last instant of the ${period} of date, shifted by offset ${period}s (microsecond precision: 1 µs, not 100 ns, before the next ${period}).`,
      signatures,
      ...both(({ a, args, d }) => {
        // The next period's start, one microsecond back.
        const offset = a[1] === undefined ? { sql: '0', value: 0n } : amountOf(a[1], args[1]);
        return d.addMicros(startOf(period, d, a[0]!, offset, 1n), '-1');
      }),
    },
  ];
});

const dt = [{ name: 'date', type: 'datetime' as const }];

/**
 * SQL: whole microseconds of a number of seconds, cut down (Kusto keeps 100 ns ticks; the engines keep
 * microseconds, so a finer fraction is dropped, never rounded up into the next minute).
 */
const secondMicros = (second: string): string => `floor(CAST(${second} AS DOUBLE) * 1000000)`;

/**
 * SQL: hour, minute and second within make_datetime's and make_timespan's ranges (their pages: 0-23,
 * 0-59, 0 to 59.9999999); outside them the pages give null. The seconds are checked as the whole
 * microseconds that are added (`secondMicros`), so no fraction carries past the check.
 */
const clockPartsInRange = (hour: string, minute: string, micros: string): string =>
  `(${hour} BETWEEN 0 AND 23 AND ${minute} BETWEEN 0 AND 59 AND ${micros} BETWEEN 0 AND 59999999)`;

/**
 * Datetimes are computed to the microsecond (docs/query-api.md, "Precision"): a constant argument
 * that names a finer instant is refused instead of silently rounded. `perMicro`: microseconds per unit.
 */
function subMicroCheck(index: number, perMicro: number): ArgumentCheck {
  return (args) => {
    const v = constantOf(args[index]);
    if (typeof v !== 'number' && typeof v !== 'bigint') return undefined;
    const micros = typeof v === 'bigint' && perMicro < 1 ? Number(v % 1000n) / 1000 : Number(v) * perMicro;
    return Math.abs(micros - Math.round(micros)) > 1e-6
      ? [index, 'this value needs 100-nanosecond precision; datetimes are computed to the microsecond']
      : undefined;
  };
}

/**
 * datetime_add of a constant number of nanoseconds: Kusto keeps whole ticks of it (100 ns, as for a
 * nanosecond literal); whole ticks that are no whole number of microseconds are refused, as a literal
 * finer than the engines' microseconds is, instead of being rounded away (1500 ns is 15 ticks).
 */
const nanosecondAmountCheck: ArgumentCheck = (args) => {
  const v = constantOf(args[1]);
  if (unitOf(args[0]) !== 'nanosecond' || (typeof v !== 'number' && typeof v !== 'bigint')) return undefined;
  return (BigInt(v) / 100n) % 10n === 0n
    ? undefined
    : [1, 'this value needs 100-nanosecond precision; datetimes are computed to the microsecond'];
};

export const DATETIME_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'datetime_diff',
    family: 'datetime',
    summary: 'The number of period boundaries between datetime2 and datetime1 (datetime1 - datetime2).',
    signatures: [
      {
        params: [
          { name: 'period', type: 'string', constant: true },
          { name: 'datetime1', type: 'datetime' },
          { name: 'datetime2', type: 'datetime' },
        ],
        result: 'long',
      },
    ],
    check: unitCheck(DIFF_ADD_UNITS),
    ...both(datetimeDiff),
  },
  {
    name: 'datetime_add',
    family: 'datetime',
    summary: 'datetime plus amount periods (months clamp to the last day of the month).',
    signatures: [
      {
        params: [
          { name: 'period', type: 'string', constant: true },
          { name: 'amount', type: 'integer' },
          { name: 'datetime', type: 'datetime' },
        ],
        result: 'datetime',
      },
    ],
    check: (args) => unitCheck(DIFF_ADD_UNITS)(args) ?? nanosecondAmountCheck(args),
    ...both(datetimeAdd),
  },
  {
    name: 'datetime_part',
    family: 'datetime',
    summary: 'One calendar part of a datetime as an int (week_of_year is the ISO 8601 week).',
    signatures: [
      {
        params: [
          { name: 'part', type: 'string', constant: true },
          { name: 'datetime', type: 'datetime' },
        ],
        result: 'int',
      },
    ],
    check: unitCheck(PART_UNITS),
    ...both(datetimePart),
  },
  {
    name: 'format_datetime',
    family: 'datetime',
    summary: 'A datetime as text in a constant format (y, M, d, h, H, m, s, f, F, tt and separators).',
    signatures: [
      {
        params: [
          { name: 'date', type: 'datetime' },
          { name: 'format', type: 'string', constant: true },
        ],
        result: 'string',
      },
    ],
    check: FORMAT_DATETIME_CHECK,
    ...both(({ a, args, d }) => formatDatetime(d, a[0]!, String(constantOf(args[1])))),
  },
  {
    name: 'format_timespan',
    family: 'datetime',
    summary: 'A timespan as text in a constant format (d, h, H, m, s, f, F and separators).',
    signatures: [
      {
        params: [
          { name: 'timespan', type: 'timespan' },
          { name: 'format', type: 'string', constant: true },
        ],
        result: 'string',
      },
    ],
    check: FORMAT_TIMESPAN_CHECK,
    ...both(({ a, args, d }) => formatTimespan(d, a[0]!, String(constantOf(args[1])))),
  },
  ...periodFunctions,
  {
    name: 'dayofweek',
    family: 'datetime',
    summary: 'The days since the preceding Sunday, as a timespan.',
    signatures: [{ params: dt, result: 'timespan' }],
    ...both(({ a, d }) => `(${calendarPart(d, 'dow', a[0]!)} * ${MICROS.day})`),
  },
  {
    name: 'dayofmonth',
    family: 'datetime',
    summary: 'The day of the month, 1 to 31.',
    signatures: [{ params: dt, result: 'int' }],
    ...both(part('day')),
  },
  {
    name: 'dayofyear',
    family: 'datetime',
    summary: 'The day of the year, 1 to 366.',
    signatures: [{ params: dt, result: 'int' }],
    ...both(part('dayofyear')),
  },
  {
    name: 'getmonth',
    aliases: ['monthofyear'],
    family: 'datetime',
    summary: 'The month, 1 to 12.',
    signatures: [{ params: dt, result: 'int' }],
    ...both(part('month')),
  },
  {
    name: 'getyear',
    family: 'datetime',
    summary: 'The year.',
    signatures: [{ params: dt, result: 'int' }],
    ...both(part('year')),
  },
  {
    name: 'hourofday',
    family: 'datetime',
    summary: 'The hour, 0 to 23.',
    signatures: [{ params: dt, result: 'int' }],
    ...both(part('hour')),
  },
  {
    name: 'week_of_year',
    aliases: ['weekofyear'],
    family: 'datetime',
    summary: 'The ISO 8601 week number.',
    signatures: [{ params: dt, result: 'int' }],
    ...both(part('week')),
  },
  {
    name: 'make_datetime',
    family: 'datetime',
    summary: 'A datetime from its parts; null when they name no valid instant (a year outside 1 to 9999 included).',
    signatures: [
      {
        params: [
          { name: 'year', type: 'integer' },
          { name: 'month', type: 'integer' },
          { name: 'day', type: 'integer' },
          { name: 'hour', type: 'integer', optional: true },
          { name: 'minute', type: 'integer', optional: true },
          { name: 'second', type: 'number', optional: true },
        ],
        result: 'datetime',
      },
    ],
    check: subMicroCheck(5, 1_000_000),
    // A year outside Kusto's datetimes (0001 to 9999, the datetime page) gives null, as on Timestream;
    // so do an hour, minute or second outside the page's ranges, which make_timestamp would carry
    // into the next day or minute (hour 24, second 60).
    // The date is checked part by part in nested CASEs (the inner one runs only on a valid year and
    // month), not caught by TRY: DuckDB refuses TRY around a scalar subquery, a toscalar() argument.
    duckdb: ({ a, d }) => {
      const [y, mo, day] = a as [string, string, string];
      const micros = secondMicros(a[5] ?? '0');
      const start = `make_timestamp(${y}, ${mo}, ${day}, ${a[3] ?? 0}, ${a[4] ?? 0}, 0)`;
      const dayInMonth = `${day} BETWEEN 1 AND dayofmonth(last_day(make_date(${y}, ${mo}, 1)))`;
      return `CASE WHEN ${clockPartsInRange(a[3] ?? '0', a[4] ?? '0', micros)} AND ${y} BETWEEN 1 AND 9999 AND ${mo} BETWEEN 1 AND 12 THEN CASE WHEN ${dayInMonth} THEN ${d.addMicros(start, `CAST(${micros} AS BIGINT)`)} END END`;
    },
    // Timestream has no constructor from parts: the date is added up from the epoch, and parts that
    // name no instant (month 13, February 30, hour 24) give null, as make_timestamp's errors do above.
    timestream: ({ a, d }) => {
      const [y, mo, day] = a as [string, string, string];
      const [h, mi, s] = [a[3] ?? '0', a[4] ?? '0', a[5] ?? '0'];
      const date = `date_add('day', ${day} - 1, date_add('month', ${mo} - 1, date_add('year', ${y} - 1970, ${d.fromEpochMicros('0')})))`;
      const valid = [
        `${y} BETWEEN 1 AND 9999`,
        `${mo} BETWEEN 1 AND 12`,
        `${day} BETWEEN 1 AND 31`,
        `day(${date}) = ${day}`,
        clockPartsInRange(h, mi, secondMicros(s)),
      ].join(' AND ');
      const micros = `${h} * ${MICROS.hour} + ${mi} * ${MICROS.minute} + CAST(${secondMicros(s)} AS BIGINT)`;
      return `CASE WHEN ${valid} THEN ${d.addMicros(date, micros)} END`;
    },
  },
  {
    name: 'make_timespan',
    family: 'datetime',
    summary: 'A timespan from (hours, minutes[, seconds]) or (days, hours, minutes, seconds).',
    signatures: [
      {
        params: [
          { name: 'hour', type: 'integer' },
          { name: 'minute', type: 'integer' },
          { name: 'second', type: 'number', optional: true },
        ],
        result: 'timespan',
      },
      {
        params: [
          { name: 'day', type: 'integer' },
          { name: 'hour', type: 'integer' },
          { name: 'minute', type: 'integer' },
          { name: 'second', type: 'number' },
        ],
        result: 'timespan',
      },
    ],
    // Seconds finer than a microsecond are refused when constant, as make_datetime's are.
    check: (args) => subMicroCheck(args.length === 4 ? 3 : 2, 1_000_000)(args),
    // Null for an hour, minute or second outside the page's ranges (0-23, 0-59, 0 to 59.9999999):
    // "Otherwise, the result will be null". The days have no range there; a total past the largest
    // timespan (a long's ticks) is null, as totimespan() gives past it.
    ...both(({ a, d }) => {
      const [h, m, s] = a.length === 4 ? a.slice(1) : [a[0]!, a[1]!, a[2] ?? '0'];
      const micros = secondMicros(s!);
      const clock = `CAST(${h} AS BIGINT) * ${MICROS.hour} + CAST(${m} AS BIGINT) * ${MICROS.minute} + CAST(${micros} AS BIGINT)`;
      const inClock = clockPartsInRange(h!, m!, micros);
      if (a.length !== 4) return `CASE WHEN ${inClock} THEN (${clock}) END`;
      // The days are guarded before they are multiplied: DuckDB folds a constant product at plan
      // time, and a day count past a timespan's overflows 64 bits there.
      const days = `CAST(CASE WHEN ${a[0]} BETWEEN -${MAX_TIMESPAN_DAYS + 1n} AND ${MAX_TIMESPAN_DAYS} THEN ${a[0]} END AS BIGINT)`;
      return bindOnceIn(
        d,
        `CASE WHEN ${inClock} THEN (${days} * ${MICROS.day} + ${clock}) END`,
        (v) => `CASE WHEN ${v} BETWEEN -${MAX_TIMESPAN_MICROS} AND ${MAX_TIMESPAN_MICROS} THEN ${v} END`,
      );
    }),
  },
  ...(
    [
      ['unixtime_seconds_todatetime', 1_000_000, 'seconds'],
      ['unixtime_milliseconds_todatetime', 1000, 'milliseconds'],
      ['unixtime_microseconds_todatetime', 1, 'microseconds'],
      ['unixtime_nanoseconds_todatetime', 0.001, 'nanoseconds'],
    ] as const
  ).map(([name, scale, unit]): ScalarFunction => ({
    name,
    family: 'datetime',
    summary: `The datetime ${unit} after 1970-01-01; null outside 0001-01-01 to 9999-12-31.`,
    signatures: [{ params: [{ name: unit, type: 'number' }], result: 'datetime' }],
    ...(scale < 1 ? { check: subMicroCheck(0, scale) } : {}),
    // An instant outside Kusto's datetimes (0001-01-01 to 9999-12-31) is no conversion: null, as
    // the pages' Returns say ("Otherwise, the result is null"); the engines would go on to year 33658.
    ...both(({ a, d }) => {
      // Compared as a DOUBLE before the cast: a value past a BIGINT's range (a long's most, in
      // seconds) was a Conversion Error of the cast, not the null the pages give.
      // No TRY around it (the range test keeps the cast from failing): DuckDB refuses TRY around a
      // scalar subquery, a toscalar() argument.
      const scaled = `floor(CAST(${a[0]} AS DOUBLE) * ${scale})`;
      return `CASE WHEN ${scaled} BETWEEN ${FIRST_DATETIME_MICROS} AND ${LAST_DATETIME_MICROS} THEN ${d.fromEpochMicros(`CAST(${scaled} AS BIGINT)`)} END`;
    }),
  })),
  {
    name: 'bin_at',
    family: 'datetime',
    summary: 'Rounds value down to a multiple of bin_size counted from fixed_point.',
    signatures: [
      {
        params: [
          { name: 'value', type: 'datetime' },
          { name: 'bin_size', type: 'timespan' },
          { name: 'fixed_point', type: 'datetime' },
        ],
        result: 'datetime',
      },
      {
        params: [
          { name: 'value', type: 'timespan' },
          { name: 'bin_size', type: 'timespan' },
          { name: 'fixed_point', type: 'timespan' },
        ],
        result: 'timespan',
      },
      {
        params: [
          { name: 'value', type: 'number' },
          { name: 'bin_size', type: 'number' },
          { name: 'fixed_point', type: 'number' },
        ],
        // The widest argument type, decimal over real over long (Kusto.Language's Widest result for bin_at).
        result: (args) =>
          args.some((x) => x.type === 'decimal') ? 'decimal' : args.some((x) => x.type === 'real') ? 'real' : 'long',
      },
    ],
    ...both(({ a, args, d, type }) => {
      const [x, size, p] = a as [string, string, string];
      if (type === 'datetime') {
        const offset = `(${d.epochMicros(x)} - ${d.epochMicros(p)})`;
        return `CASE WHEN ${size} > 0 THEN ${d.fromEpochMicros(`${d.epochMicros(p)} + ${floorDiv(d, offset, size)} * ${size}`)} END`;
      }
      if (type === 'timespan' || args.every((e) => e.type !== 'real' && e.type !== 'decimal'))
        return `CASE WHEN ${size} > 0 THEN ${p} + ${floorDiv(d, `${x} - ${p}`, size)} * ${size} END`;
      return `CASE WHEN ${size} > 0 THEN ${p} + floor((${x} - ${p}) / ${size}) * ${size} END`;
    }),
  },
];
