// A regex's successive matches in a text as Kusto reports them (countof's "regex" kind, extract_all,
// indexof_regex): leftmost-first and without overlap, as its regex page's engine finds them, and an
// empty match too unless it sits where the previous match ended. So `countof("ab", @"\b", "regex")`
// is 2 (the boundaries before `a` and after `b`), `countof("abc", "x*", "regex")` 4,
// `extract_all(@"(a*)", "baaa")` is ["", "aaa"], and replace_regex replaces the same matches
// (`replace_regex("abc", "x*", "-")` is `-a-b-c-`: RE2's global replace skips those empty matches too).
//
// The engines' regexp_extract_all loops differ from that only for a regex that can match the empty
// string: after an empty match both step one character, and both report an empty match where a
// match ended; DuckDB's also reports an empty match found past its search start twice (the next
// search starts at that match and finds it again: "ab" with `\b` gave 3). For such a regex each
// search is made to match at its own start by a lazy prefix, `(?s:.*?)(?:regex)`, so that a whole
// match (prefix and match) is empty exactly where the engine then steps one character: the matches
// kept are the first one and every one not empty after a non-empty one.
import type { ListSql } from './catalog/positions';
import { canMatchEmpty, engineRegex } from './regex-groups';
import type { DialectName } from './sql/dialect';

/** The regex (in the engine's spelling) as searched for successive matches: each search matches at its start. */
export function searchedFromStart(regex: string): string {
  return `(?s:.*?)(?:${regex})`;
}

/** The 0-based indexes of the matches kept, given `whole`, the list of whole matches of searchedFromStart's regex. */
export function keptMatches(l: ListSql, whole: string): string {
  return l.positions(
    '0',
    `${l.size(whole)} - 1`,
    (n) => `CASE WHEN ${n} = 1 THEN TRUE ELSE ${l.at(whole, n)} <> '' OR ${l.at(whole, `${n} - 1`)} = '' END`,
  );
}

/**
 * countof(text, regex, "regex") on `l`'s engine: the number of matches of the constant `kustoRegex`
 * in the SQL `text`; `quote` writes the engine's string literal.
 */
export function regexMatchCount(
  l: ListSql,
  engine: DialectName,
  text: string,
  kustoRegex: string,
  quote: (s: string) => string,
): string {
  const regex = engineRegex(kustoRegex, engine);
  if (!canMatchEmpty(kustoRegex)) return `CAST(${l.size(`regexp_extract_all(${text}, ${quote(regex)})`)} AS BIGINT)`;
  const whole = `regexp_extract_all(${text}, ${quote(searchedFromStart(regex))})`;
  return `CAST(${l.bind(whole, (w) => l.size(keptMatches(l, w)))} AS BIGINT)`;
}
