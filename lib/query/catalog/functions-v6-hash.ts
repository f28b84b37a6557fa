// hash(source [, mod]) and hash_xxhash64 (their Kusto documentation pages): XXH64 with seed 0, as a
// signed long. Which bytes Kusto hashes was found by matching every number the pages print: a
// string's UTF-8 bytes (hash("World") = 1846988464401551951), a datetime's 8 little-endian bytes of
// its ticks since 0001-01-01 (hash(datetime(2015-01-01)) = 1380966698541616202). For other types
// the pages print nothing to check against, so they are refused rather than guessed.
//
// DuckDB has no XXH64, so it is written here in SQL: 64-bit wrapping arithmetic in UHUGEINT (a
// product of two 64-bit values fits in 128 bits; `& 2^64-1` wraps it). The loops are list_reduce
// folds over the input's 32-byte stripes, 8-byte lanes, 4-byte word and last bytes, read from hex()
// big-endian and byte-swapped with shifts (UHUGEINT %, and regexp_replace, cost microseconds a call).
// Timestream has no 128-bit or wrapping 64-bit integers: refused there.
import type { IrExpr } from '../ir';
import { bindOnce } from '../sql/bind-once';
import type { ArgumentCheck, ScalarFunction, SqlBuilder, SqlCall } from './types';

const U = (n: bigint): string => `CAST(${n} AS UHUGEINT)`;
const MASK = (1n << 64n) - 1n;
const PRIMES = [
  0x9e3779b185ebca87n,
  0xc2b2ae3d27d4eb4fn,
  0x165667b19e3779f9n,
  0x85ebca77c2b2ae63n,
  0x27d4eb2f165667c5n,
];
/**
 * The primes and the mask are used about 190 times in one hash: written once, in a struct bound to
 * the lambda parameter xk around the whole expression (withConstants), and read as xk.p1 ... xk.m,
 * which keeps one call's SQL near 3 KB instead of 10 KB (the query's SQL size is limited).
 */
const [P1, P2, P3, P4, P5] = ['xk.p1', 'xk.p2', 'xk.p3', 'xk.p4', 'xk.p5'] as const;
const M = 'xk.m';
const withConstants = (body: string): string =>
  `list_transform([{${PRIMES.map((p, i) => `'p${i + 1}': ${U(p)}`).join(', ')}, 'm': ${U(MASK)}}], xk -> ${body})[1]`;

// SQL's bit operators (&, |, <<, >>) share one precedence level: every use is parenthesized.
const wrap = (x: string): string => `((${x}) & ${M})`;
const mul = (a: string, b: string): string => wrap(`${a} * ${b}`);
const add = (a: string, b: string): string => wrap(`${a} + ${b}`);
const xor = (a: string, b: string): string => `xor(${a}, ${b})`;
/**
 * x (below 2^64) rotated left by r bits. x is written twice: recomputing a few multiplications is
 * cheaper than binding x to a lambda parameter, and far cheaper than one UHUGEINT % (about 9 µs).
 */
const rotl = (x: string, r: number): string =>
  `((((${x}) * ${(1n << BigInt(r)).toString()}::UHUGEINT) & ${M}) | ((${x}) >> ${64 - r}))`;

const round = (acc: string, lane: string): string => mul(rotl(add(acc, mul(lane, P2)), 31), P1);
/** round(0, lane): the product needs no masked addition of zero. */
const round0 = (lane: string): string => mul(rotl(mul(lane, P2), 31), P1);
const mergeRound = (h: string, v: string): string => add(mul(xor(h, round0(v)), P1), P4);
const laneStep = (h: string, lane: string): string => add(mul(rotl(xor(h, round0(lane)), 27), P1), P4);
const wordStep = (h: string, word: string): string => add(mul(rotl(xor(h, mul(word, P1)), 23), P2), P3);
const byteStep = (h: string, b: string): string => mul(rotl(xor(h, mul(b, P5)), 11), P1);

/**
 * The final mix, then the value as a signed long. `h` must be a lambda parameter: the three
 * xor-shifts name their input twice each, so it appears 8 times in the text, each a plain reference.
 */
function avalanche(h: string): string {
  const xorShift = (x: string, r: number): string => `xor(${x}, ${x} >> ${r})`;
  const mixed = xorShift(mul(xorShift(mul(xorShift(h, 33), P2), 29), P3), 32);
  // Two's complement without naming the value twice: shift by 2^63 modulo 2^64, then back.
  return `CAST(CAST(${add(mixed, U(1n << 63n))} AS HUGEINT) - ${1n << 63n} AS BIGINT)`;
}

/** value bound to a lambda parameter for body (DuckDB). */
const bindIn = (value: string, name: string, body: string): string =>
  `list_transform([${value}], ${name} -> ${body})[1]`;

/** The big-endian value of `bytes` bytes at byte offset `at` of the hex text xh_hex (one substring). */
const bigEndian = (at: string, bytes: number): string =>
  `CAST('0x' || substr(xh_hex, 2 * (${at}) + 1, ${2 * bytes}) AS UBIGINT)`;

/** x (a lambda parameter, UBIGINT) with its `bytes` low bytes in reverse order, as UHUGEINT: the little-endian read. */
function byteSwap(x: string, bytes: number): string {
  const parts = Array.from({ length: bytes }, (_, k) => `(((${x} >> ${8 * k}) & 255) << ${8 * (bytes - 1 - k)})`);
  return `CAST(${parts.join(' | ')} AS UHUGEINT)`;
}

/**
 * XXH64 (seed 0) of the bytes whose hex text is the lambda parameter xh_hex, as a signed long. The
 * 8-byte lanes are read once into a list (xh_l) that the 32-byte stripes and the tail share.
 */
