// Scalars read from tabular expressions and the list operators (toscalar function, in operator,
// has_any / has_all operator docs): toscalar(T) is the first column of T's first row (null when T
// is empty); `x in (T)` tests x against T's first column; a dynamic array in a list (a literal or a
// let name) stands for its elements; has_any / has_all test each term as `has` does.
// A tabular right side of has_any / has_all is tested term by term in SQL (sql/has-terms.ts).
// The values of in / in~ may be any scalar expressions (columns, computations), mixed with constants
// (in operator docs: "a list of scalar expressions"); those of has_any / has_all are constants.
// A non-constant dynamic value of in / !in is tested per row with set_has_element(), one of has_any
// with has_any_index().
// Throws QueryError QUERY_SEMANTIC for type errors, QUERY_UNSUPPORTED for a non-constant has_any /
// has_all term or a non-constant dynamic value of in~ (its elements are not known before the row).
import { isRandom, readsColumns } from './analyze-random';
import type { Expr, Pipeline } from './ast';
import { convert } from './convert';
import { dynamicComparedAs, exactIntegerComparison } from './dynamic-arithmetic';
import { clip, type ErrorFactory } from './errors';
import type { IrExpr, KqlType, Rel } from './ir';
import { isConstant, lit } from './types';
import type { Span } from './tokens';

/** The part of the scalar analyzer the list operators use. */
export interface ListHost {
  readonly errors: ErrorFactory;
  analyze(e: Expr): IrExpr;
  asString(e: IrExpr, span?: Span): IrExpr;
  requireComparable(l: IrExpr, r: IrExpr, span: Span, equality?: boolean): void;
  /** A nested tabular expression's relation; absent where none may appear. */
  readonly subquery?: (p: Pipeline) => Rel;
}

const call = (fn: 'in' | 'not' | 'or' | 'and' | 'has' | 'tolower', args: readonly IrExpr[], type: KqlType): IrExpr => ({
  kind: 'call',
  fn,
  args,
  type,
});

function relationOf(h: ListHost, e: Expr & { kind: 'tabular' }, what: string): Rel {
  if (!h.subquery) throw h.errors.unsupported(`a tabular expression is not allowed in ${what} here`, e.span);
  const rel = h.subquery(e.pipeline);
  if (rel.columns.length === 0) throw h.errors.semantic(`the tabular expression of ${what} has no column`, e.span);
  return rel;
}

/**
 * toscalar(T), or toscalar(scalar): the scalar itself, but one that picks at random (rand(),
 * new_guid()) and reads no row is read from `print`, a sub-query, so it is computed once (the
 * named-expressions page: "Non-deterministic scalar functions can be forced to calculate exactly
 * once by using toscalar()").
 */
export function analyzeToScalar(h: ListHost, e: Expr & { kind: 'call' }): IrExpr {
  if (e.args.length !== 1) throw h.errors.semantic(`toscalar() takes 1 argument, got ${e.args.length}`, e.span);
  const arg = e.args[0]!;
  if (arg.kind !== 'tabular') {
    const value = h.analyze(arg);
    if (!h.subquery || !isRandom(value) || readsColumns(value)) return value;
    const span = arg.span;
    const rel = h.subquery({
      kind: 'pipeline',
      source: { kind: 'print', items: [{ name: 'value', expr: arg, span }], span },
      operators: [],
      span,
    });
    return { kind: 'subquery', mode: 'scalar', rel, type: value.type };
  }
  const rel = relationOf(h, arg, 'toscalar()');
  const type = rel.columns[0]!.type;
  const value: IrExpr = { kind: 'subquery', mode: 'scalar', rel, type };
  // No row is a null, but a string is never null (strings are "" instead): the engine's NULL would
  // make isempty(), strlen() and == "" of an empty table's toscalar() null, not true, 0 and true.
  return type === 'string' ? { kind: 'call', fn: 'coalesce', args: [value, lit('string', '')], type } : value;
}

/**
 * column_names_of(T): T's column names as a dynamic array (column_names_of page). The schema is
 * known before any row is read, so the answer is a constant.
 */
