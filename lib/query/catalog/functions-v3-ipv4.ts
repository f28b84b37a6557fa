// The IPv4 functions (parse_ipv4, parse_ipv4_mask, ipv4_compare, ipv4_is_match, ipv4_is_in_range,
// ipv4_is_private, format_ipv4, format_ipv4_mask; Kusto docs of each). An address is text
// `a.b.c.d[/prefix]` (each part 0-255, prefix 0-32) or, where the docs allow, a long. Text that is no
// address gives null (format_* give ""). Both engines compute in BIGINT from split_part of the text.
import type { SqlCall } from './types';
import type { ScalarFunction } from './types';

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const ADDRESS = `^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}(/(3[0-2]|[12]?[0-9]))?$`;

interface Address {
  /** A bool: the argument is an address. */
  readonly valid: string;
  /** The 32-bit value as BIGINT (before any prefix). */
  readonly value: string;
  /** The prefix written after `/`, else 32. */
  readonly prefix: string;
}

/** Argument i as an address (text, or a long where `longs`). */
export function address(c: SqlCall, i: number): Address {
  const type = c.args[i]!.type;
  // A dynamic value is read as its text (format_ipv4 of a parsed JSON field holding "10.0.0.1").
  const x = type === 'dynamic' ? c.str(i) : c.a[i]!;
  if (type === 'long' || type === 'int' || type === 'real' || type === 'decimal')
    return { valid: `(${x} BETWEEN 0 AND 4294967295)`, value: `CAST(${x} AS BIGINT)`, prefix: '32' };
  // A datetime, timespan, bool or guid is no address (format_ipv4 takes any value): not
  // valid, written without the value (a datetime BETWEEN numbers was a DuckDB Binder Error).
  if (type !== 'string' && type !== 'dynamic') return { valid: 'FALSE', value: 'CAST(NULL AS BIGINT)', prefix: '32' };
  const t = `trim(${x})`;
  const valid =
    c.d.name === 'duckdb'
      ? `coalesce(regexp_full_match(${t}, ${c.d.string(ADDRESS)}), FALSE)`
      : `coalesce(regexp_like(${t}, ${c.d.string(ADDRESS)}), FALSE)`;
  const part = (k: number): string => `CAST(split_part(split_part(${t}, '/', 1), '.', ${k}) AS BIGINT)`;
  return {
    valid,
    value: `(${part(1)} * 16777216 + ${part(2)} * 65536 + ${part(3)} * 256 + ${part(4)})`,
    prefix: `(CASE WHEN strpos(${t}, '/') > 0 THEN CAST(split_part(${t}, '/', 2) AS BIGINT) ELSE 32 END)`,
  };
}

/** The value with the bits past the prefix cleared. */
const masked = (value: string, prefix: string): string => `(${network(value, prefix)} * ${hostSize(prefix)})`;

/**
 * The value's network number (the value shifted right past the prefix). Each operand is written
 * once: the address texts are long, and DuckDB's bind time grows with every copy (20 ipv4_compare
 * calls, which wrote each address 8 times, took 3.1 s to prepare).
 */
const network = (value: string, prefix: string): string => `CAST(floor(${value} / ${hostSize(prefix)}) AS BIGINT)`;
const hostSize = (prefix: string): string => `CAST(power(2, 32 - ${prefix}) AS BIGINT)`;

/** A prefix argument (i) bounded to 0-32, null when absent. */
const prefixArg = (c: SqlCall, i: number): string | undefined =>
  c.a[i] === undefined ? undefined : `least(greatest(${c.a[i]}, 0), 32)`;

const when = (valid: string, value: string): string => `CASE WHEN ${valid} THEN ${value} END`;

/** format_ipv4*: a valid address and a prefix argument, if any, within 0-32 (the page's mask -1 gives ""). */
const formattable = (c: SqlCall, x: Address): string =>
  c.a[1] === undefined ? x.valid : `(${x.valid} AND ${c.a[1]} BETWEEN 0 AND 32)`;

function dotted(value: string): string {
  const octet = (div: number): string => `CAST(CAST(floor(${value} / ${div}) AS BIGINT) % 256 AS VARCHAR)`;
  return `${octet(16777216)} || '.' || ${octet(65536)} || '.' || ${octet(256)} || '.' || ${octet(1)}`;
}

/** -1, 0 or 1 comparing two addresses on the shortest of their prefixes and the optional third argument. */
function compare(c: SqlCall): string {
  const l = address(c, 0);
  const r = address(c, 1);
  const extra = prefixArg(c, 2);
  const p = `least(${l.prefix}, ${r.prefix}${extra ? `, ${extra}` : ''})`;
  return when(`${l.valid} AND ${r.valid}`, `sign(${network(l.value, p)} - ${network(r.value, p)})`);
}

