// The time window of a query, in the request fields the query API takes (`startTime`, `endTime`:
// ISO 8601 UTC with milliseconds; docs/query-api.md). Presets end now; a custom window is read
// from two datetime-local inputs, which hold UTC here (the page says so in their labels).

export type WindowPreset = '1h' | '24h' | '7d' | 'custom';

const PRESET_MS: Readonly<Record<Exclude<WindowPreset, 'custom'>, number>> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
};

export interface TimeWindow {
  readonly startTime: string;
  readonly endTime: string;
}

/** The value of a datetime-local input for an instant, in UTC, to the second. */
export function localInputValue(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

function parseUtcInput(value: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? Date.parse(`${value}Z`) : Number.NaN;
}

/**
 * The window for a preset (ending at `now`) or the custom inputs.
 * @throws Error with a message for people when a custom bound is missing or the end is not after the start.
 */
export function timeWindow(preset: WindowPreset, custom: { start: string; end: string }, now = Date.now()): TimeWindow {
  if (preset !== 'custom') {
    return { startTime: new Date(now - PRESET_MS[preset]).toISOString(), endTime: new Date(now).toISOString() };
  }
  const start = parseUtcInput(custom.start);
  const end = parseUtcInput(custom.end);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new Error('enter both ends of the custom window (UTC)');
  if (end <= start) throw new Error('the end of the custom window must be after its start');
  return { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() };
}
