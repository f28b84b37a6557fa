// The IPv6 functions (parse_ipv6, parse_ipv6_mask, ipv6_compare, ipv6_is_match, ipv6_is_in_range,
// ipv6_is_in_any_range; their docs pages). An address is IPv6 text (with `::` and a trailing dotted
// IPv4 part allowed) or IPv4 text, bare or after `::` (read as ::ffff:a.b.c.d, its /prefix counting
// from bit 96), each with an optional /prefix. Each is parsed once into a struct of its eight 16-bit
// groups and its prefix (null when the text is no address); masks clear the bits past a prefix. The groups are
// handled by position, not by list lambdas: with lambdas, 20 ipv6_compare calls took 3.8 s to
// plan; now at most about 12 calls fit the SQL size limit and plan in 0.4-0.9 s. DuckDB only:
// Timestream has no list lambdas here.
import type { ScalarFunction, SqlCall } from './types';

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = `${OCTET}[.]${OCTET}[.]${OCTET}[.]${OCTET}`;

const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;
const int = (text: string): string => `TRY_CAST(${text} AS INTEGER)`;

/** The two 16-bit groups of an IPv4 text `v`, as [hi, lo]. */
const v4Groups = (v: string): string => {
  const o = (k: number): string => `CAST(split_part(${v}, '.', ${k}) AS INTEGER)`;
  return `[${o(1)} * 256 + ${o(2)}, ${o(3)} * 256 + ${o(4)}]`;
};

/**
 * The groups of IPv6 text `a` (no prefix) as INTEGER[], null when it is not eight valid groups.
 * Written without list lambdas over the groups (DuckDB binds nested lambdas slowly): a dotted tail
 * becomes two hex groups, `::` becomes the missing zero groups, and the eight groups are read by
 * position from the expanded text.
 */
function v6Groups(a: string, c: SqlCall): string {
  const tail = `regexp_extract(${a}, '^(.*:)([^:]*)$', 2)`;
  const head = `regexp_extract(${a}, '^(.*:)([^:]*)$', 1)`;
  const q = v4Groups(tail);
  const text = `lower(CASE WHEN strpos(${a}, '.') = 0 THEN ${a} WHEN regexp_full_match(${tail}, ${c.d.string(IPV4)}) THEN ${head} || hex(${q}[1]) || ':' || hex(${q}[2]) END)`;
  // In w (the text): how many '::' and how many groups are written.
  const doubles = `((length(w) - length(replace(w, '::', ''))) // 2)`;
  const written = `len(regexp_extract_all(w, '[0-9a-f]+'))`;
  const expanded = `replace(w, '::', ':' || repeat('0:', greatest(0, 8 - ${written})))`;
  const trimmedStart = `CASE WHEN starts_with(w, '::') THEN substr(${expanded}, 2) ELSE ${expanded} END`;
  const full = `CASE WHEN ends_with(w, '::') THEN substr(e, 1, length(e) - 1) ELSE e END`;
  const ok = `${doubles} <= 1 AND (${doubles} = 0 OR ${written} <= 7)`;
  const groups = `[${[1, 2, 3, 4, 5, 6, 7, 8].map((k) => int(`'0x' || split_part(f, ':', ${k})`)).join(', ')}]`;
  const read = `CASE WHEN regexp_full_match(f, '([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}') THEN ${groups} END`;
  return bind(
    text,
    'w',
    `CASE WHEN w IS NULL OR NOT (${ok}) THEN NULL ELSE ${bind(trimmedStart, 'e', bind(full, 'f', read))} END`,
  );
}

/** An address text as {g: INTEGER[8], p: INTEGER}, null when it is none. */
function parsed(x: string, c: SqlCall): string {
  const a = `split_part(t, '/', 1)`;
  const given = `CASE WHEN strpos(t, '/') > 0 THEN ${int(`split_part(t, '/', 2)`)} END`;
  // IPv4 text, also written after a leading `::` (the parse_ipv6_mask page: '::192.168.255.255' is
  // ...:ffff:c0a8:ffff and its /24 keeps 120 bits, as for '192.168.255.255/24').
  const v4 = `regexp_full_match(${a}, ${c.d.string(`^(::)?${IPV4}$`)})`;
  const p = `CASE WHEN strpos(t, '/') = 0 THEN 128 WHEN ${v4} THEN CASE WHEN ${given} BETWEEN 0 AND 32 THEN 96 + ${given} END WHEN ${given} BETWEEN 0 AND 128 THEN ${given} END`;
  const g = `CASE WHEN ${v4} THEN list_concat([0, 0, 0, 0, 0, 65535], ${v4Groups(`ltrim(${a}, ':')`)}) ELSE ${v6Groups(a, c)} END`;
  return bind(
    `trim(${x})`,
    't',
    bind(`{'g': ${g}, 'p': ${p}}`, 's', `CASE WHEN s.g IS NULL OR s.p IS NULL THEN NULL ELSE s END`),
  );
}