const ip = (name: string, type: 'string' | 'scalar' | 'any' = 'string') => ({ name, type });
const prefix = { name: 'prefix', type: 'integer' as const, optional: true };
const same = (b: (c: SqlCall) => string) => ({ duckdb: b, timestream: b });

const PRIVATE: readonly (readonly [number, number])[] = [
  [167772160, 184549375], // 10.0.0.0/8
  [2886729728, 2887778303], // 172.16.0.0/12
  [3232235520, 3232301055], // 192.168.0.0/16
];

export const IPV4_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'parse_ipv4',
    family: 'string',
    summary: 'The IPv4 address (with an optional /prefix, which clears the host bits) as a long; null for other text.',
    signatures: [{ params: [ip('ip')], result: 'long' }],
    ...same((c) => {
      const x = address(c, 0);
      return when(x.valid, masked(x.value, x.prefix));
    }),
  },
  {
    name: 'parse_ipv4_mask',
    family: 'string',
    summary: 'The IPv4 address with the bits past prefix cleared, as a long.',
    signatures: [{ params: [ip('ip'), { name: 'prefix', type: 'integer' }], result: 'long' }],
    ...same((c) => {
      const x = address(c, 0);
      return when(x.valid, masked(x.value, `least(${x.prefix}, ${prefixArg(c, 1)})`));
    }),
  },
  {
    name: 'ipv4_compare',
    family: 'string',
    summary: '-1, 0 or 1 comparing two IPv4 addresses on their shortest prefix (or the one given).',
    // long, as Kusto.Language declares it (the page prints no type).
    signatures: [{ params: [ip('ip1'), ip('ip2'), prefix], result: 'long' }],
    ...same((c) => `CAST(${compare(c)} AS BIGINT)`),
  },
  {
    name: 'ipv4_is_match',
    family: 'string',
    summary: 'Whether two IPv4 addresses are equal on their shortest prefix (or the one given).',
    signatures: [{ params: [ip('ip1'), ip('ip2'), prefix], result: 'bool' }],
    ...same((c) => `(${compare(c)} = 0)`),
  },
  {
    name: 'ipv4_is_in_range',
    family: 'string',
    summary: 'Whether the IPv4 address is in the range written as an address with a /prefix.',
    signatures: [{ params: [ip('ip'), ip('range')], result: 'bool' }],
    ...same((c) => {
      const x = address(c, 0);
      const r = address(c, 1);
      return when(`${x.valid} AND ${r.valid}`, `${network(x.value, r.prefix)} = ${network(r.value, r.prefix)}`);
    }),
  },
  {
    name: 'ipv4_is_private',
    family: 'string',
    summary: 'Whether the IPv4 address is in a private range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16).',
    signatures: [{ params: [ip('ip')], result: 'bool' }],
    ...same((c) => {
      const x = address(c, 0);
      const v = masked(x.value, x.prefix);
      return when(x.valid, `(${PRIVATE.map(([lo, hi]) => `${v} BETWEEN ${lo} AND ${hi}`).join(' OR ')})`);
    }),
  },
  {
    name: 'format_ipv4',
    family: 'string',
    summary:
      'The IPv4 address (text, a dynamic value as its text, or long) as a.b.c.d, the bits past prefix cleared; "" for anything else.',
    signatures: [{ params: [ip('ip', 'any'), prefix], result: 'string' }],
    ...same((c) => {
      const x = address(c, 0);
      const p = prefixArg(c, 1);
      return `coalesce(${when(formattable(c, x), dotted(masked(x.value, p ? `least(${x.prefix}, ${p})` : x.prefix)))}, '')`;
    }),
  },
  {
    name: 'format_ipv4_mask',
    family: 'string',
    summary:
      'The IPv4 address (text, a dynamic value as its text, or long) as a.b.c.d/prefix (default 32), the bits past prefix cleared; "" for anything else.',
    signatures: [{ params: [ip('ip', 'any'), prefix], result: 'string' }],
    ...same((c) => {
      const x = address(c, 0);
      const p = prefixArg(c, 1);
      const effective = p ? `least(${x.prefix}, ${p})` : x.prefix;
      return `coalesce(${when(formattable(c, x), `${dotted(masked(x.value, effective))} || '/' || CAST(${effective} AS VARCHAR)`)}, '')`;
    }),
  },
];
