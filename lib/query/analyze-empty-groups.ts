// A summarize with no by of its own (or a count) inside partition or mv-apply runs on each sub-table
// and gives one row for each, also for a sub-table its earlier operators emptied: the summarize page's
// "When the input of summarize operator doesn't have an empty group-by key, the result is the default
// values of the aggregates" (0 for count and sum, [] for make_list ...), and partition and mv-apply
// return the union of the sub-queries' results. Run per sub-table as a GROUP BY of the sub-table's hidden
// key, such a sub-table has no group: its row is added here, its aggregates those of the same summarize
// over no rows (the engine computes the defaults, so each aggregate's own is kept).
import type { Expr, NamedExpr, Operator, Pipeline } from './ast';
import { name, call, binary } from './ast-build';
import type { KqlType, Rel } from './ir';
import type { Span } from './tokens';

export interface EmptyGroupsScope {
  /** `ops` applied to `rel` (a sub-query over it). */
  at(ops: readonly Operator[], rel: Rel): Rel;
  /** Makes `rel` readable as the table `table` (undefined: forgets it). */
  bind(table: string, rel: Rel | undefined): void;
  newRef(): string;
}

/** The sub-tables and the summarize that ran over them. */
export interface PerGroupSummarize {
  /** One row per sub-table: its hidden key, and columns the output takes from it rather than from `grouped`. */
  readonly groups: Rel;
  /** The hidden key naming a sub-table, a column of `groups` and of `grouped`. */
  readonly key: string;
  /** The key is never null (mv-apply's row id): the join reads it as it is, not as its marked text. */
  readonly keyNeverNull?: boolean;
  /** The summarize's output grouped by the key (the sub-tables that still had rows). */
  readonly grouped: Rel;
  /** The summarize's input, and its own aggregates (no by): what the empty sub-tables' row is computed from. */
  readonly before: Rel;
  readonly aggregates: readonly NamedExpr[];
}

/** Whether `op` gives one row for an empty input (no by of its own), so each sub-table must have its row. */
export function summarizesToOneRow(op: Operator): boolean {
  return op.kind === 'count' || (op.kind === 'summarize' && op.by.length === 0);
}

/** The aggregates of a summarize with no by, or count's. */
export function ownAggregates(op: Operator, span: Span): readonly NamedExpr[] {
  if (op.kind === 'count') return [{ name: 'Count', expr: call('count', [], span), span }];
  return op.kind === 'summarize' ? op.aggregates : [];
}

/**
 * `grouped` with a row for every sub-table of `groups`: a sub-table with no group gets the columns of
 * `groups` and the aggregates' values over no rows; the others keep theirs. Columns: those of `grouped`
 * that `groups` does not have, in their order, after `groups`' own.
 */
export function withEmptyGroups(s: EmptyGroupsScope, g: PerGroupSummarize, span: Span): Rel {
  const p = `\u0000groups ${s.newRef()} `;
  const keyType = g.groups.columns.find((c) => c.name === g.key)?.type ?? 'string';
  const keyOf = (): Expr => (g.keyNeverNull ? name(g.key, span) : joinKey(g.key, keyType, span));
  const [id, hit, one] = [`${p}id`, `${p}hit`, `${p}one`];
  const [rightId, emptyOne] = [`${p}right id`, `${p}empty one`];
  const fromGroups = new Set(g.groups.columns.map((c) => c.name));
  const aggregateColumns = g.grouped.columns.map((c) => c.name).filter((n) => !fromGroups.has(n));
  const empty = (n: string): string => `${p}empty ${n}`;
  const left = s.at(
    [
      {
        kind: 'extend',
        items: [
          { name: id, expr: keyOf(), span },
          { name: one, expr: long1(span), span },
        ],
        span,
      },
    ],
    g.groups,
  );
  const right = s.at(
    [
      {
        kind: 'extend',
        items: [
          { name: rightId, expr: keyOf(), span },
          { name: hit, expr: { kind: 'literal', type: 'bool', value: true, span }, span },
        ],
        span,
      },
      {
        kind: 'project',
        items: [rightId, hit, ...aggregateColumns].map((n) => ({ name: n, expr: name(n, span), span })),
        span,
      },
    ],
    g.grouped,
  );
  const overNoRows = s.at(
    [
      { kind: 'where', predicate: { kind: 'literal', type: 'bool', value: false, span }, span },
      { kind: 'summarize', aggregates: g.aggregates, by: [], span },
    ],
    g.before,
  );
  // The aggregates' own columns; `grouped` may have more (mv-apply's carried columns beside an
  // arg_max(x, *) that also returns them, renamed x1): those keep their value, null on an added row.
  const computed = new Set(overNoRows.columns.map((c) => c.name));
  const defaulted = aggregateColumns.filter((n) => computed.has(n));
  const defaults = s.at(
    [
      {
        kind: 'project',
        items: [
          { name: emptyOne, expr: long1(span), span },
          ...defaulted.map((n) => ({ name: empty(n), expr: name(n, span), span })),
        ],
        span,
      },
    ],
    overNoRows,
  );
  const [rightTable, defaultsTable] = [`${p}right`, `${p}defaults`];
  const table = (t: string): Pipeline => ({
    kind: 'pipeline',
    source: { kind: 'table', name: t, span },
    operators: [],
    span,
  });
  s.bind(rightTable, right);
  s.bind(defaultsTable, defaults);
  try {
    const on = (l: string, r: string) => [{ left: l, right: r, leftSpan: span, rightSpan: span, span }];
    const missing = call('isnull', [name(hit, span)], span);
    return s.at(
      [
        {
          kind: 'join',
          join: { lookup: false, joinKind: 'leftouter', kindSpan: span, right: table(rightTable), on: on(id, rightId) },
          span,
        },
        {
          kind: 'join',
          join: {
            lookup: false,
            joinKind: 'inner',
            kindSpan: span,
            right: table(defaultsTable),
            on: on(one, emptyOne),
          },
          span,
        },
        {
          kind: 'project',
          items: [
            ...g.groups.columns.map((c) => ({ name: c.name, expr: name(c.name, span), span })),
            ...aggregateColumns.map((n) => ({
              name: n,
              expr: computed.has(n) ? call('iff', [missing, name(empty(n), span), name(n, span)], span) : name(n, span),
              span,
            })),
          ],
          span,
        },
      ],
      left,
    );
  } finally {
    s.bind(rightTable, undefined);
    s.bind(defaultsTable, undefined);
  }
}

const long1 = (span: Span): Expr => ({ kind: 'literal', type: 'long', value: 1n, span });

/**
 * A key that matches where the sub-table's key is the same value, null included (a join never matches
 * null keys, and partition's null is a value of its own): its text, marked null or not. A real's -0.0 is
 * read as 0.0 first, as grouping puts them together.
 */
function joinKey(key: string, type: KqlType, span: Span): Expr {
  const k = name(key, span);
  const value =
    type === 'real'
      ? call(
          'iff',
          [
            binary('==', k, { kind: 'literal', type: 'real', value: 0, span }, span),
            { kind: 'literal', type: 'real', value: 0, span },
            k,
          ],
          span,
        )
      : k;
  const mark = call('iff', [call('isnull', [k], span), str('n', span), str('v', span)], span);
  return call('strcat', [mark, call('tostring', [value], span)], span);
}

const str = (value: string, span: Span): Expr => ({ kind: 'literal', type: 'string', value, span });
