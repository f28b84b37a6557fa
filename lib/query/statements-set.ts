// What the set statements of a query ask for (set statement and "Request properties" docs). The
// properties that change the result are honoured: query_now, query_bin_auto_size/_at, the truncation
// limits, query_take_max_records, servertimeout; a limit may only lower the service's own one (the
// caller applies the minimum). Those that only tune Kusto's execution are read, type-checked and
// ignored; those whose meaning this service cannot give are refused. The same rules take the Kusto
// routes' properties.Options (statements-options.ts, reporting through propertiesOf's `fail`). Throws QueryError:
// QUERY_SEMANTIC for an unknown name or a value of the wrong type, QUERY_UNSUPPORTED for a refused one.
import type { Expr, LiteralKind, LiteralValue, SetStatement } from './ast';
import { clip, type ErrorFactory } from './errors';
import { closest } from './naming';
import type { Span } from './tokens';

/** The type of a property's value, as the request properties page gives it. */
export type ValueType =
  'bool' | 'long' | 'int' | 'datetime' | 'timespan' | 'string' | 'dynamic' | 'literal' | 'boolOrInt';

type Effect =
  | 'now'
  | 'binAutoSize'
  | 'binAutoAt'
  | 'truncationMaxRecords'
  | 'truncationMaxSize'
  | 'takeMaxRecords'
  | 'serverTimeout'
  | 'ignored';

interface Property {
  readonly type: ValueType;
  readonly effect?: Effect;
  /** Why the property is refused: its meaning is one this service does not give. */
  readonly refused?: string;
  /** Values (lower case) that are accepted even so: the ones that ask for what the service does anyway. */
  readonly unlessValue?: readonly string[];
}

const ignored = (type: ValueType): Property => ({ type, effect: 'ignored' });

/** Every request property of the page (both its current and earlier spellings), by lower-case name. */
export const REQUEST_PROPERTIES: ReadonlyMap<string, Property> = new Map<string, Property>([
  ['query_now', { type: 'datetime', effect: 'now' }],
  ['query_bin_auto_size', { type: 'literal', effect: 'binAutoSize' }],
  ['query_bin_auto_at', { type: 'literal', effect: 'binAutoAt' }],
  ['truncationmaxrecords', { type: 'long', effect: 'truncationMaxRecords' }],
  ['truncation_max_records', { type: 'long', effect: 'truncationMaxRecords' }],
  ['truncationmaxsize', { type: 'long', effect: 'truncationMaxSize' }],
  ['truncation_max_size', { type: 'long', effect: 'truncationMaxSize' }],
  ['query_take_max_records', { type: 'long', effect: 'takeMaxRecords' }],
  ['servertimeout', { type: 'timespan', effect: 'serverTimeout' }],
  // Lifts Kusto's truncation; the service's own limits stay (docs/query-api.md).
  ['notruncation', ignored('bool')],
  ['norequesttimeout', ignored('bool')],
  ['deferpartialqueryfailures', ignored('bool')],
  ['client_max_redirect_count', ignored('long')],
  ['materialized_view_shuffle', ignored('dynamic')],
  ['materialized_view_shuffle_query', ignored('dynamic')],
  ['max_memory_consumption_per_query_per_node', ignored('long')],
  ['maxmemoryconsumptionperiterator', ignored('long')],
  ['maxoutputcolumns', ignored('long')],
  ['push_selection_through_aggregation', ignored('bool')],
  ['query_admin_super_slacker_mode', ignored('bool')],
  ['query_cursor_after_default', ignored('string')],
  ['query_cursor_before_or_at_default', ignored('string')],
  ['query_cursor_current', ignored('string')],
  ['query_cursor_disabled', ignored('bool')],
  ['query_cursor_scoped_tables', ignored('dynamic')],
  ['query_datascope', ignored('string')],
  ['query_distribution_nodes_span', ignored('int')],
  ['query_fanout_nodes_percent', ignored('int')],
  ['query_fanout_threads_percent', ignored('int')],
  ['query_force_row_level_security', ignored('bool')],
  ['query_log_query_parameters', ignored('bool')],
  ['query_max_entities_in_union', ignored('long')],
  ['query_python_debug', ignored('boolOrInt')],
  ['query_results_cache_force_refresh', ignored('bool')],
  ['query_results_cache_max_age', ignored('timespan')],
  ['query_results_cache_per_shard', ignored('bool')],
  ['query_results_progressive_row_count', ignored('long')],
  ['query_results_progressive_update_period', ignored('timespan')],
  ['results_progressive_enabled', ignored('bool')],
  ['query_weakconsistency_session_id', ignored('string')],
  ['queryconsistency', ignored('string')],
  ['querytrace', ignored('bool')],
  ['request_app_name', ignored('string')],
  ['request_description', ignored('string')],
  ['request_user', ignored('string')],
  ['request_block_row_level_security', ignored('bool')],
  ['request_callout_disabled', ignored('bool')],
  ['request_external_data_disabled', ignored('bool')],
  ['request_external_table_disabled', ignored('bool')],
  ['request_impersonation_disabled', ignored('bool')],
  ['request_readonly', ignored('bool')],
  ['request_remote_entities_disabled', ignored('bool')],
  ['request_sandboxed_execution_disabled', ignored('bool')],
  [
    'query_datetimescope_column',
    {
      type: 'string',
      refused:
        "the time window is the request's (startTime/endTime, or properties.Options on the Kusto routes), not the query text's",
    },
  ],
  ['query_datetimescope_from', { type: 'datetime', refused: "the time window is the request's, not the query text's" }],
  ['query_datetimescope_to', { type: 'datetime', refused: "the time window is the request's, not the query text's" }],
  [
    'query_language',
    { type: 'string', refused: 'the query text is KQL; SQL is not taken', unlessValue: ['kql', 'csl'] },
  ],
  [
    'query_results_apply_getschema',
    {
      type: 'bool',
      refused: 'it answers the schema instead of the rows; end the query with | getschema',
      unlessValue: ['false'],
    },
  ],
  // `false` asks for what the service does anyway (an SDK may send it as a default).
  [
    'validatepermissions',
    { type: 'bool', refused: 'the query is always run; there are no permissions to validate', unlessValue: ['false'] },
  ],
  [
    'validate_permissions',
    { type: 'bool', refused: 'the query is always run; there are no permissions to validate', unlessValue: ['false'] },
  ],
]);

