// GDM date-times carry a UTC offset and up to 6 fractional digits; stores keep UTC. JavaScript's
// Date keeps only milliseconds, so the conversion works on the text to keep microseconds.

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Converts an ISO 8601 date-time with offset into UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ`
 * (always six fractional digits). Throws RangeError for text that is not such a date-time.
 */
export function toUtcIso(text: string): string {
  const m = ISO.exec(text);
  if (!m) throw new RangeError(`not an ISO 8601 date-time with offset: ${text}`);
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const micros = (frac + '000000').slice(0, 6);
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMinutes * 60_000;
  const whole = new Date(ms).toISOString().slice(0, 19);
  return `${whole}.${micros}Z`;
}
