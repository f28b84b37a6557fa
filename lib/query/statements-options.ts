// Request properties sent beside the query rather than in it: the Kusto REST body's
// `properties.Options` (what the SDKs' ClientRequestProperties.setOption sends, as JSON values:
// `"servertimeout": "00:04:00"`, `"truncationmaxrecords": 100`, `"notruncation": true`). Each known
// property becomes a set statement whose value is a literal of the property's type, built from the
// JSON value the way statements-declare.ts reads a parameter's text, never spliced into the query
// text. compile() applies them before the query text's own set statements (CompileOptions.requestProperties),
// so the same property table and rules hold: a limit only lowers the service's, the lowest limit
// wins, and the query text's query_now / query_bin_auto_* win over the request's.
import type { Expr, LiteralKind, LiteralValue, SetStatement } from './ast';
import { parseExpressionText } from './parser';
import { valueOfText } from './statements-declare';
import { literalOf, propertiesOf, REQUEST_PROPERTIES, TYPE_WORDS, type ValueType } from './statements-set';

/**
 * Options the Kusto request takes itself (the time window: lib/kusto/request.ts), so they are not
 * statements; as set statements they are refused.
 */
const TAKEN_BY_THE_REQUEST: ReadonlySet<string> = new Set([
  'query_datetimescope_column',
  'query_datetimescope_from',
  'query_datetimescope_to',
]);

/** Where an option is in no query text: errors name the option instead (`fail`). */
const NOWHERE = { start: 0, end: 0 };

/** Reports a bad option by name and throws (`unsupported`: a refused property rather than a bad value). */
export type OptionFailure = (name: string, message: string, unsupported: boolean) => never;

type Literal = { readonly type: LiteralKind; readonly value: LiteralValue };

const NUMERIC_OR_TIME: ReadonlySet<LiteralKind> = new Set(['long', 'int', 'real', 'decimal', 'timespan', 'datetime']);

/** A JSON integer (a long), or undefined. */
function integer(value: unknown): Literal | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? { type: 'long', value: BigInt(value) } : undefined;
}

/** A text read as a literal of the type (`"100"`, `"00:04:00"`, `"datetime(2021-01-01)"`), or undefined. */
function textAs(value: unknown, type: LiteralKind): Literal | undefined {
  if (typeof value !== 'string') return undefined;
  const read = valueOfText(value, type);
  return read === undefined || read === null ? undefined : { type, value: read };
}

/** query_bin_auto_size/_at: a number, or the text of a number, timespan or datetime. */
function binAutoLiteral(value: unknown): Literal | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return integer(value) ?? { type: 'real', value };
  if (typeof value !== 'string') return undefined;
  const expr = parseExpressionText(value);
  const lit = expr === undefined ? undefined : literalOf(expr);
  if (lit !== undefined && lit.value !== null && NUMERIC_OR_TIME.has(lit.type)) return lit;
  return textAs(value, 'timespan') ?? textAs(value, 'datetime');
}

/** The JSON value as a literal of the property's type, or undefined when it is none. */
function literalOfJson(value: unknown, type: ValueType): Literal | undefined {
  switch (type) {
    case 'bool':
      if (typeof value === 'boolean') return { type: 'bool', value };
      return typeof value === 'string' && /^(true|false)$/i.test(value.trim())
        ? { type: 'bool', value: value.trim().toLowerCase() === 'true' }
        : undefined;
    case 'long':
    case 'int':
      return integer(value) ?? textAs(value, 'long');
    case 'boolOrInt':
      return typeof value === 'boolean' ? { type: 'bool', value } : (integer(value) ?? textAs(value, 'long'));
    case 'datetime':
    case 'timespan':
      return textAs(value, type);
    case 'string':
      return typeof value === 'string' ? { type: 'string', value } : undefined;
    case 'literal':
      return binAutoLiteral(value);
  }
}

const HOW_SENT: Readonly<Partial<Record<ValueType, string>>> = {
  long: ' (a JSON integer or its text)',
  int: ' (a JSON integer or its text)',
  datetime: ' (text such as 2026-01-31T00:00:00Z)',
  timespan: ' (text such as 00:04:00 or 4m)',
  literal: ' (a JSON number, or text such as 1h or 2026-01-31T00:00:00Z)',
};

/**
 * The request's options as set statements of literals, in the options' order: names the property
 * table does not know (client-side options such as the SDKs' own) and null values are left out, as
 * are the datetime-scope options (the caller's time window). The statements are checked here with
 * the set statements' rules, so compile() finds nothing wrong with them.
 * @throws through `fail`: a value that is no literal of the property's type, a value the property's
 * rules refuse (a negative count, a servertimeout of 0), or a refused property (unsupported).
 */
export function requestPropertyStatements(
  options: Readonly<Record<string, unknown>>,
  fail: OptionFailure,
): readonly SetStatement[] {
  const statements: SetStatement[] = [];
  for (const [name, value] of Object.entries(options)) {
    const key = name.toLowerCase();
    const property = REQUEST_PROPERTIES.get(key);
    if (property === undefined || value === null || value === undefined || TAKEN_BY_THE_REQUEST.has(key)) continue;
    // Only ignored properties take a dynamic, and any JSON value is one: nothing to check or keep (and
    // a deeply nested value is never walked).
    if (property.type === 'dynamic') continue;
    const lit = literalOfJson(value, property.type);
    if (lit === undefined) fail(name, `must be ${TYPE_WORDS[property.type]}${HOW_SENT[property.type] ?? ''}`, false);
    const literal: Expr = { kind: 'literal', ...lit, span: NOWHERE };
    statements.push({ kind: 'set', name, nameSpan: NOWHERE, value: literal, span: NOWHERE });
  }
  propertiesOf(statements, (s, kind, message) => fail(s.name, message, kind === 'unsupported'));
  return statements;
}
