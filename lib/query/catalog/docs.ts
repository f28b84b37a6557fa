// Renders docs/kql-functions.md from the catalog (npm run docs:kql writes it; a unit test fails when
// the committed page differs from what the catalog gives).
import { describeParams } from './resolve';
import { AGGREGATE_CATALOG, OPERATOR_CATALOG, SCALAR_CATALOG } from './index';
import type { Family, ScalarFunction, Signature } from './types';

/** Functions and aggregations the analyzer handles itself (type-dependent forms, constant folding); also the playground schema's list (lib/playground/schema.ts). */
export const CORE_SCALARS =
  'iff/iif, case, coalesce, isnull, isnotnull, isempty, isnotempty, not, strcat, strlen, ' +
  'substring (a negative start counts from the end; a start still before the text is 0, the length kept), tolower, toupper, round, abs, ' +
  'bin/floor, bin_auto (after set query_bin_auto_size), now, ago, current_principal, current_database, tostring, todouble/toreal, toint, tolong, tobool/toboolean, todatetime, parse_json/todynamic/toobject, totimespan/totime (constant text), ' +
  'series_stats (alone in extend or project: seven columns series_stats_x_min ... _variance; DuckDB only), ' +
  'series_fit_line (the same: six columns series_fit_line_x_rsquare ... _line_fit; DuckDB only)';
export const CORE_AGGREGATES =
  'count, countif, sum, sumif, avg, avgif, min, max, dcount, percentile, percentiles, arg_max, arg_min (with *; the deprecated argmax, argmin name their columns max_x, max_x_y), ' +
  'make_list, make_set (both with maxSize; make_set of arrays gathers their elements; the deprecated makelist, makeset keep 128 by default), stdev, take_any/any';

const FAMILY_TITLES: Readonly<Record<Family, string>> = {
  datetime: 'Date and time',
  string: 'Strings',
  math: 'Math',
  array: 'Arrays and property bags',
  type: 'Types',
  aggregation: 'Aggregations',
  series: 'Series (dynamic numeric arrays, as make-series makes them)',
  geo: 'Geospatial (S2 formulas on a sphere; GeoJSON lines and polygons; geohash, S2 and H3 cells)',
};

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function signature(name: string, sig: Signature): string {
  const result = typeof sig.result === 'function' ? 'depends on the arguments' : sig.result;
  return `\`${name}(${describeParams(sig)})\` → ${result}`;
}

function table(entries: readonly ScalarFunction[]): string[] {
  const lines = ['| Function | Signatures | DuckDB | Timestream | What it does |', '|---|---|---|---|---|'];
  for (const e of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    const names = [e.name, ...(e.aliases ?? [])].map((n) => `\`${n}\``).join(', ');
    const sigs = e.signatures.map((s) => signature(e.name, s)).join('<br>');
    lines.push(`| ${names} | ${cell(sigs)} | yes | ${e.timestream ? 'yes' : 'no (400)'} | ${cell(e.summary)} |`);
  }
  return lines;
}

export function renderFunctionDocs(): string {
  const out = [
    '# KQL functions',
    '',
    '<!-- Generated from lib/query/catalog by `npm run docs:kql`; do not edit by hand. -->',
    '',
    'Functions and aggregations the query API supports, with their Kusto signatures and the engines that run them.',
    'A function marked "no (400)" for Timestream is refused there with `QUERY_UNSUPPORTED`, naming the function and the engine.',
    'A "yes" for Timestream is written, never run here: no Timestream engine runs locally, so its SQL is checked as text by unit tests (test/unit/query/catalog-timestream.test.ts) and the results are checked on DuckDB only.',
    'Datetimes and timespans are computed in microseconds: a constant finer than that (`1tick`, a 7th fractional digit) is refused at its position, a value computed at run time is rounded down to the microsecond (docs/query-api.md, "Precision of datetimes and timespans").',
    '',
    '## Core functions (both engines)',
    '',
    `Scalar: ${CORE_SCALARS}.`,
    '',
    `Aggregations: ${CORE_AGGREGATES}.`,
  ];
  const families: Family[] = ['datetime', 'string', 'math', 'array', 'type', 'series', 'geo'];
  for (const f of families) {
    out.push('', `## ${FAMILY_TITLES[f]}`, '', ...table(SCALAR_CATALOG.filter((e) => e.family === f)));
  }
  out.push(
    '',
    '## String operators',
    '',
    'Written between operands (`Name hasprefix "temp"`), negated with `!`; the right side is a constant.',
    '',
    ...table(OPERATOR_CATALOG),
  );
  out.push(
    '',
    `## ${FAMILY_TITLES.aggregation}`,
    '',
    'Used in `summarize`; the default column name is given per function.',
    '',
    "Sketches: Kusto's `hll()` and `tdigest()` give estimates; here they are exact, so `dcount_hll`, `percentile_tdigest`, " +
      "`percentiles_array_tdigest` and `rank_tdigest` answer within Kusto's documented error. An hll sketch is the dynamic array " +
      'of the distinct values; a tdigest sketch is `{"type": T, "values": [...]}`, every non-null value in ascending order ' +
      '(datetimes and timespans as microseconds). Their size grows with the distinct values or rows of a group and is bounded ' +
      'by the result-size and engine memory limits, as `make_list` is. A percentile is the nearest rank, as `percentile()` gives.',
    '',
  );
  out.push(
    '| Aggregation | Signatures | Default name | DuckDB | Timestream | What it does |',
    '|---|---|---|---|---|---|',
  );
  for (const e of [...AGGREGATE_CATALOG].sort((a, b) => a.name.localeCompare(b.name))) {
    const sigs = e.signatures.map((s) => signature(e.name, s)).join('<br>');
    out.push(
      `| \`${e.name}\` | ${cell(sigs)} | \`${e.defaultName('x', 'y')}\` | yes | ${e.timestream ? 'yes' : 'no (400)'} | ${cell(e.summary)} |`,
    );
  }
  return out.join('\n') + '\n';
}
