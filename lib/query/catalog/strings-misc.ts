// String comparison, byte size and SHA-1: small string functions kept apart from strings.ts.
import { both, type ScalarFunction } from './types';
import { forcedText } from './sql-helpers';

export const STRING_MISC_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'strcmp',
    family: 'string',
    summary: 'Compares two strings ordinally: -1 when string1 sorts first, 0 when equal, 1 otherwise.',
    signatures: [
      {
        params: [
          // Kusto.Language takes any scalars (s1, s2: Scalar) and compares their text.
          { name: 'string1', type: 'any' },
          { name: 'string2', type: 'any' },
        ],
        // long: Kusto.Language declares strcmp() long (the page says 'an integer value' and prints no type).
        result: 'long',
      },
    ],
    // Ordinal (code point) order, as .NET's string.CompareOrdinal; both engines compare bytes of UTF-8.
    ...both(
      ({ str: text }) =>
        `CAST(CASE WHEN ${text(0)} < ${text(1)} THEN -1 WHEN ${text(0)} > ${text(1)} THEN 1 ELSE 0 END AS BIGINT)`,
    ),
  },
  {
    name: 'string_size',
    family: 'string',
    summary: 'The size of the text in bytes (UTF-8).',
    signatures: [{ params: [{ name: 'source', type: 'string' }], result: 'long' }],
    duckdb: ({ a }) => `CAST(octet_length(encode(${a[0]})) AS BIGINT)`,
    timestream: ({ a }) => `CAST(length(to_utf8(${a[0]})) AS BIGINT)`,
  },
  {
    name: 'hash_sha1',
    family: 'string',
    summary: 'The SHA-1 of the text of value (a datetime with 7 fractional digits), as lowercase hex.',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'string' }],
    duckdb: (c) => `sha1(${forcedText(c)})`,
    timestream: (c) => `lower(to_hex(sha1(to_utf8(${forcedText(c)}))))`,
  },
];
