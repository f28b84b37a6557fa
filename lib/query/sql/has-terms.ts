// has_any / has_all with a tabular right side (has_any operator docs: "Each expression can be a
// scalar value or a tabular expression that produces a set of values ... the first column is used"):
// the terms are known only when the query runs, so the whole-term pattern `has` builds while
// compiling (expressions.ts, termPattern) is built per term in SQL instead, with the term escaped.
// The terms arrive as one array from an uncorrelated subquery, so the test reads no column of the
// sub-query by name (an outer column of the same name cannot be captured).
import type { SqlDialect } from './dialect';

/** The lambda's parameter: a name no generated or schema column takes. */
const TERM = '__kql_term';

/** One array of the sub-query's values: `SELECT <this> FROM ... WHERE v IS NOT NULL`. */
export function termsAggregate(d: SqlDialect, value: string): string {
  return d.name === 'duckdb' ? `list(${value})` : `array_agg(${value})`;
}

/** The value as a regex matching itself: DuckDB has regexp_escape; Trino's regexp is Java's, where a
 * backslash before any character that is not a letter or digit makes it literal. */
function escaped(d: SqlDialect, term: string): string {
  return d.name === 'duckdb' ? `regexp_escape(${term})` : `regexp_replace(${term}, '([^\\p{L}\\p{N}])', '\\\\$1')`;
}

/**
 * `text has_any (T)` / `text has_all (T)`: each term is a whole term of text, case-insensitively,
 * as `has` (the empty term is in every text). No terms: has_any is false, has_all true (every one
 * of none), which is also what Timestream's any_match / all_match give.
 */
export function hasTerms(d: SqlDialect, text: string, terms: string, all: boolean): string {
  const pattern = `'(?i)(^|[^\\p{L}\\p{N}])' || ${escaped(d, TERM)} || '($|[^\\p{L}\\p{N}])'`;
  const test = `(${TERM} = '' OR ${d.regexMatch(text, pattern)})`;
  if (d.name === 'duckdb') {
    const each = `list_transform(${terms}, ${TERM} -> ${test})`;
    return `coalesce(${all ? 'list_bool_and' : 'list_bool_or'}(${each}), ${all ? 'TRUE' : 'FALSE'})`;
  }
  return `coalesce(${all ? 'all_match' : 'any_match'}(${terms}, ${TERM} -> ${test}), ${all ? 'TRUE' : 'FALSE'})`;
}