/** Limits a query asks for: the service applies each only where it is below its own. */
export interface ResultLimits {
  readonly rowLimit?: number;
  readonly maxResponseBytes?: number;
  readonly timeoutMs?: number;
}

export interface QueryProperties {
  /** query_now: now() and ago() in 100-ns ticks. */
  readonly nowTicks?: bigint;
  /** query_bin_auto_size and _at, literals for bin_auto() (bin-auto function docs). */
  readonly binAutoSize?: Expr;
  readonly binAutoAt?: Expr;
  /** query_take_max_records: the result holds at most this many rows, without a truncation. */
  readonly takeMaxRecords?: number;
  readonly limits?: ResultLimits;
}

/** A literal, or `-`/`+` before a number or timespan literal, as a set value is written. */
export function literalOf(e: Expr): { type: LiteralKind; value: LiteralValue } | undefined {
  if (e.kind === 'literal') return { type: e.type, value: e.value };
  if (e.kind !== 'unary' || e.operand.kind !== 'literal') return undefined;
  const { type, value } = e.operand;
  if (e.op === '+' || value === null) return { type, value };
  if (typeof value === 'bigint' && type !== 'datetime') return { type, value: -value };
  if (typeof value === 'number') return { type, value: -value };
  return undefined;
}

export const TYPE_WORDS: Readonly<Record<ValueType, string>> = {
  bool: 'a bool (true or false)',
  long: 'a long',
  int: 'an int',
  datetime: 'a datetime',
  timespan: 'a timespan',
  string: 'a string',
  dynamic: 'a dynamic',
  literal: 'a number, timespan or datetime literal',
  boolOrInt: 'a bool or an int',
};

