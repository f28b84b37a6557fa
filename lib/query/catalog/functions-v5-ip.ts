// ipv4_is_in_any_range (ipv4-is-in-any-range-function docs): the address against ranges given as
// several strings or as one dynamic array of them. Each range is tested as ipv4_is_in_range does
// (functions-v3-ipv4.ts): true when any range holds the address, else null when the address or a
// range is no IPv4 text, else false. DuckDB only (the array form needs list lambdas).
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
  if (c.args[1]!.type !== 'dynamic') return `(${c.a.slice(1).map((r) => inRange(c, r)).join(' OR ')})`;
  const tests = `list_transform(CAST(${c.a[1]} AS JSON[]), e -> ${inRange(c, `json_extract_string(e, '$')`)})`;
  return (
    `CASE WHEN json_type(${c.a[1]}) <> 'ARRAY' THEN NULL ELSE list_transform([${tests}], t -> ` +
    `CASE WHEN list_bool_or(t) THEN TRUE WHEN list_bool_or(list_transform(t, v -> v IS NULL)) THEN NULL ELSE FALSE END)[1] END`
  );
}

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
];
