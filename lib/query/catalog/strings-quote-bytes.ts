// regex_quote() and format_bytes(): text made from a value, as their pages print it.
// - regex_quote (https://learn.microsoft.com/en-us/kusto/query/regex-quote-function): every character
//   but ASCII letters, digits, `_` and non-ASCII ones gets a backslash, as RE2's QuoteMeta writes it
//   (the page: `(so$me.Te^xt)` is `\(so\$me\.Te\^xt\)`).
// - format_bytes (https://learn.microsoft.com/en-us/kusto/query/format-bytes-function): the size in
//   the largest unit of 1024 it reaches (or the units given), rounded to precision digits and
//   written as tostring() writes a real: 564 Bytes, 10.1 KB, 19 MB, 19.08 MB, 19541 KB.
import { constantOf, type ArgumentCheck, type ScalarFunction, type SqlBuilder } from './types';

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'] as const;

const unitsCheck: ArgumentCheck = (args) => {
  const units = args[2] === undefined ? '' : String(constantOf(args[2]));
  return units === '' || UNITS.some((u) => u.toLowerCase() === units.toLowerCase())
    ? undefined
    : [2, `units must be one of ${UNITS.join(', ')}, or empty`];
};

const formatBytes: SqlBuilder = ({ a, args, d }) => {
  const size = `CAST(${a[0]} AS DOUBLE)`;
  const units = args[2] === undefined ? '' : String(constantOf(args[2])).toLowerCase();
  const fixed = UNITS.findIndex((u) => u.toLowerCase() === units);
  // The unit's power of 1024: the one given, else the largest the size reaches.
  const power =
    fixed >= 0
      ? String(fixed)
      : `CASE ${UNITS.map((_, k) => k)
          .slice(1)
          .reverse()
          .map((k) => `WHEN abs(${size}) >= power(1024, ${k}) THEN ${k}`)
          .join(' ')} ELSE 0 END`;
  const name =
    fixed >= 0
      ? d.string(UNITS[fixed]!)
      : `CASE ${power} ${UNITS.map((u, k) => `WHEN ${k} THEN ${d.string(u)}`).join(' ')} END`;
  const precision = a[1] ?? '0';
  const value = `round(${size} / power(1024, ${power}), CAST(${precision} AS INTEGER))`;
  return `CASE WHEN ${size} IS NULL THEN '' ELSE ${d.realToString(value)} || ' ' || ${name} END`;
};

export const QUOTE_BYTES_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'regex_quote',
    family: 'string',
    summary:
      'The text with a backslash before every character but ASCII letters, digits, _ and non-ASCII ones (RE2 QuoteMeta).',
    // Kusto.Language takes any scalar (string: Scalar): a number is quoted as its text.
    signatures: [{ params: [{ name: 'string', type: 'any' }], result: 'string' }],
    duckdb: ({ str: text }) => `regexp_replace(${text(0)}, '([^A-Za-z0-9_\\x{80}-\\x{10FFFF}])', '\\\\\\1', 'g')`,
    timestream: ({ str: text }) => `regexp_replace(${text(0)}, '([^A-Za-z0-9_\\x{80}-\\x{10FFFF}])', '\\\\$1')`,
  },
  {
    name: 'format_bytes',
    family: 'string',
    summary:
      'A size as text in Bytes, KB, MB ... EB (powers of 1024): the largest unit it reaches or the units given, rounded to precision digits (default 0).',
    signatures: [
      {
        params: [
          { name: 'size', type: 'number' },
          { name: 'precision', type: 'integer', optional: true },
          { name: 'units', type: 'string', optional: true, constant: true },
        ],
        result: 'string',
      },
    ],
    check: unitsCheck,
    duckdb: formatBytes,
    timestream: formatBytes,
  },
];