export function analyzeColumnNamesOf(h: ListHost, e: Expr & { kind: 'call' }): IrExpr {
  if (e.args.length !== 1) throw h.errors.semantic(`column_names_of() takes 1 argument, got ${e.args.length}`, e.span);
  const arg = e.args[0]!;
  if (arg.kind !== 'tabular')
    throw h.errors.semantic(
      'column_names_of() takes a tabular expression (a table, a let name or a function call)',
      arg.span,
    );
  const rel = relationOf(h, arg, 'column_names_of()');
  return lit('dynamic', JSON.stringify(rel.columns.map((c) => c.name)));
}

/** `coalesce(set_has_element(array, value), false)`: whether a dynamic array known only per row holds value. */
function holds(array: Expr, value: Expr, numeric: boolean): Expr {
  const span = array.span;
  const fn = (name: string, args: Expr[]): Expr => ({ kind: 'call', name, nameSpan: span, args, span });
  const exact = fn('set_has_element', [array, value]);
  // A number matches an element of the same value whatever its type, as the list of a constant
  // array compares them (1.0 in (dynamic([1])) holds): both as reals, series_add(a, 0) making the
  // elements reals (null for a non-number) and their text that of toreal(value).
  const has: Expr = numeric
    ? {
        kind: 'binary',
        op: 'or',
        left: exact,
        right: fn('set_has_element', [fn('series_add', [array, zero(span)]), fn('toreal', [value])]),
        opSpan: span,
        span,
      }
    : exact;
  return fn('coalesce', [has, { kind: 'literal', type: 'bool', value: false, span }]);
}

const zero = (span: Span): Expr => ({ kind: 'literal', type: 'long', value: 0n, span });

/** `coalesce(has_any_index(text, array) >= 0, false)`: whether text has one of the terms of an array known only per row. */
function hasAnyOf(array: Expr, text: Expr): Expr {
  const span = array.span;
  const index: Expr = { kind: 'call', name: 'has_any_index', nameSpan: span, args: [text, array], span };
  const zero: Expr = { kind: 'literal', type: 'long', value: 0n, span };
  const found: Expr = { kind: 'binary', op: '>=', left: index, right: zero, opSpan: span, span };
  const no: Expr = { kind: 'literal', type: 'bool', value: false, span };
  return { kind: 'call', name: 'coalesce', nameSpan: span, args: [found, no], span };
}

/** `x [!]in[~] (...)`, `x has_any (...)`, `x has_all (...)`. */
export function analyzeList(h: ListHost, expr: Expr & { kind: 'in' }): IrExpr {
  const negated = expr.op.startsWith('!');
  const base = expr.op.replace(/^!/, '');
  if (expr.values.length === 0) throw h.errors.syntax(`'${expr.op}' needs at least one value`, expr.opSpan);
  const tabular = expr.values.find((v): v is Expr & { kind: 'tabular' } => v.kind === 'tabular');
  const left = h.analyze(expr.left);
  if (tabular) {
    if (expr.values.length > 1)
      throw h.errors.unsupported(
        `'${expr.op}' takes either one tabular expression or a list of values, not both`,
        tabular.span,
      );
    const result =
      base === 'has_any' || base === 'has_all'
        ? tabularHas(h, left, tabular, base)
        : tabularIn(h, left, tabular, base === 'in~', expr.opSpan);
    return negated ? call('not', [result], 'bool') : result;
  }
  const { values, arrays } = listValues(h, expr, base === 'in' || base === 'in~');
  // A dynamic value known only per row (a toscalar(... make_set()) let, a column) holds the
  // elements to test: set_has_element() for in, has_any_index() for has_any (false for a null,
  // which holds none), or-ed with the other values.
  const numeric = left.type === 'int' || left.type === 'long' || left.type === 'real' || left.type === 'decimal';
  const tests = arrays.map((a) =>
    h.analyze(base === 'has_any' ? hasAnyOf(a, expr.left) : holds(a, expr.left, numeric)),
  );
  if (values.length > 0) tests.unshift(valuesTest(h, base, left, values));
  const result = tests.length === 1 ? tests[0]! : call('or', tests, 'bool');
  return negated ? call('not', [result], 'bool') : result;
}

