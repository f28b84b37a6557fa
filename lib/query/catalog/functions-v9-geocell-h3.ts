// The H3 functions that are bit work on the cell index (the geo_h3cell_level, geo_h3cell_parent
// and geo_h3cell_children pages). An H3 cell index is 64 bits: a zero bit, the mode (4 bits, 1 for
// a cell), 3 reserved zero bits, the resolution (4 bits), the base cell (7 bits, 0 to 121), then
// 15 digits of 3 bits, each 0 to 6 down to the resolution and 7 below it; in one of the 12
// pentagon base cells the first digit that is not 0 is never 1 (that child does not exist). The
// token is the index in lower-case hex. The functions that place cells on H3's icosahedron
// (geo_point_to_h3cell, the center and the polygon) are in functions-v9-geoh3*.ts; neighbors, rings
// and polygon coverings are refused: functions-v6-refused.ts.
// Invalid input gives what the pages print: null (level, children) or '' (parent). DuckDB only.
import { bindAs } from './functions-v9-geocell-common';
import type { ScalarFunction, SqlBuilder } from './types';

const PENTAGON_BASE_CELLS = '[4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117]';
/** The pages' limit on the levels between a cell and its children (7^5 = 16,807 of them). */
const MAX_CHILD_LEVELS = 5;

/** Digit r (1 to 15) of the index x (a plain reference). */
const digit = (x: string, r: string): string => `CAST((${x} >> (3 * (15 - ${r}))) & 7 AS BIGINT)`;

/**
 * The cell of an H3 token as {id (UBIGINT), res, base, pent (all digits 0 in a pentagon base
 * cell)}, null when the text is not 1 to 16 hex digits of a valid cell index. `token` is named
 * several times.
 */
export function h3Cell(token: string): string {
  const fields = `{'id': hx, 'res': CAST((hx >> 52) & 15 AS BIGINT), 'base': CAST((hx >> 45) & 127 AS BIGINT), 'head': CAST(hx >> 56 AS BIGINT)}`;
  const digits = `list_transform(range(1, 16), hr -> ${digit('hf.id', 'hr')})`;
  const firstNonZero = `list_filter(hd[1:hf.res], hz -> hz <> 0)[1]`;
  const pentagon = `list_contains(${PENTAGON_BASE_CELLS}, hf.base)`;
  const validDigits = `len(list_filter(range(1, 16), hr -> CASE WHEN hr <= hf.res THEN hd[hr] = 7 ELSE hd[hr] <> 7 END)) = 0`;
  const valid = `hf.head = 8 AND hf.base < 122 AND ${validDigits} AND NOT (${pentagon} AND coalesce(${firstNonZero} = 1, FALSE))`;
  const cell = `{'id': hf.id, 'res': hf.res, 'base': hf.base, 'pent': ${pentagon} AND ${firstNonZero} IS NULL}`;
  const parsed = bindAs(fields, 'hf', bindAs(digits, 'hd', `CASE WHEN ${valid} THEN ${cell} END`));
  return `CASE WHEN regexp_full_match(${token}, '[0-9a-fA-F]{1,16}') THEN ${bindAs(`CAST('0x' || ${token} AS UBIGINT)`, 'hx', parsed)} END`;
}

/** The index x (UBIGINT, a plain reference) with its resolution field set to r. */
const withRes = (x: string, r: string): string =>
  `((${x} & ~(CAST(15 AS UBIGINT) << 52)) | (CAST(${r} AS UBIGINT) << 52))`;

/** 2^(3·(15 - r)) - 1: the bits of the digits below resolution r, as UBIGINT. */
const digitsBelow = (r: string): string => `((CAST(1 AS UBIGINT) << (3 * (15 - ${r}))) - 1)`;

const token = (x: string): string => `lower(hex(${x}))`;

const level: SqlBuilder = (c) => bindAs(h3Cell(c.a[0]!), 'hc', `CAST(hc.res AS INTEGER)`);

const parent: SqlBuilder = (c) => {
  const res = c.a.length > 1 ? `CAST(${c.a[1]} AS BIGINT)` : 'hc.res - 1';
  // Digits below the parent's resolution become 7: or-ing their bits in sets them all.
  const body = `CASE WHEN hp BETWEEN 0 AND 14 AND hp <= hc.res THEN ${token(`(${withRes('hc.id', 'hp')} | ${digitsBelow('hp')})`)} ELSE '' END`;
  return `coalesce(${bindAs(h3Cell(c.a[0]!), 'hc', bindAs(res, 'hp', body))}, '')`;
};

const children: SqlBuilder = (c) => {
  const res = c.a.length > 1 ? `CAST(${c.a[1]} AS BIGINT)` : 'hc.res + 1';
  const levels = '(hq - hc.res)';
  // Child k's new digits: k in base 7, most significant first.
  const newDigits = `list_transform(range(CAST(pow(7, ${levels}) AS BIGINT)), hk -> list_transform(range(1, ${levels} + 1), hm -> (hk // CAST(pow(7, ${levels} - hm) AS BIGINT)) % 7))`;
  // A pentagon's children whose first non-zero digit is 1 do not exist.
  const kept = `list_filter(${newDigits}, hn -> NOT hc.pent OR coalesce(list_filter(hn, hz -> hz <> 0)[1] <> 1, TRUE))`;
  // The parent with the child's resolution, its digits below the parent's cleared, those below the child's 7.
  const base = `((${withRes('hc.id', 'hq')} & ~${digitsBelow('hc.res')}) | ${digitsBelow('hq')})`;
  const placed = `coalesce(list_sum(list_transform(range(1, len(hn) + 1), hm -> CAST(hn[hm] AS UBIGINT) << (3 * (15 - hc.res - hm)))), 0)`;
  const list = `to_json(list_transform(${kept}, hn -> ${token(`(${base} | CAST(${placed} AS UBIGINT))`)}))`;
  const body = `CASE WHEN hq BETWEEN 1 AND 15 AND hq >= hc.res AND hq - hc.res <= ${MAX_CHILD_LEVELS} THEN ${list} END`;
  return bindAs(h3Cell(c.a[0]!), 'hc', bindAs(res, 'hq', body));
};

export const H3_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_h3cell_level',
    family: 'geo',
    summary: 'The resolution (0 to 15) of an H3 cell token; null for a token that is no valid cell (DuckDB only).',
    signatures: [{ params: [{ name: 'h3cell', type: 'string' }], result: 'int' }],
    duckdb: level,
    timestream: null,
  },
  {
    name: 'geo_h3cell_parent',
    family: 'geo',
    summary:
      "The H3 cell's parent token at resolution (0 to 14, default one level up); '' for an invalid cell or a resolution finer than the cell's (DuckDB only).",
    signatures: [
      {
        params: [
          { name: 'h3cell', type: 'string' },
          { name: 'resolution', type: 'integer', optional: true },
        ],
        result: 'string',
      },
    ],
    duckdb: parent,
    timestream: null,
  },
  {
    name: 'geo_h3cell_children',
    family: 'geo',
    summary:
      "The H3 cell's children tokens at resolution (1 to 15, at most 5 levels down, default one), in index order; null for an invalid cell or resolution (DuckDB only).",
    signatures: [
      {
        params: [
          { name: 'h3cell', type: 'string' },
          { name: 'resolution', type: 'integer', optional: true },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: children,
    timestream: null,
  },
];
