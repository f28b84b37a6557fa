// Queries built to sit exactly at a limit of lib/query/limits.ts (or at any size, for the benchmark's
// curves): shared by the limit tests, the DuckDB check of the SQL at every limit, and
// bench/query-limits.bench.ts.
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../../../lib/query/index';

const ONE_ROW = 'range r from 1 to 1 step 1';

/** Scalar expressions `depth` levels deep, each a different way of nesting. */
export const DEPTH_SHAPES: Readonly<Record<string, (depth: number) => string>> = {
  // a + b + c is 2 deep: n + 1 operands make n levels.
  'a + b chain': (n) =>
    `${ONE_ROW} | extend x = ${Array(n + 1)
      .fill('r')
      .join(' + ')}`,
  'unary minus': (n) => `${ONE_ROW} | extend x = ${'-'.repeat(n)}r`,
  'nested calls': (n) => `${ONE_ROW} | extend x = ${'abs('.repeat(n)}r${')'.repeat(n)}`,
  'nested iff': (n) => `${ONE_ROW} | extend x = ${'iff(true, r, '.repeat(n)}r${')'.repeat(n)}`,
  'tolong(todouble())': (n) => `${ONE_ROW} | extend x = ${'tolong(todouble('.repeat(n / 2)}r${'))'.repeat(n / 2)}`,
  '.member access': (n) => `${ONE_ROW} | extend x = dynamic({"a": 1})${'.a'.repeat(n)}`,
  // The deepest SQL per level found (about 2.2 SQL levels per KQL level).
  'startofday(t, 1)': (n) =>
    `${ONE_ROW} | extend x = ${'startofday('.repeat(n)}datetime(2024-01-01)${', 1)'.repeat(n)}`,
  'substring(s, 1)': (n) => `${ONE_ROW} | extend x = ${'substring('.repeat(n)}"kusto"${', 1)'.repeat(n)}`,
};

/** `n` tabular operators stacked on one source. */
export const stackedOperators = (n: number): string => `${ONE_ROW}${' | extend r = r + 1'.repeat(n)}`;

/** One expression of exactly `terms` terms: `r in (...)` is 2 + its values. */
export const inListTerms = (terms: number): string =>
  `${ONE_ROW} | where r in (${Array.from({ length: terms - 2 }, (_, i) => String(i)).join(', ')})`;

/** An `or` chain of `k` comparisons: 4k - 1 terms as written. */
export const orChain = (k: number): string =>
  `${ONE_ROW} | where ${Array.from({ length: k }, (_, i) => `r == ${i}`).join(' or ')}`;

/**
 * `items` extend columns, each the costliest expression found to plan at `depth`: startofday()
 * nested on a constant (DuckDB folds constants level by level, and each level is 2 deep in SQL).
 */
export const costlyItems = (items: number, depth: number): string =>
  `${ONE_ROW} | extend ${Array.from({ length: items }, (_, i) => `x${i} = ${'startofday('.repeat(depth)}datetime(2024-01-01)${', 1)'.repeat(depth)}`).join(', ')}`;

/** An expression whose SQL grows by repetition: tostring(parse_json(...)) nested `levels` times. */
export const repeatingSql = (levels: number): string =>
  `${ONE_ROW} | extend x = ${'tostring(parse_json('.repeat(levels)}r${'))'.repeat(levels)}`;

/** `n` let statements. */
export const lets = (n: number): string =>
  `${Array.from({ length: n }, (_, i) => `let v${i} = ${i};`).join(' ')} print x = 1`;

/** A query naming a column with a name of `length` characters. */
export const nameOfLength = (length: number): string => `print ['${'n'.repeat(length)}'] = 1`;

/** A query of exactly `length` characters (a comment pads it). */
export function queryOfLength(length: number): string {
  const head = 'print x = 1 //';
  return head + 'c'.repeat(Math.max(0, length - head.length));
}

/** Every limit's query at exactly the limit, for limits `l` (the DuckDB check runs each). */
export function queriesAtLimits(l: QueryLimits = DEFAULT_QUERY_LIMITS): Record<string, string> {
  const depth = Object.fromEntries(
    Object.entries(DEPTH_SHAPES).map(([name, build]) => [`depth ${l.maxDepth}: ${name}`, build(l.maxDepth)]),
  );
  return {
    ...depth,
    [`${l.maxDepth} stacked operators`]: stackedOperators(l.maxDepth),
    [`${l.maxTerms} terms: in list`]: inListTerms(l.maxTerms),
    [`${l.maxTerms} terms: or chain`]: orChain(Math.floor((l.maxTerms + 1) / 4)),
    [`${l.maxStatements} lets`]: lets(l.maxStatements),
    [`name of ${l.maxNameLength} characters`]: nameOfLength(l.maxNameLength),
    [`query of ${l.maxQueryLength} characters`]: queryOfLength(l.maxQueryLength),
  };
}
