// The order of partition's keys over rows the query writes (partition operator docs: the page prints
// TEXAS, KANSAS, IOWA, the keys as they first come; analyze-partition.ts runs the sub-query per key):
// the sub-query's rows sorted by each key's number in the order of its first row.
import type { Operator, Pipeline } from './ast';
import { joinKey } from './analyze-partition-as';
import { unserialized, type MvApplyHost } from './analyze-mv-apply';
import { asc, call, name } from './ast-build';
import type { Rel } from './ir';
import type { Span } from './tokens';

/** What inKeysOrder needs of the partition: its host, its `at` (operators over a bound relation), its hidden names. */
export interface KeysOrderScope {
  readonly h: MvApplyHost;
  readonly at: (ops: readonly Operator[], rel: Rel) => Rel;
  readonly prefix: string;
  readonly key: string;
}

/**
 * `rel` (the sub-query's rows with the hidden key) key by key in the order of the keys' first rows in
 * `keyed` (the input with the hidden key): the keys are numbered in that order (a summarize of rows
 * the query writes gives its groups so), joined to the rows by the key (as its text after whether it
 * is null: a join never matches null keys) and sorted by that number, stably: each key's rows keep
 * their order. The join and sort read the sub-query's rows, mostly few, and the summarize one pass
 * of the input. Serialized rows stay so, others are not made so.
 */
export function inKeysOrder(s: KeysOrderScope, keyed: Rel, rel: Rel, span: Span): Rel {
  const hidden = (n: string): string => `${s.prefix}${n}`;
  const [rank, joined, table] = [hidden('key rank'), hidden('key text'), hidden('keys')];
  const keys = s.at(
    [
      { kind: 'summarize', aggregates: [], by: [{ name: s.key, expr: name(s.key, span), span }], span },
      { kind: 'serialize', items: [{ name: rank, expr: call('row_number', [], span), span }], span },
      { kind: 'extend', items: [{ name: joined, expr: joinKey(s.key, span), span }], span },
    ],
    keyed,
  );
  const right: Pipeline = { kind: 'pipeline', source: { kind: 'table', name: table, span }, operators: [], span };
  const on = [{ left: joined, right: joined, leftSpan: span, rightSpan: span, span }];
  s.h.bindTable(table, keys);
  try {
    const sorted = s.at(
      [
        { kind: 'extend', items: [{ name: joined, expr: joinKey(s.key, span), span }], span },
        { kind: 'join', join: { lookup: false, joinKind: 'inner', kindSpan: span, right, on }, span },
        { kind: 'sort', keys: [asc(name(rank, span))], span },
      ],
      rel,
    );
    return s.h.isSerialized(rel) ? sorted : unserialized(sorted);
  } finally {
    s.h.bindTable(table, undefined);
  }
}
