// The limits a query's set statements ask for (truncationmaxrecords, truncationmaxsize,
// servertimeout: lib/query/statements-set.ts) applied to the service's settings: each only lowers
// the service's own limit, never raises it (docs/query-api.md, "Set statements").
import type { ResultLimits } from '../query';
import type { QuerySettings } from './service';

/** `defaultBytes`: the byte cap the service applies when its settings name none. */
export function limitedSettings(
  settings: QuerySettings,
  limits: ResultLimits | undefined,
  defaultBytes: number,
): QuerySettings {
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
