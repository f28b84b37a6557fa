// The limits a query's set statements ask for (truncationmaxrecords, truncationmaxsize,
// servertimeout: lib/query/statements-set.ts) applied to the service's settings: each only lowers
// the service's own limit, never raises it (docs/query-api.md, "Statements").
import type { ResultLimits } from '../query';

/** The fields of the query service's settings (service.ts, QuerySettings) that a query may lower. */
interface Limited {
  readonly rowLimit: number;
  readonly timeoutMs: number;
  readonly maxResponseBytes?: number;
}

/** `defaultBytes`: the byte cap the service applies when its settings name none. */
export function limitedSettings<S extends Limited>(
  settings: S,
  limits: ResultLimits | undefined,
  defaultBytes: number,
): S {
  if (limits === undefined) return settings;
  const lower = (own: number, asked: number | undefined): number => (asked === undefined ? own : Math.min(own, asked));
  return {
    ...settings,
    rowLimit: lower(settings.rowLimit, limits.rowLimit),
    timeoutMs: lower(settings.timeoutMs, limits.timeoutMs),
    ...(limits.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: lower(settings.maxResponseBytes ?? defaultBytes, limits.maxResponseBytes) }),
  };
}
