// ipv4_is_in_any_range (ipv4-is-in-any-range-function docs): the address against ranges given as
// several strings or as one dynamic array of them. Each range is tested as ipv4_is_in_range does
// (functions-v3-ipv4.ts): true when any range holds the address, else null when the address or a
// range is no IPv4 text, else false. DuckDB only (the array form needs list lambdas).
// Also has_ipv4, has_ipv4_prefix, has_any_ipv4 and has_any_ipv4_prefix (their docs pages): the valid
// IPv4 addresses of a text, each delimited by characters that are not letters or digits, searched
// for an address or a prefix ending with a dot (`192.168.`). DuckDB only.
import { address } from './functions-v3-ipv4';
import type { IrExpr } from '../ir';
import type { ScalarFunction, SqlCall } from './types';

/** ipv4_is_in_range(c.a[0], range) as SQL: null when either is no address. */
function inRange(c: SqlCall, range: string): string {
  const text: IrExpr = { kind: 'lit', type: 'string', value: null };
  const pair: SqlCall = { ...c, a: [c.a[0]!, range], args: [c.args[0]!, text] };
  const x = address(pair, 0);
  const r = address(pair, 1);
  const network = (value: string): string => `floor(${value} / power(2, 32 - ${r.prefix}))`;
  return `CASE WHEN ${x.valid} AND ${r.valid} THEN ${network(x.value)} = ${network(r.value)} END`;
}

function inAnyRange(c: SqlCall): string {
  if (c.args[1]!.type !== 'dynamic')
    return `(${c.a
      .slice(1)
      .map((r) => inRange(c, r))
      .join(' OR ')})`;
  const tests = `list_transform(CAST(${c.a[1]} AS JSON[]), e -> ${inRange(c, `json_extract_string(e, '$')`)})`;
  return (
    `CASE WHEN json_type(${c.a[1]}) <> 'ARRAY' THEN NULL ELSE list_transform([${tests}], t -> ` +
    `CASE WHEN list_bool_or(t) THEN TRUE WHEN list_bool_or(list_transform(t, v -> v IS NULL)) THEN NULL ELSE FALSE END)[1] END`
  );
}

/** An octet 0-255 without leading zeros, as functions-v3-ipv4.ts reads them. */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const FULL = `^${OCTET}(\\.${OCTET}){3}$`;
const PREFIX = `^(${OCTET}\\.){1,3}$`;

/**
 * The valid addresses of the text as a VARCHAR[]. Each delimiter but the dot is doubled first, so
 * that one between two addresses can close the first match and open the next.
 */
function addressesIn(c: SqlCall): string {
  const doubled = `regexp_replace(${c.str(0)}, '([^0-9A-Za-z.])', '\\1\\1', 'g')`;
  const found = `regexp_extract_all(${doubled}, '(^|[^0-9A-Za-z])([0-9]+[.][0-9]+[.][0-9]+[.][0-9]+)([^0-9A-Za-z]|$)', 2)`;
  return `list_filter(${found}, x -> regexp_full_match(x, ${c.d.string(FULL)}))`;
}

/** Whether the addresses `found` hold the address (or, with prefixes, the prefix) `p`. */
function holds(found: string, p: string, prefixes: boolean, c: SqlCall): string {
  const exact = `WHEN regexp_full_match(${p}, ${c.d.string(FULL)}) THEN list_contains(${found}, ${p})`;
  const prefix = prefixes
    ? ` WHEN regexp_full_match(${p}, ${c.d.string(PREFIX)}) THEN coalesce(list_bool_or(list_transform(${found}, x -> starts_with(x, ${p}))), FALSE)`
    : '';
  return `CASE ${exact}${prefix} ELSE FALSE END`;
}

/** has_ipv4 and its siblings: false for null text or a lookup that is no valid address (or prefix). */
function hasAddress(prefixes: boolean): (c: SqlCall) => string {
  return (c) => {
    const lookups =
      c.args[1]!.type === 'dynamic'
        ? `list_transform(CAST(CASE WHEN json_type(${c.a[1]}) = 'ARRAY' THEN ${c.a[1]} ELSE JSON '[]' END AS JSON[]), e -> json_extract_string(e, '$'))`
        : `[${c.a.slice(1).join(', ')}]`;
    const any = `coalesce(list_bool_or(list_transform(${lookups}, p -> ${holds('found', 'p', prefixes, c)})), FALSE)`;
    return `list_transform([${addressesIn(c)}], found -> ${any})[1]`;
  };
}

const text = { name: 'text', type: 'string' as const };
const hasForms = (one: string) => [
  { params: [text, { name: `${one}s`, type: 'dynamic' as const }], result: 'bool' as const },
  { params: [text, { name: one, type: 'string' as const }], variadic: true, result: 'bool' as const },
];

export const IP_V5_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'ipv4_is_in_any_range',
    family: 'string',
    summary:
      'Whether the IPv4 address is in any of the ranges (several strings or one dynamic array of them); null when the address or a range is no IPv4 text and none holds it.',
    signatures: [
      {
        params: [
          { name: 'ip', type: 'string' },
          { name: 'ranges', type: 'dynamic' },
        ],
        result: 'bool',
      },
      {
        params: [
          { name: 'ip', type: 'string' },
          { name: 'range', type: 'string' },
        ],
        variadic: true,
        result: 'bool',
      },
    ],
    duckdb: inAnyRange,
    timestream: null,
  },
  {
    name: 'has_ipv4',
    family: 'string',
    summary:
      'Whether the valid IPv4 address appears in the text, delimited by characters that are not letters or digits.',
    signatures: [{ params: [text, { name: 'ip', type: 'string' }], result: 'bool' }],
    duckdb: hasAddress(false),
    timestream: null,
  },
  {
    name: 'has_ipv4_prefix',
    family: 'string',
    summary:
      'Whether a valid IPv4 address of the text is the given one or starts with the given prefix (1 to 3 octets, each followed by a dot).',
    signatures: [{ params: [text, { name: 'prefix', type: 'string' }], result: 'bool' }],
    duckdb: hasAddress(true),
    timestream: null,
  },
  {
    name: 'has_any_ipv4',
    family: 'string',
    summary:
      'Whether any of the IPv4 addresses (several strings or one dynamic array) appears in the text, as has_ipv4 finds them.',
    signatures: hasForms('ip'),
    duckdb: hasAddress(false),
    timestream: null,
  },
  {
    name: 'has_any_ipv4_prefix',
    family: 'string',
    summary:
      'Whether any of the IPv4 addresses or prefixes (several strings or one dynamic array) appears in the text, as has_ipv4_prefix finds them.',
    signatures: hasForms('prefix'),
    duckdb: hasAddress(true),
    timestream: null,
  },
];
