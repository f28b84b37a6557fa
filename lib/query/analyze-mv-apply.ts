// Semantic analysis of mv-apply (https://learn.microsoft.com/en-us/kusto/query/mv-apply-operator):
// the sub-query runs on each input row's expanded sub-table, and the output is the union of the
// results with the row's other columns. Built from relations the generator already writes: the
// input rows are numbered once (a hidden row id), expanded as mv-expand does (with a hidden item
// index when with_itemindex is not written), and each sub-query operator is applied per row id:
// row-wise operators as they are; summarize and count grouped by the row id; sort, top and take
// ordered by the row id first and cut per row id with row_number(). The row's other columns pass
// through; where an operator would drop them (project, summarize, count) they travel under hidden
// names and come back in the output, in the input's order, before the sub-query's own columns.
// Throws QueryError QUERY_UNSUPPORTED at an operator the sub-query cannot run per row here.
import { findInChildren } from './ast-walk';
import type { Expr, MvApplySpec, NamedExpr, Operator, SortKey } from './ast';
import type { TabularHost } from './analyze-join';
import { analyzeMvExpand, type MvExpandHost } from './analyze-mv-expand';
import { ownAggregates, summarizesToOneRow, withEmptyGroups } from './analyze-empty-groups';
import { name, call, binary, asc, numbering, operatorWord } from './ast-build';
import { WINDOW_FUNCTIONS } from './analyze-window';
import type { Assigned, IrColumn, IrExpr, Rel } from './ir';
import { derivedName } from './naming';
import type { Span } from './tokens';

export interface MvApplyHost extends MvExpandHost, TabularHost {
  /** Makes `rel` readable as the table `name` (undefined: forgets it). */
  bindTable(name: string, rel: Rel | undefined): void;
  /** Window functions of the operator that reads `rel` run per value of its column `key` (a sub-table each). */
  groupWindows(rel: Rel, key: string): void;
  /** Whether window functions may read `rel`'s row order (serialize operator page). */
  isSerialized(rel: Rel): boolean;
}

/** Hidden names of one mv-apply (a nested mv-apply has its own): the row id, item index, carried columns. */
interface Names {
  readonly prefix: string;
  readonly rowId: string;
  readonly itemIndex: string;
  carried(name: string): string;
}

function hiddenNames(tag: string): Names {
  const prefix = `\u0000mv-apply ${tag} `;
  return {
    prefix,
    rowId: `${prefix}row`,
    itemIndex: `${prefix}item`,
    carried: (name) => `${prefix}column ${name}`,
  };
}

/** Operators that work row by row: per sub-table or over all rows, the same result. */
const ROW_WISE: ReadonlySet<Operator['kind']> = new Set([
  'where',
  'extend',
  'parse',
  'mvExpand',
  'mvApply',
  'projectAway',
  'projectRename',
  // Moves columns only; the hidden ones stay among the others.
  'projectReorder',
  'search',
  // Numbers its rows (row_number() ...) per sub-table: the loop below orders and groups its window calls.
  'serialize',
]);

/**
 * Operators after which the sub-table's rows keep their order (and serialization) from before. A
 * nested mv-apply is not one here: its rows from one element would tie in the (row id, item index) order.
 */
const KEEPS_ORDER: ReadonlySet<Operator['kind']> = new Set([
  'where',
  'extend',
  'parse',
  'search',
  'projectAway',
  'projectRename',
  'project',
  'take',
  'serialize',
]);