/** Whether a literal is of the property's type. */
function fits(type: ValueType, lit: { type: LiteralKind; value: LiteralValue }): boolean {
  if (lit.value === null) return false;
  switch (type) {
    case 'bool':
      return lit.type === 'bool';
    case 'long':
    case 'int':
      return lit.type === 'long' || lit.type === 'int';
    case 'boolOrInt':
      return lit.type === 'bool' || lit.type === 'long' || lit.type === 'int';
    case 'literal':
      return ['long', 'int', 'real', 'decimal', 'timespan', 'datetime'].includes(lit.type);
    default:
      return lit.type === type;
  }
}

/** Reports a statement's problem and throws: `span` is where in the query text it is, when it is there. */
export type PropertyFailure = (
  statement: SetStatement,
  kind: 'semantic' | 'unsupported',
  message: string,
  span: Span,
) => never;

/** @throws QueryError (see the file's header). Later statements win, except limits: the lowest wins. */
export function queryProperties(sets: readonly SetStatement[], errors: ErrorFactory): QueryProperties {
  return propertiesOf(sets, (_s, kind, message, span) => {
    throw kind === 'semantic' ? errors.semantic(message, span) : errors.unsupported(message, span);
  });
}

/** queryProperties with its problems reported by `fail` (the request's options report them as their own). */
export function propertiesOf(sets: readonly SetStatement[], fail: PropertyFailure): QueryProperties {
  let out: {
    nowTicks?: bigint;
    binAutoSize?: Expr;
    binAutoAt?: Expr;
    takeMaxRecords?: number;
  } = {};
  const limits: { rowLimit?: number; maxResponseBytes?: number; timeoutMs?: number } = {};
  const lower = (key: keyof typeof limits, value: number): void => {
    limits[key] = Math.min(limits[key] ?? Infinity, value);
  };
  for (const s of sets) {
    const property = REQUEST_PROPERTIES.get(s.name.toLowerCase());
    if (property === undefined) {
      const hint = closest(s.name, REQUEST_PROPERTIES.keys());
      fail(
        s,
        'semantic',
        `unknown request property '${clip(s.name)}'${hint ? `; did you mean '${hint}'?` : ''}`,
        s.nameSpan,
      );
    }
    const lit = s.value === undefined ? { type: 'bool' as const, value: true } : literalOf(s.value);
    if (lit === undefined || !fits(property.type, lit))
      fail(
        s,
        'semantic',
        s.value === undefined
          ? `the request property '${s.name}' needs a value: set ${s.name} = <${property.type}>`
          : `the request property '${s.name}' takes ${TYPE_WORDS[property.type]}`,
        s.value?.span ?? s.nameSpan,
      );
    const accepted = property.unlessValue?.includes(String(lit.value).toLowerCase()) === true;
    if (property.refused !== undefined && !accepted)
      fail(s, 'unsupported', `the request property '${s.name}' is not taken: ${property.refused}`, s.nameSpan);
    const value = lit.value;
    const span = s.value?.span ?? s.nameSpan;
    const count = (): number => {
      if (typeof value !== 'bigint' || value < 0n)
        fail(s, 'semantic', `the request property '${s.name}' takes a count of 0 or more`, span);
      return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
    };
    switch (property.effect) {
      case 'now':
        out = { ...out, nowTicks: value as bigint };
        break;
      case 'binAutoSize':
        out = { ...out, binAutoSize: s.value! };
        break;
      case 'binAutoAt':
        out = { ...out, binAutoAt: s.value! };
        break;
      case 'truncationMaxRecords':
        lower('rowLimit', count());
        break;
      case 'truncationMaxSize':
        lower('maxResponseBytes', count());
        break;
      case 'takeMaxRecords':
        out = { ...out, takeMaxRecords: Math.min(out.takeMaxRecords ?? Infinity, count()) };
        break;
      case 'serverTimeout': {
        if ((value as bigint) <= 0n) fail(s, 'semantic', 'servertimeout must be a positive timespan', span);
        // Ticks of 100 ns to whole ms, at least 1.
        lower('timeoutMs', Math.max(1, Number((value as bigint) / 10_000n)));
        break;
      }
      default:
        break;
    }
  }
  return Object.keys(limits).length > 0 ? { ...out, limits } : out;
}