/** The test of a list of values known before the row (constants, columns, expressions). */
function valuesTest(h: ListHost, base: string, left: IrExpr, values: readonly { value: IrExpr; span: Span }[]): IrExpr {
  if (base === 'has_any' || base === 'has_all') {
    const text = h.asString(left);
    const terms = values.map((v) => call('has', [text, termOf(h, base, v)], 'bool'));
    return terms.length === 1 ? terms[0]! : call(base === 'has_any' ? 'or' : 'and', terms, 'bool');
  }
  if (base === 'in~')
    return {
      kind: 'call',
      fn: 'in_ci',
      args: [h.asString(left), ...values.map((v) => h.asString(v.value, v.span))],
      type: 'bool',
    };
  return dynamicIn(h, left, values) ?? typedIn(h, left, values);
}

/**
 * A term of has_any/has_all as the string literal the has test is written with: a string, or an
 * integer or bool constant as its text (`has_any (2)` looks for the term "2"). Another constant
 * (`strcat("c", "d")`, a real, a datetime) is refused at the value: it was searched as no term.
 */
function termOf(h: ListHost, base: string, v: { value: IrExpr; span: Span }): IrExpr {
  const text = h.asString(v.value, v.span);
  if (text.kind === 'lit' && typeof text.value === 'string') return text;
  const value = v.value;
  if (value.kind === 'lit' && value.value !== null && ['long', 'int', 'bool'].includes(value.type))
    return lit('string', String(value.value));
  throw h.errors.unsupported(
    `the values of '${base}' must be string literals (or integers or bools) here; write the term itself`,
    v.span,
  );
}

function typedIn(h: ListHost, l: IrExpr, values: readonly { value: IrExpr; span: Span }[]): IrExpr {
  values.forEach((v) => h.requireComparable(l, v.value, v.span, true));
  return call('in', [l, ...values.map((v) => v.value)], 'bool');
}

/**
 * A dynamic left side is `x == v1 or x == v2 ...` (the in operator docs): each value compares it as
 * == does (dynamicComparedAs), so `Value in (20, 21)` is false for 20.5 and a list may mix kinds
 * (`Value in ("Running", 23)`). Undefined when the left side is not dynamic.
 */
function dynamicIn(h: ListHost, left: IrExpr, values: readonly { value: IrExpr; span: Span }[]): IrExpr | undefined {
  if (left.type !== 'dynamic') return undefined;
  const byType = new Map<KqlType, { value: IrExpr; span: Span }[]>();
  // An integer beyond 2^53 is compared as == compares it (exact as a long), not among the reals.
  const exact: IrExpr[] = [];
  for (const v of values) {
    const huge = exactIntegerComparison('eq', [left, v.value]);
    if (huge) {
      exact.push(huge);
      continue;
    }
    const as = dynamicComparedAs(v.value.type);
    byType.set(as, [...(byType.get(as) ?? []), v]);
  }
  const tests = [...[...byType].map(([as, group]) => typedIn(h, convert(left, as), group)), ...exact];
  return tests.length === 1 ? tests[0]! : call('or', tests, 'bool');
}

function tabularIn(h: ListHost, left: IrExpr, e: Expr & { kind: 'tabular' }, ci: boolean, opSpan: Span): IrExpr {
  const rel = relationOf(h, e, "'in'");
  const type = rel.columns[0]!.type;
  if (ci) {
    const l = call('tolower', [h.asString(left)], 'string');
    if (type !== 'string')
      throw h.errors.semantic(`in~ compares strings; the first column of the tabular expression is ${type}`, e.span);
    return call('in', [l, { kind: 'subquery', mode: 'list', rel, type, lower: true }], 'bool');
  }
  const l = left.type === 'dynamic' ? convert(left, dynamicComparedAs(type)) : left;
  if (type === 'dynamic')
    throw h.errors.semantic("the first column of the tabular expression of 'in' is dynamic; convert it first", e.span);
  h.requireComparable(l, { kind: 'subquery', mode: 'list', rel, type }, opSpan, true);
  return call('in', [l, { kind: 'subquery', mode: 'list', rel, type }], 'bool');
}

