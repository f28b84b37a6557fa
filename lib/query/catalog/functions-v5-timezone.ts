// datetime_utc_to_local and datetime_local_to_utc (their docs pages) with IANA zone names, through
// DuckDB's ICU time zones. A zone name DuckDB does not know gives null (DuckDB would fail the whole
// query). A local time inside a spring-forward gap takes the offset after the change, as the
// datetime_local_to_utc page prints for Europe/Brussels (02:00 local is 00:00 UTC); ICU takes the
// offset before it, so the gap's hour is subtracted again where a round trip does not give the
// local time back. Timestream: refused.
import type { ScalarFunction, SqlCall } from './types';

const known = (tz: string): string => `${tz} IN (SELECT name FROM pg_timezone_names())`;
/** A UTC TIMESTAMP as the wall-clock TIMESTAMP of zone tz. */
const toLocal = (utc: string, tz: string): string => `timezone(${tz}, timezone('UTC', ${utc}))`;

function utcToLocal(c: SqlCall): string {
  const tz = c.a[1]!;
  return `CASE WHEN ${known(tz)} THEN ${toLocal(c.a[0]!, tz)} END`;
}

function localToUtc(c: SqlCall): string {
  const tz = c.a[1]!;
  const local = c.a[0]!;
  const utc = `timezone('UTC', timezone(${tz}, ${local}))`;
  const body = `u - (${toLocal('u', tz)} - ${local})`;
  return `CASE WHEN ${known(tz)} THEN list_transform([${utc}], u -> ${body})[1] END`;
}

const params = [
  { name: 'from', type: 'datetime' as const },
  { name: 'timezone', type: 'string' as const },
];

export const TIMEZONE_V5_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'datetime_utc_to_local',
    family: 'datetime',
    summary: 'The UTC datetime as the wall-clock time of an IANA time zone; null for a zone name that is not known.',
    signatures: [{ params, result: 'datetime' }],
    duckdb: utcToLocal,
    timestream: null,
  },
  {
    name: 'datetime_local_to_utc',
    family: 'datetime',
    summary:
      'The wall-clock datetime of an IANA time zone as UTC (a time in a spring-forward gap takes the later offset); null for a zone name that is not known.',
    signatures: [{ params, result: 'datetime' }],
    duckdb: localToUtc,
    timestream: null,
  },
];
