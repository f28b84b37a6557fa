// Engine values -> response values per KQL type (the formats of the query API response).
import { describe, expect, it } from 'vitest';
import { convertRows, convertValue } from '../../../lib/query/index';
import { formatDatetimeTicks } from '../../../lib/query/literals';

describe('convertValue', () => {
  it('writes datetimes as ISO 8601 UTC with Z and up to 7 fractional digits', () => {
    expect(convertValue('2024-03-01 10:00:00', 'datetime')).toBe('2024-03-01T10:00:00Z');
    expect(convertValue('2024-03-01 10:00:00.123456', 'datetime')).toBe('2024-03-01T10:00:00.123456Z');
    expect(convertValue('2018-04-30 12:25:11.077806700', 'datetime')).toBe('2018-04-30T12:25:11.0778067Z'); // Timestream nanoseconds
    expect(convertValue('2017-01-01 23:59:59.9999999', 'datetime')).toBe('2017-01-01T23:59:59.9999999Z'); // DuckDB TIMESTAMP_NS
    expect(convertValue('2020-01-01 00:00:00.000000099', 'datetime')).toBe('2020-01-01T00:00:00Z'); // under a tick: cut
    expect(convertValue(new Date('2024-03-01T10:00:00.500Z'), 'datetime')).toBe('2024-03-01T10:00:00.5Z');
    expect(convertValue('0001-01-01 00:00:00', 'datetime')).toBe('0001-01-01T00:00:00Z');
  });

  it('writes any engine timestamp text as the ticks it stands for would be written', () => {
    // Prepare: DuckDB and Timestream spellings of random instants of Kusto's range, 0-9 fraction digits.
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 3_000; i++) {
      const ms = -62_135_596_800_000 + Math.floor(next() * 315_537_897_599_999);
      const iso = new Date(ms).toISOString();
      const digits = Math.floor(next() * 10);
      const fraction = Array.from({ length: digits }, () => Math.floor(next() * 10)).join('');
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${digits > 0 ? '.' + fraction : ''}`;
      const ticks = BigInt(Math.floor(ms / 1000) * 1000) * 10_000n + BigInt((fraction + '0000000').slice(0, 7));
      // Act / Assess
      expect(convertValue(text, 'datetime'), text).toBe(formatDatetimeTicks(ticks));
    }
  });

  it('writes timespans (BIGINT microseconds) as [-][d.]hh:mm:ss[.fffffff]', () => {
    expect(convertValue('90061001001', 'timespan')).toBe('1.01:01:01.0010010');
    expect(convertValue(3_600_000_000, 'timespan')).toBe('01:00:00');
    expect(convertValue(-86_401_000_000n, 'timespan')).toBe('-1.00:00:01');
  });

  it('writes NaN and infinities as strings and long as a number only when safe', () => {
    expect([
      convertValue('NaN', 'real'),
      convertValue('Infinity', 'real'),
      convertValue(-Infinity, 'real'),
      convertValue(1.5, 'real'),
    ]).toEqual(['NaN', 'Infinity', '-Infinity', 1.5]);
    expect(convertValue('42', 'long')).toBe(42);
    expect(convertValue('9223372036854775807', 'long')).toBe('9223372036854775807');
  });

  it('parses dynamic JSON text into the JSON value and keeps strings never null', () => {
    expect(convertValue('{"a":[1,"x"]}', 'dynamic')).toEqual({ a: [1, 'x'] });
    expect(convertValue('null', 'dynamic')).toBeNull();
    expect(convertValue(null, 'dynamic')).toBeNull();
    expect(convertValue(null, 'string')).toBe('');
  });

  it('gives a decimal held as a double as its 15-digit value when within a few units in the last place', () => {
    // decimal(0.1) + decimal(0.2) and decimal(1.1) * 3 came back as 0.30000000000000004 and 3.3000000000000003.
    expect(convertValue(0.1 + 0.2, 'decimal')).toBe(0.3);
    expect(convertValue(String(1.1 * 3), 'decimal')).toBe(3.3);
    expect(convertValue(-(0.1 + 0.7), 'decimal')).toBe(-0.8);
    // Sixteen digits held exactly, a third and zero are kept; the real type is not rounded.
    expect(convertValue(1234567890123456, 'decimal')).toBe(1234567890123456);
    expect(convertValue(1.0000000200000003e24, 'decimal')).toBe(1.0000000200000003e24);
    expect(convertValue(1 / 3, 'decimal')).toBe(1 / 3);
    expect(convertValue(0, 'decimal')).toBe(0);
    expect(convertValue(0.1 + 0.2, 'real')).toBe(0.30000000000000004);
  });

  it('gives an integer beyond 2^53 inside a dynamic value as its digits, as a long column does', () => {
    // JSON.parse rounded 9007199254740993 to 9007199254740992.
    expect(convertValue('{"a":9007199254740993,"b":[-9223372036854775808,1.5]}', 'dynamic')).toEqual({
      a: '9007199254740993',
      b: ['-9223372036854775808', 1.5],
    });
    expect(convertValue('[9007199254740991,"12345678901234567890",1e20]', 'dynamic')).toEqual([
      9007199254740991,
      '12345678901234567890',
      1e20,
    ]);
  });

  it('gives a bare NaN or infinity of the engine\'s JSON (parse_json("[NaN, 1]")) as the string a real NaN is in a dynamic', () => {
    // The whole value came back as its text, "[NaN,1]"; strings holding the words stay as they are.
    expect(convertValue('[NaN,1,-Infinity]', 'dynamic')).toEqual(['NaN', 1, '-Infinity']);
    expect(convertValue('{"NaN":"x Infinity","a":Infinity}', 'dynamic')).toEqual({ NaN: 'x Infinity', a: 'Infinity' });
    expect(convertValue('NaN', 'dynamic')).toBe('NaN');
    expect(convertValue('[1, 2', 'dynamic')).toBe('[1, 2');
  });

  // https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/datetime : 0001-01-01 .. 9999-12-31.
  it('gives null, never an error, for an engine timestamp Kusto has no datetime for', () => {
    expect(convertValue('10000-01-02 23:59:59', 'datetime')).toBeNull(); // DuckDB past year 9999
    expect(convertValue('0000-12-31 00:00:00', 'datetime')).toBeNull(); // year 0
    expect(convertValue('0044-03-15 00:00:00 (BC)', 'datetime')).toBeNull();
    expect(convertValue('infinity', 'datetime')).toBeNull();
    expect(convertValue('-infinity', 'datetime')).toBeNull();
    expect(convertValue(new Date(Number.NaN), 'datetime')).toBeNull();
    expect(convertValue(new Date(8.64e15), 'datetime')).toBeNull();
    expect(convertValue('9999-12-31 23:59:59.999999', 'datetime')).toBe('9999-12-31T23:59:59.999999Z');
  });

  it('gives null, never an error, for text that is no number where a long or a timespan belongs', () => {
    expect(convertValue('abc', 'long')).toBeNull();
    expect(convertValue('12.7', 'long')).toBe(12);
    expect(convertValue(Number.NaN, 'long')).toBeNull();
    expect(convertValue('x', 'timespan')).toBeNull();
    expect(convertValue('1000000.5', 'timespan')).toBe('00:00:01');
  });

  it('converts whole rows by column type', () => {
    expect(convertRows([['3', true, '"a"']], ['long', 'bool', 'dynamic'])).toEqual([[3, true, 'a']]);
  });
});
