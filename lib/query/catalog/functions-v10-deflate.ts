// zlib_compress_to_base64_string and gzip_compress_to_base64_string (their Kusto documentation
// pages). Both pages print streams of stored (uncompressed) deflate blocks: the zlib page's
// "eAEBFADr/zEy..." is 78 01, one final stored block of 20 bytes and the Adler-32; the gzip page's
// "H4sIAAAAAAAA/wEU..." is a header with no time, no extra flags and OS 255, the same block, the
// CRC-32 and the length. No engine here has a deflate function, and stored blocks need none: the
// stream is built as hexadecimal text (header, one stored block, checksum) and encoded. A value
// above 65,535 bytes (one block's most) fails the query at run time: the pages show single blocks
// only and do not say where Kusto splits larger input, and the per-byte work on one value cannot be
// interrupted (a 3 MB text kept DuckDB busy ~88 s after the time limit). The check is a CASE before
// the work, so a refused value costs nothing. The decompressing functions stay refused
// (functions-v6-refused.ts): reading any deflate stream needs Huffman decoding. Timestream: refused
// (it has list folding, reduce(), but not this build: hex text of the bytes, unhex and the CRC's
// bitwise steps were written for DuckDB only).
// Cost (by hand, load 10): 100 rows of 10 KB took 3.1 s (zlib) and 2.4 s (gzip), about 3 µs a
// byte; gzip's CRC is a fold DuckDB runs byte by byte (~29 s a MB).
import type { ScalarFunction, SqlCall } from './types';

/** Bytes of one stored block at most (LEN is 16 bits), and so of a text here. */
const MAX_BLOCK = 65535;
/** Adler-32's modulus. */
const ADLER_BASE = 65521;

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of each byte value, as gzip's trailer uses. */
const CRC_TABLE: readonly number[] = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** A 16-bit value as two little-endian bytes of hexadecimal text. */
const le16 = (v: string): string => `printf('%02X%02X', (${v}) % 256, (${v}) // 256)`;
/** A 32-bit value as four little-endian bytes of hexadecimal text (the value bound once: it may be the CRC's fold). */
const le32 = (v: string): string =>
  `list_transform([${v}], _w -> printf('%02X%02X%02X%02X', _w % 256, (_w // 256) % 256, (_w // 65536) % 256, _w // 16777216))[1]`;

/** The hexadecimal text of the bytes and their count, as SQL. */
interface Bytes {
  readonly hex: string;
  readonly n: string;
}

/**
 * The one final stored block of the bytes (at most MAX_BLOCK of them: stream() refuses more), an
 * empty one for no bytes, as zlib writes it: BFINAL 1, LEN, NLEN, the bytes.
 */
const storedBlock = ({ hex, n }: Bytes): string => `'01' || ${le16(n)} || ${le16(`65535 - ${n}`)} || ${hex}`;

/**
 * The byte values, as BIGINTs. The pairs of digits come from one pass over the text (a substr per
 * byte counts from the text's start each time: quadratic).
 */
const values = ({ hex }: Bytes): string =>
  `list_transform(regexp_extract_all(${hex}, '..'), x -> CAST('0x' || x AS BIGINT))`;

/** Adler-32: A = 1 + the bytes' sum, B = the sum of every prefix's A = n + Σ (n - k + 1) d[k] (1-based k), both mod 65521. */
function adler32(b: Bytes): string {
  const weighted = `list_sum(list_transform(${values(b)}, (d, k) -> CAST(d AS HUGEINT) * (${b.n} - k + 1)))`;
  const a = `(1 + coalesce(list_sum(${values(b)}), 0)) % ${ADLER_BASE}`;
  return `CAST(((${b.n} + coalesce(${weighted}, 0)) % ${ADLER_BASE}) * 65536 + ${a} AS BIGINT)`;
}

/**
 * CRC-32, folded byte by byte through the table (xor is DuckDB's bitwise exclusive or). The table
 * is bound to a lambda parameter: written inside the fold, it was built again for every byte (5x
 * slower).
 */
const crc32 = (b: Bytes): string =>
  `list_transform([[${CRC_TABLE.join(', ')}]], _t -> xor(list_reduce(list_prepend(4294967295, ${values(b)}), (c, d) -> xor(_t[xor(c, d) % 256 + 1], c >> 8)), 4294967295))[1]`;

/**
 * base64 of the stream body(bytes) builds from the text's UTF-8 bytes (bound once: _z.h, _z.n), or a
 * run-time error (a 400 QUERY_DATA_ERROR) for more than MAX_BLOCK bytes, tested before any per-byte work.
 */
function stream(name: string, c: SqlCall, body: (b: Bytes) => string): string {
  const bytes = { hex: '_z.h', n: '_z.n' };
  const bound = `{'h': hex(encode(${c.str(0)})), 'n': CAST(octet_length(encode(${c.str(0)})) AS BIGINT)}`;
  const refused = `error('${name}(): the text has more than ${MAX_BLOCK} bytes, the most written here (one stored block; the documentation does not say how Kusto splits larger input)')`;
  return `CASE WHEN octet_length(encode(${c.str(0)})) > ${MAX_BLOCK} THEN ${refused} ELSE list_transform([${bound}], _z -> to_base64(unhex(${body(bytes)})))[1] END`;
}

const zlib = (c: SqlCall): string =>
  stream('zlib_compress_to_base64_string', c, (b) => `'7801' || ${storedBlock(b)} || printf('%08X', ${adler32(b)})`);

const gzip = (c: SqlCall): string =>
  stream(
    'gzip_compress_to_base64_string',
    c,
    (b) => `'1F8B08000000000000FF' || ${storedBlock(b)} || ${le32(crc32(b))} || ${le32(`${b.n} % 4294967296`)}`,
  );

const params = [{ name: 'string', type: 'string' as const }];

export const DEFLATE_V10_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'zlib_compress_to_base64_string',
    family: 'string',
    summary:
      "The text's UTF-8 bytes as a zlib stream of stored (uncompressed) deflate blocks, as the page prints, in base64.",
    signatures: [{ params, result: 'string' }],
    duckdb: zlib,
    timestream: null,
  },
  {
    name: 'gzip_compress_to_base64_string',
    family: 'string',
    summary:
      "The text's UTF-8 bytes as a gzip stream of stored (uncompressed) deflate blocks, as the page prints, in base64.",
    signatures: [{ params, result: 'string' }],
    duckdb: gzip,
    timestream: null,
  },
];