/** `x has_any (T)` / `x has_all (T)`: the terms are T's first column (strings), nulls ignored. */
function tabularHas(h: ListHost, left: IrExpr, e: Expr & { kind: 'tabular' }, op: 'has_any' | 'has_all'): IrExpr {
  const rel = relationOf(h, e, `'${op}'`);
  const type = rel.columns[0]!.type;
  if (type !== 'string')
    throw h.errors.semantic(
      `${op} looks for string terms; the first column of the tabular expression is ${type} (convert it with tostring())`,
      e.span,
    );
  const terms: IrExpr = { kind: 'subquery', mode: 'terms', rel, type: 'dynamic' };
  return {
    kind: 'call',
    fn: op === 'has_any' ? 'has_terms_any' : 'has_terms_all',
    args: [h.asString(left), terms],
    type: 'bool',
  };
}

/**
 * The list's values, each dynamic constant array replaced by its elements. With `scalars`, a value
 * may be any expression of a scalar type; otherwise (has_any / has_all) it must be a constant.
 */
function listValues(
  h: ListHost,
  expr: Expr & { kind: 'in' },
  scalars: boolean,
): { values: { value: IrExpr; span: Span }[]; arrays: Expr[] } {
  const out: { value: IrExpr; span: Span }[] = [];
  const arrays: Expr[] = [];
  for (const node of expr.values) {
    const v = h.analyze(node);
    // A constant dynamic that is no literal (parse_json('[1,2]')) holds its elements as a column
    // would: tested per row. It was compared (in) or searched (has_any) as one value, its JSON text.
    const computedDynamic = v.type === 'dynamic' && v.kind !== 'lit';
    if (computedDynamic && isConstant(v) && !(expr.op.endsWith('in') || expr.op === 'has_any'))
      throw h.errors.unsupported(
        `the array of '${expr.op}' must be written as a dynamic literal (dynamic([...])), not computed`,
        node.span,
      );
    if (!isConstant(v) || computedDynamic) {
      if (v.type === 'dynamic' && (expr.op.endsWith('in') || expr.op === 'has_any')) {
        arrays.push(node);
        continue;
      }
      if (!scalars) throw h.errors.unsupported(`the values of '${expr.op}' must be constants`, node.span);
      if (v.type === 'dynamic')
        throw h.errors.unsupported(
          `a dynamic value of '${expr.op}' must be a constant; convert it (tostring(), tolong(), ...) or test an array with set_has_element()`,
          node.span,
        );
      out.push({ value: v, span: node.span });
      continue;
    }
    if (v.type === 'dynamic' && v.kind === 'lit' && typeof v.value === 'string') {
      for (const element of arrayElements(h, v.value, node.span)) out.push({ value: element, span: node.span });
      continue;
    }
    out.push({ value: v, span: node.span });
  }
  if (out.length === 0 && arrays.length === 0)
    throw h.errors.semantic(`the values of '${expr.op}' hold no element`, expr.opSpan);
  return { values: out, arrays };
}

/**
 * The scalar elements of a dynamic literal: an array's elements, nested arrays flattened (in
 * operator docs: x in (dynamic([1,[2,3]])) is x in (1,2,3)); a scalar is one element, null none.
 */
function arrayElements(h: ListHost, json: string, span: Span): IrExpr[] {
  const out: IrExpr[] = [];
  const add = (item: unknown): void => {
    if (item === null) return;
    if (Array.isArray(item)) for (const x of item as unknown[]) add(x);
    else if (typeof item === 'string') out.push(lit('string', item));
    else if (typeof item === 'boolean') out.push(lit('bool', item));
    else if (typeof item === 'number') out.push(Number.isInteger(item) ? lit('long', BigInt(item)) : lit('real', item));
    else
      throw h.errors.unsupported(
        `a list value holds '${clip(JSON.stringify(item))}'; only strings, numbers, bools and arrays of them are supported`,
        span,
      );
  };
  add(JSON.parse(json) as unknown);
  return out;
}