/** The groups `g` with the bits past prefix `p` cleared (eight terms, no lambda). */
const masked = (g: string, p: string): string => {
  const unit = (k: number): string => `CAST(power(2, 16 - least(16, greatest(0, ${p} - ${16 * (k - 1)}))) AS INTEGER)`;
  return `[${[1, 2, 3, 4, 5, 6, 7, 8].map((k) => `(${g}[${k}] // ${unit(k)}) * ${unit(k)}`).join(', ')}]`;
};

const prefixArg = (c: SqlCall, i: number): string | undefined =>
  c.a[i] === undefined ? undefined : `least(greatest(CAST(${c.a[i]} AS INTEGER), 0), 128)`;

/** -1, 0 or 1 comparing a and b on the shortest of their prefixes and the optional third argument. */
function compare(c: SqlCall): string {
  const extra = prefixArg(c, 2);
  const p = `least(q.a.p, q.b.p${extra ? `, ${extra}` : ''})`;
  const body = `CASE WHEN q.a IS NULL OR q.b IS NULL THEN NULL ELSE ${bind(`{'x': ${masked('q.a.g', p)}, 'y': ${masked('q.b.g', p)}}`, 'm', 'CASE WHEN m.x < m.y THEN -1 WHEN m.x > m.y THEN 1 ELSE 0 END')} END`;
  return bind(`{'a': ${parsed(c.a[0]!, c)}, 'b': ${parsed(c.a[1]!, c)}}`, 'q', body);
}

/** The address text canonical: eight groups of four lower-case hex digits, masked; "" for no address. */
function format(c: SqlCall): string {
  const extra = prefixArg(c, 1);
  const p = extra ? `least(s.p, ${extra})` : 's.p';
  const text = `array_to_string(list_transform(${masked('s.g', p)}, v -> lpad(lower(hex(v)), 4, '0')), ':')`;
  return `coalesce(${bind(parsed(c.a[0]!, c), 's', `CASE WHEN s IS NULL THEN NULL ELSE ${text} END`)}, '')`;
}

/** Whether ip is in range (both parsed): equal on the range's prefix. */
const inRange = (ip: string, range: string): string =>
  `CASE WHEN ${ip} IS NULL OR ${range} IS NULL THEN NULL ELSE ${masked(`${ip}.g`, `${range}.p`)} = ${masked(`${range}.g`, `${range}.p`)} END`;

function inAnyRange(c: SqlCall): string {
  const ranges =
    c.args[1]!.type === 'dynamic'
      ? `list_transform(CAST(${c.a[1]} AS JSON[]), e -> ${parsed(`json_extract_string(e, '$')`, c)})`
      : `[${c.a
          .slice(1)
          .map((r) => parsed(r, c))
          .join(', ')}]`;
  const tests = `list_transform(rs, r -> ${inRange('ip', 'r')})`;
  const any = `${bind(tests, 'ts', 'CASE WHEN list_bool_or(ts) THEN TRUE WHEN list_bool_or(list_transform(ts, v -> v IS NULL)) THEN NULL ELSE FALSE END')}`;
  const notArray = c.args[1]!.type === 'dynamic' ? `json_type(${c.a[1]}) <> 'ARRAY'` : 'FALSE';
  return `CASE WHEN ${notArray} THEN NULL ELSE ${bind(parsed(c.a[0]!, c), 'ip', bind(ranges, 'rs', any))} END`;
}

const ip = (name: string) => ({ name, type: 'string' as const });
const prefix = { name: 'prefix', type: 'integer' as const, optional: true };

export const IPV6_V5_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'parse_ipv6',
    family: 'string',
    summary:
      'The IPv6 or IPv4 address (with an optional /prefix, which clears the bits past it) as eight groups of four hex digits; "" for other text.',
    signatures: [{ params: [ip('ip')], result: 'string' }],
    duckdb: format,
    timestream: null,
  },
  {
    name: 'parse_ipv6_mask',
    family: 'string',
    summary:
      'The IPv6 or IPv4 address with the bits past prefix (0-128) cleared, as eight groups of four hex digits; "" for other text.',
    signatures: [{ params: [ip('ip'), { name: 'prefix', type: 'integer' }], result: 'string' }],
    duckdb: format,
    timestream: null,
  },
  {
    name: 'ipv6_compare',
    family: 'string',
    summary:
      '-1, 0 or 1 comparing two IPv6 or IPv4 addresses on their shortest prefix (or the one given, 0-128); null when one is no address.',
    // long, as Kusto.Language declares it (the page prints no type).
    signatures: [{ params: [ip('ip1'), ip('ip2'), prefix], result: 'long' }],
    duckdb: (c) => `CAST(${compare(c)} AS BIGINT)`,
    timestream: null,
  },
  {
    name: 'ipv6_is_match',
    family: 'string',
    summary:
      'Whether two IPv6 or IPv4 addresses are equal on their shortest prefix (or the one given, 0-128); null when one is no address.',
    signatures: [{ params: [ip('ip1'), ip('ip2'), prefix], result: 'bool' }],
    duckdb: (c) => `(${compare(c)} = 0)`,
    timestream: null,
  },
  {
    name: 'ipv6_is_in_range',
    family: 'string',
    summary: 'Whether the IPv6 or IPv4 address is in the range written with a /prefix; null when either is no address.',
    signatures: [{ params: [ip('ip'), ip('range')], result: 'bool' }],
    duckdb: (c) => bind(`{'ip': ${parsed(c.a[0]!, c)}, 'r': ${parsed(c.a[1]!, c)}}`, 'q', inRange('q.ip', 'q.r')),
    timestream: null,
  },
  {
    name: 'ipv6_is_in_any_range',
    family: 'string',
    summary:
      'Whether the IPv6 or IPv4 address is in any of the ranges (several strings or one dynamic array); null when none holds it and one is no address.',
    signatures: [
      { params: [ip('ip'), { name: 'ranges', type: 'dynamic' }], result: 'bool' },
      { params: [ip('ip'), ip('range')], variadic: true, result: 'bool' },
    ],
    duckdb: inAnyRange,
    timestream: null,
  },
];