export function analyzeMvApply(h: MvApplyHost, input: Rel, spec: MvApplySpec, span: Span): Rel {
  const hidden = hiddenNames(h.newRef());
  const at = (ops: readonly Operator[], rel: Rel): Rel => {
    const table = `\u0000mv-apply ${h.newRef()}`;
    h.bindTable(table, rel);
    try {
      return h.subquery({ kind: 'pipeline', source: { kind: 'table', name: table, span }, operators: ops, span });
    } finally {
      h.bindTable(table, undefined);
    }
  };
  const numbered = at([numbering(hidden.rowId, span)], input);
  const itemIndex = spec.expand.itemIndex ?? { name: hidden.itemIndex, span };
  const names = hidden;
  let rel = analyzeMvExpand(h, numbered, { ...spec.expand, itemIndex }, 'mv-apply');
  // An engine without mv-expand refuses it at the mv-apply.
  const spans = h.env([]).records.spans;
  spans.set(rel, span);
  if (rel.kind === 'project') spans.set(rel.input, span);
  // An expanded column named like an input column replaces it: that input column does not come back.
  const expanded = new Set(spec.expand.items.map((i) => i.name ?? derivedName(i.expr)));
  const outer = input.columns.map((c) => c.name).filter((n) => !expanded.has(n));
  // The row's other columns come back as they were in the input (the mv-apply page's values,
  // expanded inside the sub-query, comes back whole): copied under hidden names before it runs.
  // The user's with_itemindex column is the sub-query's to keep or drop (a project without it drops
  // it): the order of the elements travels in a hidden copy.
  const copies = outer.map((n) => ({ name: names.carried(n), expr: name(n, span), span }));
  if (spec.expand.itemIndex) copies.push({ name: names.itemIndex, expr: name(itemIndex.name, span), span });
  if (copies.length > 0) rel = at([{ kind: 'extend', items: copies, span }], rel);
  // Each row's sub-table is serialized in its array's order (the mv-apply page's prev() over a series):
  // until a sort or top inside sets another, window functions read the rows by row id then item index.
  // mv-expand, summarize and the like leave their rows unserialized (serialize operator page): a window
  // function after them needs a sort first, as Kusto refuses it (no sort is inserted there: the
  // analyzer refuses the call, and the rows expanded from one element would tie in it).
  let order: 'array' | 'sorted' | 'none' = 'array';
  for (const op of spec.operators) {
    const windowed = windowCalls(op).length > 0;
    if (order === 'array' && windowed) {
      rel = at([{ kind: 'sort', keys: rowOrder(names, rel, op.span), span: op.span }], rel);
      order = 'sorted';
    }
    // Only the sub-query's own calls: a nested mv-apply numbers its rows across all of them.
    if (windowed) h.groupWindows(rel, names.rowId);
    const from = rel;
    rel = at(perRow(h, names, op, rel, outer, order === 'sorted'), rel);
    if (summarizesToOneRow(op)) rel = withRowPerInputRow(h, at, names, numbered, outer, from, rel, op);
    if (op.kind === 'sort' || op.kind === 'top') order = 'sorted';
    else if (op.kind === 'take' && order === 'none' && !h.isSerialized(from)) rel = unserialized(rel);
    else if (!KEEPS_ORDER.has(op.kind)) order = 'none';
  }
  // mv-apply keeps its input's serialization (the serialize page lists it among neither the operators
  // that serialize nor those that drop it), but the SQL of the steps above keeps no row order: the
  // rows come back row by row in the input's order, each row's in its array's order (or the order a
  // sort or top inside set, which comes row id first).
  if (h.isSerialized(input) && order !== 'sorted')
    rel = at([{ kind: 'sort', keys: rowOrder(names, rel, span), span }], rel);
  return output(names, input, rel, expanded);
}

/** The sub-tables in the input's order, each in its array's order: by row id, then item index when present. */
function rowOrder(names: Names, rel: Rel, span: Span): SortKey[] {
  const present = new Set(rel.columns.map((c) => c.name));
  return [names.rowId, names.itemIndex].filter((n) => present.has(n)).map((n) => asc(name(n, span)));
}

/**
 * `rel` with the same rows and columns, not serialized: a take over rows in no defined order sorts
 * them to cut per sub-table, but Kusto's take keeps its input unserialized.
 */
export function unserialized(rel: Rel): Rel {
  const items: Assigned<IrExpr>[] = rel.columns.map((c) => ({
    column: c,
    value: { kind: 'col', ref: c.ref, type: c.type },
  }));
  return { kind: 'project', input: rel, items, columns: rel.columns };
}

/** The window function calls in a where/extend/project/serialize (the operators that compute them). */
export function windowCalls(op: Operator): Expr[] {
  const exprs =
    op.kind === 'where'
      ? [op.predicate]
      : op.kind === 'extend' || op.kind === 'project' || op.kind === 'serialize'
        ? op.items.map((i) => i.expr)
        : [];
  return exprs.flatMap((e) => windowCall(e) ?? []);
}

/**
 * `grouped` (a summarize with no by of its own, or a count, per row id) with a row for each input row,
 * also one whose sub-table was empty there: its columns as the input row has them, the aggregates'
 * values over no rows (analyze-empty-groups.ts).
 */
function withRowPerInputRow(
  h: MvApplyHost,
  at: (ops: readonly Operator[], rel: Rel) => Rel,
  hidden: Names,
  numbered: Rel,
  outer: readonly string[],
  before: Rel,
  grouped: Rel,
  op: Operator,
): Rel {
  const span = op.span;
  const carried = outer.filter((n) => before.columns.some((c) => c.name === hidden.carried(n)));
  const groups = at(
    [
      {
        kind: 'project',
        items: [
          { name: hidden.rowId, expr: name(hidden.rowId, span), span },
          ...carried.map((n) => ({ name: hidden.carried(n), expr: name(n, span), span })),
        ],
        span,
      },
    ],
    numbered,
  );
  const scope = { at, bind: (t: string, r: Rel | undefined) => h.bindTable(t, r), newRef: () => h.newRef() };
  return withEmptyGroups(
    scope,
    { groups, key: hidden.rowId, keyNeverNull: true, grouped, before, aggregates: ownAggregates(op, span) },
    span,
  );
}

