// Binds `declare query_parameters(...)` to the request's values (query parameters declaration docs):
// each parameter becomes a scalar `let` of a literal, so its value reaches the SQL through the same
// path as a literal written in the query (one escaping function per dialect), never as SQL text.
// A value is text, read "as if it were a literal in the body of a query" of the declared type; a
// string parameter's text is the string itself (the docs' SDK examples send `Flash Flood`). Values
// given but not declared are ignored, as the docs' REST example sends one (`courses`) that its
// query does not declare. Throws QueryError QUERY_SEMANTIC at the parameter.
import type { Expr, LetStatement, LiteralKind, LiteralValue, QueryParameterDecl } from './ast';
import { DynamicScalarError, dynamicLiteralJson } from './dynamic-literal';
import { clip, type ErrorFactory } from './errors';
import { minifiedJson } from './json-text';
import { MAX_INT, MIN_INT, parseDatetimeTicks, parseTimespanTicks } from './literals';
import { parseExpressionText } from './parser';
import { literalOf as signedLiteral } from './statements-set';
import { typeNamed } from './types';

type Literal = { readonly type: LiteralKind; readonly value: LiteralValue };

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The literal as a value of the declared type (the widenings Kusto allows for a literal), or undefined. */
function asType(lit: Literal, type: LiteralKind): LiteralValue | undefined {
  const { value } = lit;
  // long(null), datetime(null): a typed null is a literal of its type.
  if (value === null) return lit.type === type ? null : undefined;
  const integral = lit.type === 'long' || lit.type === 'int';
  if (type === 'int' && integral)
    return typeof value === 'bigint' && value >= MIN_INT && value <= MAX_INT ? value : undefined;
  if (lit.type === type || (type === 'long' && lit.type === 'int')) return value;
  if ((type === 'real' || type === 'decimal') && (integral || lit.type === 'real' || lit.type === 'decimal'))
    return Number(value);
  return undefined;
}

/** A value's text that is not a literal of the type, read as the type's own text (`2020-01-01` for a datetime). */
function bareValue(text: string, type: LiteralKind): LiteralValue | undefined {
  switch (type) {
    case 'datetime':
      return parseDatetimeTicks(text.trim());
    case 'timespan':
      return parseTimespanTicks(text.trim());
    case 'guid':
      return GUID.test(text.trim()) ? text.trim().toLowerCase() : undefined;
    case 'dynamic':
      try {
        return minifiedJson(dynamicLiteralJson(text));
      } catch (error) {
        if (error instanceof DynamicScalarError || error instanceof SyntaxError) return undefined;
        throw error;
      }
    default:
      return undefined;
  }
}

/** The value of a parameter's text, or undefined when it is no literal of the type. */
export function valueOfText(text: string, type: LiteralKind): LiteralValue | undefined {
  if (type === 'string') return text;
  const parsed = parseExpressionText(text);
  const lit = parsed === undefined ? undefined : signedLiteral(parsed);
  const value = lit === undefined ? undefined : asType(lit, type);
  return value !== undefined ? value : bareValue(text, type);
}

/** The declared type as a literal kind (`double` is real, `boolean` bool, `date` datetime). */
const kindOf = (decl: QueryParameterDecl): LiteralKind =>
  decl.type === 'decimal' ? 'decimal' : (typeNamed(decl.type, true) as LiteralKind);

/**
 * The let statements that bind the declared parameters, in order. `values`: the request's, by name.
 * @throws QueryError QUERY_SEMANTIC for a duplicate, a parameter with no value and no default, a
 * value or default that is not a literal of the type, a default of a dynamic parameter.
 */
export function parameterLets(
  decls: readonly QueryParameterDecl[],
  values: Readonly<Record<string, string>>,
  errors: ErrorFactory,
): LetStatement[] {
  const seen = new Set<string>();
  for (const decl of decls) {
    if (seen.has(decl.name))
      throw errors.semantic(`the query parameter '${decl.name}' is declared twice`, decl.nameSpan);
    seen.add(decl.name);
  }
  return decls.map((decl) => {
    const type = kindOf(decl);
    let value: LiteralValue | undefined;
    if (Object.hasOwn(values, decl.name)) {
      const text = values[decl.name]!;
      value = valueOfText(text, type);
      if (value === undefined)
        throw errors.semantic(
          `the value of the query parameter '${decl.name}' ("${clip(text)}") is not a literal of type ${decl.type}`,
          decl.nameSpan,
        );
    } else if (decl.default !== undefined) {
      // Like a user-defined function's parameter, a dynamic one has no default (query parameters docs).
      if (type === 'dynamic')
        throw errors.semantic(
          `the dynamic query parameter '${decl.name}' cannot have a default value`,
          decl.default.span,
        );
      const lit = signedLiteral(decl.default);
      value = lit === undefined ? undefined : asType(lit, type);
      if (value === undefined)
        throw errors.semantic(
          `the default of the query parameter '${decl.name}' must be a literal of type ${decl.type}`,
          decl.default.span,
        );
    } else {
      throw errors.semantic(
        `the query parameter '${decl.name}' has no value: send it in the request's parameters (properties.Parameters on the Kusto routes) or give it a default`,
        decl.nameSpan,
      );
    }
    const literal: Expr = { kind: 'literal', type, value, span: decl.nameSpan };
    return { kind: 'let', name: decl.name, nameSpan: decl.nameSpan, value: literal, span: decl.nameSpan };
  });
}
