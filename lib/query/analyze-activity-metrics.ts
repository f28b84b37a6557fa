// activity_metrics's comparison of each window with the one just before it (activity_metrics plugin
// docs, "Retention Rate Definition" and "Churn Rate Definition"), over one row per id, window and
// dimension values sorted by dimensions, id and window (analyze-activity-plugins.ts):
// retention = (ids at the end of the period - new ids) / ids at its beginning, that is the ids also
// in the previous window over the previous window's ids; churn = (ids at the beginning - returned
// ids) / ids at the beginning, 1 - retention. A window without a
// previous one divides 0 by 0: NaN, as the page prints for its first window.
import type { Expr, NamedExpr, Operator, SortKey } from './ast';
import { asc, binary, call, long } from './ast-build';
import type { Span } from './tokens';

export interface ActivityNames {
  n(x: string): Expr;
  item(x: string, expr: Expr): NamedExpr;
  /** True where the sorted rows move to other values of these columns. */
  changes(names: readonly string[]): Expr;
  readonly dims: readonly string[];
  readonly dimKeys: readonly SortKey[];
  readonly key: string;
  readonly window: string;
  readonly time: string;
  readonly step: Expr;
  readonly prefix: string;
  readonly span: Span;
}

export function versusPrevious(c: ActivityNames): Operator[] {
  const { n, item, span } = c;
  const [inPrevious, returned, before] = ['in previous', 'returned', 'before'].map((x) => c.prefix + x) as [
    string,
    string,
    string,
  ];
  /** The previous row is the same group's window just before this one. */
  const follows = (groups: readonly string[], column: string): Expr =>
    binary(
      'and',
      call('not', [c.changes(groups)], span),
      binary('==', call('prev', [n(column)], span), binary('-', n(column), c.step, span), span),
      span,
    );
  const one = (x: string, expr: Expr): Operator => ({ kind: 'extend', items: [item(x, expr)], span });
  return [
    one(inPrevious, follows([...c.dims, c.key], c.window)),
    {
      kind: 'summarize',
      aggregates: [
        item('dcount_values', call('count', [], span)),
        item(returned, call('countif', [n(inPrevious)], span)),
      ],
      by: [item(c.time, n(c.window)), ...c.dims.map((d) => item(d, n(d)))],
      span,
    },
    { kind: 'sort', keys: [...c.dimKeys, asc(n(c.time))], span },
    one(before, call('iff', [follows(c.dims, c.time), call('prev', [n('dcount_values')], span), long(0n, span)], span)),
    {
      kind: 'extend',
      items: [
        item('dcount_newvalues', binary('-', n('dcount_values'), n(returned), span)),
        item('retention_rate', binary('/', call('todouble', [n(returned)], span), n(before), span)),
      ],
      span,
    },
    // The definition's division, not 1 - retention (which rounds differently).
    one(
      'churn_rate',
      binary('/', call('todouble', [binary('-', n(before), n(returned), span)], span), n(before), span),
    ),
    {
      kind: 'project',
      items: ['dcount_values', 'dcount_newvalues', 'retention_rate', 'churn_rate', ...c.dims].reduce<NamedExpr[]>(
        (list, x) => [...list, item(x, n(x))],
        [item(c.time, n(c.time))],
      ),
      span,
    },
  ];
}
