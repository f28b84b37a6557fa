// A Kusto REST request body `{db, csl, properties}` (Kusto docs, "Query/management HTTP request"):
// `properties` is a JSON object or its text, with `Options` and `Parameters` (the values of the
// query's declared parameters, bound by the compiler: lib/query/statements-declare.ts). The database is the
// caller's customer; the time window comes from Kusto's own options query_datetimescope_column /
// _from / _to, else the longest window the service allows, ending now; the other request properties
// of the options become the compiler's set statements (docs/kusto-protocol.md, "Requests").
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import { readParameters } from '../query-api/parameters';
import { requestPropertyStatements, type SetStatement } from '../query';

/** The names Kusto clients send for "no particular database" (Kusto.Explorer's cluster-level commands). */
const DEFAULT_DATABASE_NAMES = new Set(['', 'NetDefaultDB']);

/** The only column the time scope can restrict: both tables' Timestamp (the native endpoint's window). */
export const DATETIME_SCOPE_COLUMN = 'Timestamp';

export interface KustoRequest {
  readonly db: string;
  readonly csl: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** properties.Parameters: the values of the query's `declare query_parameters`, as text (absent when none). */
  readonly parameters?: Readonly<Record<string, string>>;
}

export interface KustoWindow {
  readonly startTime: string;
  readonly endTime: string;
}

function objectOrNull(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** @throws AppError INVALID_INPUT naming the field. */
export function parseKustoRequest(body: unknown): KustoRequest {
  const object = objectOrNull(body);
  if (!object) throw new AppError('INVALID_INPUT', 'send a JSON object {db, csl, properties}', { field: 'body' });
  const { db = '', csl } = object;
  if (typeof db !== 'string')
    throw new AppError('INVALID_INPUT', 'db must be a string: the database name (your customer id)', { field: 'db' });
  if (typeof csl !== 'string' || csl.trim() === '')
    throw new AppError('INVALID_INPUT', 'csl must be the query or command text', { field: 'csl' });
  let properties: unknown = object.properties ?? null;
  if (typeof properties === 'string') {
    try {
      properties = properties.trim() === '' ? null : (JSON.parse(properties) as unknown);
    } catch {
      throw new AppError('INVALID_INPUT', 'properties is not valid JSON', { field: 'properties' });
    }
  }
  if (properties !== null && !objectOrNull(properties))
    throw new AppError('INVALID_INPUT', 'properties must be an object with Options and Parameters', {
      field: 'properties',
    });
  const props = objectOrNull(properties) ?? {};
  const options = props.Options ?? {};
  if (!objectOrNull(options))
    throw new AppError('INVALID_INPUT', 'properties.Options must be an object', { field: 'properties.Options' });
  const read = readParameters(props.Parameters ?? {});
  if (!read.ok)
    throw new AppError('INVALID_INPUT', `properties.Parameters: ${read.message}`, {
      field: read.name === undefined ? 'properties.Parameters' : `properties.Parameters.${read.name}`,
    });
  const texts = read.texts;
  const base = { db, csl, options: options as Record<string, unknown> };
  return Object.keys(texts).length > 0 ? { ...base, parameters: texts } : base;
}

/**
 * The database rule: `db` is the caller's customer id; '' and 'NetDefaultDB' (what clients send
 * without a database) mean the same. @throws AppError FORBIDDEN for any other database.
 */
export function checkDatabase(db: string, caller: Caller): string {
  if (DEFAULT_DATABASE_NAMES.has(db) || db === caller.customerId) return caller.customerId;
  throw new AppError(
    'FORBIDDEN',
    `database '${db}' is not this client's; use your customer id '${caller.customerId}' as the database`,
    { field: 'db' },
  );
}

/** Kusto datetime text (ISO 8601, `T` or space, up to 7 fractional digits, `Z` optional) -> epoch ms. */
function datetimeOption(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const m =
    typeof value === 'string'
      ? /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,7}))?)?Z?$/.exec(value.trim())
      : null;
  const ms = m
    ? Date.parse(
        `${m[1]}T${m[2] ?? '00:00:00'}${m[2]?.length === 5 ? ':00' : ''}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`,
      )
    : NaN;
  // Date.parse rolls 2026-02-30 over to March; a date that does not come back the same is no date.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== m?.[1])
    throw new AppError('INVALID_INPUT', `${name} must be a UTC datetime such as 2026-01-31T00:00:00Z`, {
      field: `properties.Options.${name}`,
    });
  return ms;
}

/**
 * The query's time window: query_datetimescope_from / _to when given (either may be left out),
 * else the longest window allowed (maxWindowDays) ending at `now`.
 * @throws AppError INVALID_INPUT for another scope column, a bad datetime, an empty or too long window.
 */
export function timeWindow(options: Readonly<Record<string, unknown>>, maxWindowDays: number, now: Date): KustoWindow {
  const column = options.query_datetimescope_column;
  if (column !== undefined && column !== null && column !== '' && column !== DATETIME_SCOPE_COLUMN) {
    throw new AppError('INVALID_INPUT', `query_datetimescope_column can only be '${DATETIME_SCOPE_COLUMN}'`, {
      field: 'properties.Options.query_datetimescope_column',
    });
  }
  const maxMs = maxWindowDays * 86_400_000;
  const from = datetimeOption('query_datetimescope_from', options.query_datetimescope_from);
  const to = datetimeOption('query_datetimescope_to', options.query_datetimescope_to);
  const end = to ?? (from !== undefined ? Math.min(now.getTime(), from + maxMs) : now.getTime());
  const start = from ?? end - maxMs;
  if (end <= start)
    throw new AppError('INVALID_INPUT', 'query_datetimescope_to must be after query_datetimescope_from', {
      field: 'properties.Options.query_datetimescope_to',
    });
  if (end - start > maxMs)
    throw new AppError(
      'INVALID_INPUT',
      `the time scope is longer than ${maxWindowDays} days; narrow query_datetimescope_from/_to`,
      { field: 'properties.Options.query_datetimescope_from', maxWindowDays },
    );
  return { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() };
}

/**
 * The request properties among the options (servertimeout, query_now, truncationmaxrecords, ...), as
 * set statements of literals taken exactly as the same `set` in the query text (lib/query/statements-options.ts).
 * Names the property table does not know are ignored: the SDKs send client-side options too.
 * @throws AppError INVALID_INPUT naming `properties.Options.<name>` for a value of the wrong type or
 * one the property refuses; QUERY_UNSUPPORTED for a property the service does not take.
 */
export function optionStatements(options: Readonly<Record<string, unknown>>): readonly SetStatement[] {
  return requestPropertyStatements(options, (name, message, unsupported) => {
    const field = `properties.Options.${name}`;
    throw unsupported
      ? new AppError('QUERY_UNSUPPORTED', `${field}: ${message}`, { field })
      : new AppError('INVALID_INPUT', `${field} ${message}`, { field });
  });
}
