// ipv4_range_to_cidr_list (its Kusto documentation page): the fewest CIDR blocks covering an address
// range. From the range's start, each step takes the largest block that is aligned at the current
// address (its trailing zero bits) and ends within the range; a 32-bit range needs at most 62 blocks,
// so a list_reduce over 64 steps, its state [current, start1, bits1, start2, bits2, ...], always
// finishes. Null when either address is no IPv4 text or the start is after the end. DuckDB only (the
// fold's list accumulator has no Timestream form here).
import { address } from './functions-v3-ipv4';
import type { ScalarFunction, SqlBuilder } from './types';

const STEPS = 64;

const dotted = (v: string): string =>
  [16777216, 65536, 256, 1].map((div) => `CAST((${v} // ${div}) % 256 AS VARCHAR)`).join(` || '.' || `);

const cidrList: SqlBuilder = (c) => {
  const start = address(c, 0);
  const end = address(c, 1);
  // Trailing zero bits of the current address (32 for 0); the largest block that still fits the range.
  const aligned = `CASE WHEN st[1] = 0 THEN 32 ELSE CAST(round(log2(st[1] & -st[1])) AS BIGINT) END`;
  const fits = `CAST(floor(log2(ce[2] - st[1] + 1)) AS BIGINT)`;
  const step = `list_transform([least(${aligned}, ${fits})], k -> list_concat([st[1] + (1::BIGINT << k)], st[2:], [st[1], k]))[1]`;
  // The steps are BIGINT[] because list_reduce wants its accumulator of the elements' type.
  const fold = `list_reduce(list_transform(range(${STEPS}), i -> [0::BIGINT]), (st, i) -> CASE WHEN st[1] > ce[2] THEN st ELSE ${step} END, [ce[1]])`;
  const blocks = `list_transform(range(1, (len(cr) - 1) // 2 + 1), j -> ${dotted('cr[2 * j]')} || '/' || CAST(32 - cr[2 * j + 1] AS VARCHAR))`;
  const body = `CASE WHEN ce[1] > ce[2] THEN NULL ELSE list_transform([${fold}], cr -> to_json(${blocks}))[1] END`;
  return `CASE WHEN ${start.valid} AND ${end.valid} THEN list_transform([[${start.value}, ${end.value}]], ce -> ${body})[1] END`;
};

export const IPV4_CIDR_V7_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'ipv4_range_to_cidr_list',
    family: 'string',
    summary:
      'The fewest IPv4 CIDR blocks covering the range from StartAddress to EndAddress, as a dynamic array (DuckDB only).',
    signatures: [
      {
        params: [
          { name: 'StartAddress', type: 'string' },
          { name: 'EndAddress', type: 'string' },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: cidrList,
    timestream: null,
  },
];
