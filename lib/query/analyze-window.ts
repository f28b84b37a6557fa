// Window functions (serialize operator docs; row_number, prev, next, row_cumsum function docs):
// each call in an extend, project or where is computed by a `window` relation under the operator,
// in the input's serialized order, and the operator reads it as a hidden column. Kusto refuses them
// on input that is not serialized (after summarize, join, distinct ... or a table read without
// serialize/sort/top): so do we, at the call. Throws QueryError QUERY_SEMANTIC for that and for bad
// arguments, QUERY_UNSUPPORTED for the window functions outside the subset.
import { findInChildren, mapChildren } from './ast-walk';
import type { Expr } from './ast';
import { RANK_FUNCTIONS, rankExpansion } from './analyze-rank';
import { clip, type ErrorFactory } from './errors';
import { sessionCall } from './analyze-window-session';
import type { Assigned, IrColumn, IrExpr, IrWindow, Rel } from './ir';
import { analyzeScalar, type ScalarEnv } from './scalars';
import { isConstant, isInteger, isNumeric } from './types';

export const WINDOW_FUNCTIONS: ReadonlySet<string> = new Set([
  'row_number',
  'prev',
  'next',
  'row_cumsum',
  'row_window_session',
]);

export interface WindowHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[], local?: ReadonlyMap<string, IrExpr>): ScalarEnv;
  /** Inside partition or mv-apply: the sub-table's hidden key in `input`, each of whose values is a window of its own. */
  windowGroup?(input: Rel): IrExpr | undefined;
}

export interface Hoisted {
  /** The input with the window columns appended (the input itself when there are none). */
  readonly rel: Rel;
  /** The expressions with each window call replaced by the name of its hidden column. */
  readonly exprs: readonly Expr[];
  /** Hidden column name -> its value, for the operator's name resolution. */
  readonly hidden: ReadonlyMap<string, IrExpr>;
  /** Refs of the hidden columns, which the operator must not pass on. */
  readonly hiddenRefs: ReadonlySet<string>;
}

interface Pending {
  readonly call: Expr & { kind: 'call' };
  readonly column: IrColumn;
}

/**
 * A window call whose arguments hold window calls (row_cumsum(x, name != prev(name)), as in the
 * row_cumsum docs) is computed one window relation above those: calls are grouped by that level.
 */
export function hoistWindows(h: WindowHost, input: Rel, exprs: readonly Expr[], serialized: boolean): Hoisted {
  // Most operators hold no window call: they skip the rewrite, which copies every expression.
  if (!exprs.some(mentionsWindow)) return { rel: input, exprs, hidden: NO_HIDDEN, hiddenRefs: NO_REFS };
  const levels: Pending[][] = [];
  const hidden = new Map<string, IrExpr>();
  let count = 0;
  let deepest = 0;
  const replace = (e: Expr): Expr => {
    if (e.kind === 'call' && RANK_FUNCTIONS.has(e.name)) return replace(rankExpansion(h.errors, e, serialized));
    if (e.kind === 'call' && WINDOW_FUNCTIONS.has(e.name)) {
      if (!serialized) {
        throw h.errors.semantic(
          `${e.name}() needs serialized input (the row set must be serialized): add '| serialize' or '| order by ...' before this operator`,
          e.nameSpan,
        );
      }
      const outer = deepest;
      deepest = 0;
      const call = { ...e, args: e.args.map(replace) };
      const level = deepest;
      deepest = Math.max(outer, level + 1);
      const column: IrColumn = { name: `\u0000w${count++}`, type: 'long', ref: h.newRef() };
      (levels[level] ??= []).push({ call, column });
      return { kind: 'name', name: column.name, span: e.span };
    }
    return mapChildren(e, replace);
  };
  const rewritten = exprs.map(replace);
  if (count === 0) return { rel: input, exprs, hidden, hiddenRefs: new Set() };
  let rel = input;
  const hiddenRefs = new Set<string>();
  const group = h.windowGroup?.(input);
  for (const pending of levels) {
    const env = h.env(rel.columns, hidden);
    // row_window_session carries state from row to row: each is a relation of its own, under the others.
    for (const p of pending ?? []) {
      if (p.call.name !== 'row_window_session') continue;
      // Its recursive walk knows no sub-tables: per key it would carry one key's session into the next.
      if (group)
        throw h.errors.unsupported(
          'row_window_session() inside partition or mv-apply is not supported',
          p.call.nameSpan,
        );
      const session = sessionCall(h.errors, p.call, env, p.column);
      hidden.set(session.column.name, { kind: 'col', ref: session.column.ref, type: 'datetime' });
      hiddenRefs.add(session.column.ref);
      rel = { kind: 'session', input: rel, session, columns: [...rel.columns, session.column] };
      // An engine that refuses it reports the call's position.
      env.records.spans.set(rel, p.call.nameSpan);
    }
    const plain = (pending ?? []).filter((p) => p.call.name !== 'row_window_session');
    if (plain.length === 0) continue;
    const items: Assigned<IrWindow>[] = plain.map((p) => {
      const own = windowCall(h.errors, p.call, env);
      const value = group ? { ...own, group } : own;
      const column = { ...p.column, type: value.type };
      hidden.set(column.name, { kind: 'col', ref: column.ref, type: column.type });
      hiddenRefs.add(column.ref);
      return { column, value };
    });
    rel = { kind: 'window', input: rel, items, columns: [...rel.columns, ...items.map((i) => i.column)] };
  }
  return { rel, exprs: rewritten, hidden, hiddenRefs };
}

