// Tokens of the KQL subset. Keywords are identifiers: KQL keywords are contextual and case-sensitive,
// so the parser decides what an identifier means where it stands.

/** Half-open character range [start, end) in the query text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export type TokenKind =
  | 'ident' // names and keywords, including hyphenated operator names such as project-away
  | 'bracketName' // ['name with spaces'] or ["name"]
  | 'string'
  | 'long'
  | 'real'
  | 'timespan'
  | 'typedLiteral' // datetime(...), time(...), timespan(...), dynamic(...), guid(...): raw text inside
  | 'op' // punctuation and symbolic or negated operators: == != =~ !~ !has in~ ...
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The source text of the token. */
  readonly text: string;
  readonly span: Span;
  /** Decoded value: string contents, long digits, real number, timespan ticks, or typed-literal raw text. */
  readonly value?: string | number | bigint;
  /** For typedLiteral: the type keyword (datetime, timespan, dynamic, guid). */
  readonly typeName?: string;
}

/** Hyphenated operator names the lexer reads as one identifier (the unsupported ones get a clear error). */
export const HYPHENATED_KEYWORDS: ReadonlySet<string> = new Set([
  'project-away',
  'project-rename',
  'project-keep',
  'project-reorder',
  'project-smart',
  'mv-expand',
  'mv-apply',
  'make-series',
  'parse-where',
  'parse-kv',
  'top-nested',
  'top-hitters',
  'find-in',
  'sample-distinct',
  'macro-expand',
  'make-graph',
  'graph-match',
  'graph-to-table',
  'graph-shortest-paths',
  'graph-mark-components',
]);

/** Words that can follow `!` to form a negated string or set operator. */
export const NEGATABLE: ReadonlySet<string> = new Set([
  'has',
  'has_cs',
  'contains',
  'contains_cs',
  'startswith',
  'startswith_cs',
  'endswith',
  'endswith_cs',
  'in',
  'between',
  'hasprefix',
  'hassuffix',
  'hasprefix_cs',
  'hassuffix_cs',
  'has_any',
  'has_all',
  'matches',
]);

/** Kusto's bool words (Kusto.Language's lexer reads all six as bool literals). */
const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/** The value of a bool word (`true`, `True`, `TRUE`, ...), or undefined for any other token. */
export function boolWord(t: Token): boolean | undefined {
  return t.kind === 'ident' ? BOOL_WORDS.get(t.text) : undefined;
}