/** The operators that apply `op` to each row id's sub-table of `rel`. */
function perRow(
  h: MvApplyHost,
  hidden: Names,
  op: Operator,
  rel: Rel,
  outer: readonly string[],
  sorted: boolean,
): Operator[] {
  const span = op.span;
  const names = new Set(rel.columns.map((c) => c.name));
  const rowId = name(hidden.rowId, span);
  // The input columns still here, under their hidden names, for operators that would drop them.
  const keep = outer.filter((n) => names.has(hidden.carried(n)));
  switch (op.kind) {
    case 'project': {
      const extra: NamedExpr[] = [hidden.rowId, ...(names.has(hidden.itemIndex) ? [hidden.itemIndex] : [])].map(
        (n) => ({
          name: n,
          expr: name(n, span),
          span,
        }),
      );
      const travel = keep.map((n) => ({ name: hidden.carried(n), expr: name(hidden.carried(n), span), span }));
      return [{ ...op, items: [...op.items, ...extra, ...travel] }];
    }
    case 'summarize':
    case 'count': {
      const aggregates: NamedExpr[] =
        op.kind === 'count' ? [{ name: 'Count', expr: call('count', [], span), span }] : [...op.aggregates];
      const travel = keep.map((n) => ({
        name: hidden.carried(n),
        expr: call('take_any', [name(hidden.carried(n), span)], span),
        span,
      }));
      const by = [{ name: hidden.rowId, expr: rowId, span }, ...(op.kind === 'count' ? [] : op.by)];
      return [{ kind: 'summarize', aggregates: [...aggregates, ...travel], by, span }];
    }
    case 'distinct': {
      // Distinct per sub-table: grouped by the row id and the columns, the input's columns travelling
      // as summarize's do. Under `*` the hidden columns are no keys.
      const columns =
        op.columns === '*'
          ? rel.columns
              .map((c) => c.name)
              .filter((n) => !n.startsWith(hidden.prefix))
              .map((n) => ({ name: n, expr: name(n, span), span }))
          : op.columns;
      const travel = keep.map((n) => ({
        name: hidden.carried(n),
        expr: call('take_any', [name(hidden.carried(n), span)], span),
        span,
      }));
      return [
        { kind: 'summarize', aggregates: travel, by: [{ name: hidden.rowId, expr: rowId, span }, ...columns], span },
      ];
    }
    case 'projectKeep': {
      const travel = [hidden.rowId, ...keep.map((n) => hidden.carried(n))];
      if (names.has(hidden.itemIndex)) travel.push(hidden.itemIndex);
      return [{ ...op, names: [...op.names, ...travel.map((n) => ({ name: n, wildcard: false, span }))] }];
    }
    case 'sort':
      return [{ ...op, keys: [asc(rowId), ...op.keys] }];
    case 'top':
    case 'take': {
      const count = h.constantCount(op.count);
      const keys: SortKey[] =
        op.kind === 'top'
          ? [asc(rowId), ...op.by]
          : [asc(rowId), ...(names.has(hidden.itemIndex) ? [asc(name(hidden.itemIndex, span))] : [])];
      // The n-th row of its row id: numbering restarts where the row id changes.
      const restart: Expr = binary('!=', rowId, call('prev', [rowId], span), span);
      const nth = call('row_number', [{ kind: 'literal', type: 'long', value: 1n, span }, restart], span);
      const predicate = binary('<=', nth, { kind: 'literal', type: 'long', value: count, span }, span);
      const cut: Operator = { kind: 'where', predicate, span };
      // A take after a sort or top (and operators that keep their order) takes the first rows in that
      // order: the rows are already by row id, then in it.
      if (op.kind === 'take' && sorted) return [cut];
      return [{ kind: 'sort', keys, span }, cut];
    }
    default:
      if (ROW_WISE.has(op.kind)) return [op];
      throw h.errors.unsupported(`${operatorWord(op)} inside mv-apply is not supported`, op.span);
  }
}

/** The input's other columns (from the sub-query when it kept them), then the sub-query's own. */
function output(hidden: Names, input: Rel, rel: Rel, expanded: ReadonlySet<string | undefined>): Rel {
  const byName = new Map<string, IrColumn>();
  for (const c of rel.columns) if (!byName.has(c.name)) byName.set(c.name, c);
  const used = new Set<IrColumn>();
  const items: Assigned<IrExpr>[] = [];
  const emit = (c: IrColumn | undefined, as: string): void => {
    if (!c || used.has(c)) return;
    used.add(c);
    items.push({ column: { name: as, type: c.type, ref: c.ref }, value: { kind: 'col', ref: c.ref, type: c.type } });
  };
  // The input's columns that are not expanded come first, then the sub-query's columns in its order,
  // the expanded ones among them (mv-apply page: an expanded input column "is removed from the input"
  // and the sub-query's result gets the other source columns; Kusto.Language orders them so).
  for (const c of input.columns)
    if (!expanded.has(c.name)) emit(byName.get(c.name) ?? byName.get(hidden.carried(c.name)), c.name);
  for (const c of rel.columns) if (!c.name.startsWith(hidden.prefix)) emit(c, c.name);
  return { kind: 'project', input: rel, items, columns: items.map((i) => i.column) };
}

/** The first window function call in `e`, if any. */
export function windowCall(e: Expr): (Expr & { kind: 'call' }) | undefined {
  if (e.kind === 'call' && WINDOW_FUNCTIONS.has(e.name)) return e;
  return findInChildren(e, windowCall);
}