// Shared by every operator without a window call (most of them): read only, like a Hoisted's own.
const NO_REFS: ReadonlySet<string> = new Set();
const NO_HIDDEN: ReadonlyMap<string, IrExpr> = new Map();

/** True when a window or rank function is called somewhere `replace` above would look. */
function mentionsWindow(e: Expr): boolean {
  if (e.kind === 'call' && (WINDOW_FUNCTIONS.has(e.name) || RANK_FUNCTIONS.has(e.name))) return true;
  return findInChildren(e, childMentionsWindow) ?? false;
}

/** mentionsWindow() for findInChildren: one function for the process, not a closure per node. */
const childMentionsWindow = (c: Expr): true | undefined => (mentionsWindow(c) ? true : undefined);

function windowCall(errors: ErrorFactory, e: Expr & { kind: 'call' }, env: ScalarEnv): IrWindow {
  const args = e.args;
  const arity = (min: number, max: number): void => {
    if (args.length < min || args.length > max) {
      throw errors.semantic(
        `${e.name}() takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, not ${args.length}`,
        e.span,
      );
    }
  };
  const restartAt = (i: number): IrExpr | undefined => {
    const node = args[i];
    if (!node) return undefined;
    const r = analyzeScalar(node, env, 1);
    if (r.type !== 'bool')
      throw errors.semantic(`the restart argument of ${e.name}() must be a bool, got ${r.type}`, node.span);
    return r;
  };
  switch (e.name) {
    case 'row_number': {
      arity(0, 2);
      const start = args[0]
        ? constantInteger(errors, analyzeScalar(args[0], env, 1), args[0], `the start of row_number()`)
        : 1n;
      const restart = restartAt(1);
      return restart ? { fn: 'row_number', type: 'long', start, restart } : { fn: 'row_number', type: 'long', start };
    }
    case 'prev':
    case 'next': {
      arity(1, 3);
      const value = analyzeScalar(args[0]!, env, 1);
      const offset = args[1]
        ? constantInteger(errors, analyzeScalar(args[1], env, 1), args[1], `the offset of ${e.name}()`)
        : 1n;
      if (offset < 0n) throw errors.semantic(`the offset of ${e.name}() cannot be negative`, args[1]!.span);
      let fallback: IrExpr | undefined;
      if (args[2]) {
        fallback = analyzeScalar(args[2], env, 1);
        const ok =
          fallback.type === value.type ||
          (isNumeric(fallback.type) && isNumeric(value.type)) ||
          (fallback.kind === 'lit' && fallback.value === null);
        if (!ok)
          throw errors.semantic(
            `the default of ${e.name}() must be a ${value.type}, got ${fallback.type}`,
            args[2].span,
          );
      }
      const fn = e.name;
      return fallback ? { fn, type: value.type, value, offset, fallback } : { fn, type: value.type, value, offset };
    }
    default: {
      arity(1, 2);
      const value = analyzeScalar(args[0]!, env, 1);
      if (!isNumeric(value.type) && value.type !== 'timespan')
        throw errors.semantic(`row_cumsum() sums numbers, not ${value.type}`, args[0]!.span);
      const restart = restartAt(1);
      const type = value.type === 'int' ? 'long' : value.type;
      return restart ? { fn: 'row_cumsum', type, value, restart } : { fn: 'row_cumsum', type, value };
    }
  }
}

function constantInteger(errors: ErrorFactory, v: IrExpr, node: Expr, what: string): bigint {
  if (!isConstant(v) || v.kind !== 'lit' || !isInteger(v.type) || v.value === null) {
    throw errors.semantic(
      `${what} must be a constant integer, got '${clip(node.kind === 'literal' ? String(node.value) : 'an expression')}'`,
      node.span,
    );
  }
  return v.value as bigint;
}