function xxh64OfHex(): string {
  const n = `(len(xh_hex) // 2)`;
  // One regex pass splits the hex text into its whole 16-digit lanes: a substr per lane would scan
  // the text from its start each time (DuckDB's substr counts characters), O(n^2) on one value.
  const laneHex = `regexp_extract_all(xh_hex, '[0-9A-F]{16}')`;
  const allLanes = `list_transform(list_transform(${laneHex}, xh_i -> CAST('0x' || xh_i AS UBIGINT)), xh_x -> ${byteSwap('xh_x', 8)})`;
  // The four accumulators never mix before the merge: four folds of one UHUGEINT each over every
  // fourth lane (list_slice with a step) cost a quarter of one fold of a four-field struct, whose
  // steps DuckDB builds and reads field by field.
  const starts = [add(P1, P2), P2, U(0n), U(((1n << 64n) - 0x9e3779b185ebca87n) & MASK)];
  const accumulator = (k: number): string =>
    `list_reduce(list_prepend(${starts[k - 1]!}, list_slice(xh_l, ${k}, ${n} // 32 * 4, 4)), (xh_a, xh_t) -> ${round('xh_a', 'xh_t')})`;
  const fold = `{${[1, 2, 3, 4].map((k) => `'v${k}': ${accumulator(k)}`).join(', ')}}`;
  const sum = add(add(rotl('xh_v.v1', 1), rotl('xh_v.v2', 7)), add(rotl('xh_v.v3', 12), rotl('xh_v.v4', 18)));
  const merged = ['v1', 'v2', 'v3', 'v4'].reduce((h, v) => mergeRound(h, `xh_v.${v}`), sum);
  const h0 = add(`CASE WHEN ${n} >= 32 THEN ${bindIn(fold, 'xh_v', merged)} ELSE ${P5} END`, `CAST(${n} AS UHUGEINT)`);
  // The 8-byte lanes after the stripes, then one 4-byte word, then single bytes.
  const tail = `list_slice(xh_l, ${n} // 32 * 4 + 1, ${n} // 8)`;
  const h1 = `list_reduce(list_prepend(${h0}, ${tail}), (xh_h, xh_k) -> ${laneStep('xh_h', 'xh_k')})`;
  const wordAt = `(${n} // 8 * 8)`;
  const word = `list_transform([${bigEndian(wordAt, 4)}], xh_x -> ${byteSwap('xh_x', 4)})[1]`;
  const h2 = `CASE WHEN ${n} % 8 >= 4 THEN ${wordStep('xh_w', word)} ELSE xh_w END`;
  const bytesFrom = `(${wordAt} + CASE WHEN ${n} % 8 >= 4 THEN 4 ELSE 0 END)`;
  const bytes = `list_transform(range(${bytesFrom}, ${n}), xh_j -> CAST(${bigEndian('xh_j', 1)} AS UHUGEINT))`;
  const h3 = `list_reduce(list_prepend(${bindIn(h1, 'xh_w', h2)}, ${bytes}), (xh_h, xh_b) -> ${byteStep('xh_h', 'xh_b')})`;
  return bindIn(allLanes, 'xh_l', bindIn(h3, 'xh_f', avalanche('xh_f')));
}

/** XXH64 of a datetime's 8 bytes of ticks: a single lane, so no loops. */
function xxh64OfTicks(ts: string, c: SqlCall): string {
  const ticks = `(CAST(${c.d.epochMicros(ts)} AS HUGEINT) + 62135596800000000) * 10`;
  const h = laneStep(add(P5, U(8n)), `CAST(${ticks} AS UHUGEINT)`);
  return bindIn(h, 'xh_f', avalanche('xh_f'));
}

const hashOf: SqlBuilder = (c) => {
  const value =
    c.args[0]!.type === 'datetime'
      ? xxh64OfTicks(c.a[0]!, c)
      : bindIn(`hex(encode(${c.a[0]}))`, 'xh_hex', xxh64OfHex());
  const h = `CASE WHEN ${c.a[0]} IS NULL THEN NULL ELSE ${withConstants(value)} END`;
  if (c.a.length < 2) return h;
  // Kusto's % (never negative), so a negative hash still lands in 0 .. mod - 1 as the page says; the
  // mod is added only to a negative remainder, so a mod near long.max cannot overflow the sum.
  const m = c.a[1]!;
  const mod = bindOnce(h, (v) => `CASE WHEN ${v} % ${m} < 0 THEN ${v} % ${m} + ${m} ELSE ${v} % ${m} END`);
  return `CASE WHEN ${m} > 0 THEN ${mod} END`;
};

const hashable: ArgumentCheck = (args: readonly IrExpr[]) => {
  const t = args[0]!.type;
  return t === 'string' || t === 'datetime'
    ? undefined
    : [0, `hashing a ${t} is not supported: Kusto's bytes for it are not documented (strings and datetimes are)`];
};

const entry = (name: string): ScalarFunction => ({
  name,
  family: 'string',
  summary:
    "XXH64 (seed 0) of a string's UTF-8 bytes or a datetime's ticks, as a long; with mod, that hash % mod (0 .. mod - 1). Other types are refused.",
  signatures: [
    {
      params: [
        { name: 'source', type: 'scalar' },
        { name: 'mod', type: 'integer', optional: true },
      ],
      result: 'long',
    },
  ],
  check: hashable,
  duckdb: hashOf,
  timestream: null,
});

export const HASH_V6_FUNCTIONS: readonly ScalarFunction[] = [entry('hash'), entry('hash_xxhash64')];
