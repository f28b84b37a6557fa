// Semantic analysis of partition (https://learn.microsoft.com/en-us/kusto/query/partition-operator):
// the sub-query runs on each sub-table of rows sharing a value of the key column (null is a value
// of its own), and the output is the union of the results. Built from relations the generator
// already writes, so both engines run it: the key is copied once under a hidden name that every
// operator carries, and each sub-query operator is applied per key: row-wise operators as they are;
// summarize, count and distinct grouped by the key; sort ordered by the key first; top and take cut
// per key with row_number() restarting where the key changes (a take with no sort before it keeps the
// input's order, or leaves unserialized input so); scan walks the rows sorted by the key and starts
// from an empty state where the key changes. Serialized output comes key by key; over rows the query
// writes (no stored table) the keys come in the order they first appear, as the partition page prints
// them (a sort by each key's number in that order). The hidden key is dropped at the end,
// so the output has the sub-query's columns only. Window functions (prev, next, row_number, row_cumsum)
// run per key: the key partitions their SQL windows. Throws QueryError QUERY_SEMANTIC for an unknown or
// dynamic key, QUERY_UNSUPPORTED at a sub-query operator not run per key here.
import type { Expr, NamedExpr, Operator, PartitionSpec, SortKey } from './ast';
import { unserialized, windowCalls, type MvApplyHost } from './analyze-mv-apply';
import { readsStoredTable } from './ir-reads';
import { ownAggregates, summarizesToOneRow, withEmptyGroups } from './analyze-empty-groups';
import { liftPartitionScalars, type PartitionRun } from './analyze-partition-as';
import { inKeysOrder } from './analyze-partition-order';
import { partitionSource } from './analyze-partition-source';
import { name, long, call, binary, asc, numbering, operatorWord } from './ast-build';
import type { Assigned, IrExpr, Rel } from './ir';
import type { Span } from './tokens';

/** Operators that work row by row and keep the rows' order: per sub-table or over all rows, the same result. */
const ROW_WISE: ReadonlySet<Operator['kind']> = new Set([
  'where',
  'extend',
  'parse',
  'projectAway',
  'projectRename',
  // Moves columns only; the hidden key stays among the others.
  'projectReorder',
  // Its window calls run per key (applyPerKey), over the rows in the order they come in.
  'serialize',
]);

/** Operators whose output (when serialized) is key by key: they sort or walk each key's rows apart. */
const GROUPS: ReadonlySet<Operator['kind']> = new Set(['sort', 'top', 'take', 'scan']);

export function analyzePartition(h: MvApplyHost, input: Rel, spec: PartitionSpec, span: Span): Rel {
  const prefix = `\u0000partition ${h.newRef()} `;
  const key = `${prefix}key`;
  const at = (ops: readonly Operator[], rel: Rel): Rel => {
    const table = `${prefix}${h.newRef()}`;
    h.bindTable(table, rel);
    try {
      return h.subquery({ kind: 'pipeline', source: { kind: 'table', name: table, span }, operators: ops, span });
    } finally {
      h.bindTable(table, undefined);
    }
  };
  const column = input.columns.find((c) => c.name === spec.key.name);
  if (!column) throw h.unknownColumn(spec.key.name, input.columns, spec.key.span, 'as the partition key');
  if (column.type === 'dynamic')
    throw h.errors.semantic(
      'a partition key must be a scalar column; convert it first (extend k = tostring(...))',
      spec.key.span,
    );
  let rel: Rel;
  let operators = spec.operators;
  if (spec.source) {
    const scope = { prefix, key, at, bind: h.bindTable.bind(h), subquery: h.subquery.bind(h) };
    ({ rel, operators } = partitionSource(scope, input, { ...spec, source: spec.source }, span));
  } else
    rel = at([{ kind: 'extend', items: [{ name: key, expr: name(spec.key.name, spec.key.span), span }], span }], input);
  const keys = rel;
  // Rows the query writes itself (no stored table, the legacy form's source included) come key by key
  // in the order of each key's first row, as the partition page prints TEXAS, KANSAS, IOWA; a stored
  // table's keys come in any order. A sub-query that summarizes each key to one row has its keys in
  // that order already (the groups of such rows come by their first row): no need to sort again.
  const ordered = !readsStoredTable(keys) && !oneRowPerKey(operators);
  const state: Order = { keys: undefined, grouped: false };
  const run: PartitionRun = {
    prefix,
    key,
    newRef: () => h.newRef(),
    isSerialized: (r) => h.isSerialized(r),
    bind: (table, r) => h.bindTable(table, r),
    at,
    perKey: (ops, r) => {
      const own: Order = { keys: undefined, grouped: false };
      return ops.reduce((acc, op) => applyPerKey(h, at, key, op, own, acc), r);
    },
  };
  const named = new Map<string, Rel>();
  for (const original of operators) {
    if (original.kind === 'as') {
      named.set(original.name, rel);
      continue;
    }
    const lifted = liftPartitionScalars(run, original, named, rel, original.span);
    rel = applyPerKey(h, at, key, lifted.op, state, lifted.rel);
    if (summarizesToOneRow(lifted.op)) rel = withRowPerKey(h, at, key, keys, lifted.rel, rel, lifted.op);
  }
  // The output is the sub-query's results key by key (partition page): rows that kept the input's
  // order (row-wise operators only) are grouped by the key, in that order within each key. Rows the
  // query writes are put in the keys' order (a stable sort, so it groups such rows as well).
  if (ordered) rel = inKeysOrder({ h, at, prefix, key }, keys, rel, span);
  else if (!state.grouped && h.isSerialized(rel)) rel = at(inInputOrder(key, [], span), rel);
  const items: Assigned<IrExpr>[] = rel.columns
    .filter((c) => !c.name.startsWith(prefix))
    .map((c) => ({ column: c, value: { kind: 'col', ref: c.ref, type: c.type } }));
  return { kind: 'project', input: rel, items, columns: items.map((i) => i.column) };
}

/**
 * Whether the sub-query gives each key one row (a count or a summarize with no by) and keeps the
 * order of those rows: only row-wise operators besides. A sort, top or take before it would order
 * the rows by the key first (then the groups come in key order), and anything after it may too.
 */
function oneRowPerKey(operators: readonly Operator[]): boolean {
  return (
    operators.some(summarizesToOneRow) &&
    operators.every(
      (op) => summarizesToOneRow(op) || ROW_WISE.has(op.kind) || op.kind === 'project' || op.kind === 'as',
    )
  );
}

/**
 * `grouped` (a summarize with no by of its own, or a count, per key) with a row for each key of the
 * partition's input, also one whose sub-table was empty there (analyze-empty-groups.ts).
 */
function withRowPerKey(h: MvApplyHost, at: At, key: string, input: Rel, before: Rel, grouped: Rel, op: Operator): Rel {
  const span = op.span;
  const groups = at(
    [{ kind: 'summarize', aggregates: [], by: [{ name: key, expr: name(key, span), span }], span }],
    input,
  );
  const scope = { at, bind: (t: string, r: Rel | undefined) => h.bindTable(t, r), newRef: () => h.newRef() };
  return withEmptyGroups(scope, { groups, key, grouped, before, aggregates: ownAggregates(op, span) }, span);
}

/** `op` applied to each key's sub-table of `input`, its window functions (if any) run per key. */
function applyPerKey(h: MvApplyHost, at: At, key: string, op: Operator, order: Order, input: Rel): Rel {
  if (windowCalls(op).length > 0) h.groupWindows(input, key);
  const serial = h.isSerialized(input);
  const cut = op.kind === 'take' && !order.keys;
  const rel = at(perKey(h, key, op, order, serial), input);
  // A take over rows in no defined order cuts them sorted by the key, but Kusto's take leaves them unserialized.
  return cut && !serial ? unserialized(rel) : rel;
}

type At = (ops: readonly Operator[], rel: Rel) => Rel;

/** The rows of each sub-table as the sub-query's operators so far leave them. */
interface Order {
  /** The order set by the last sort or top, for a take after it; undefined: none. */
  keys: readonly SortKey[] | undefined;
  /** Whether the rows are key by key (a sort, top, take or scan ran per key); else in the input's order. */
  grouped: boolean;
}

/** The operators that apply `op` to each key's sub-table. */
function perKey(h: MvApplyHost, key: string, op: Operator, order: Order, serial: boolean): Operator[] {
  const span = op.span;
  if (GROUPS.has(op.kind)) order.grouped = true;
  const k = name(key, span);
  const keyItem: NamedExpr = { name: key, expr: k, span };
  switch (op.kind) {
    case 'project':
      return [{ ...op, items: [...op.items, keyItem] }];
    case 'projectKeep':
      return [{ ...op, names: [...op.names, { name: key, wildcard: false, span }] }];
    case 'summarize':
      order.keys = undefined;
      return [{ ...op, by: [keyItem, ...op.by] }];
    case 'count':
      order.keys = undefined;
      return [
        {
          kind: 'summarize',
          aggregates: [{ name: 'Count', expr: call('count', [], span), span }],
          by: [keyItem],
          span,
        },
      ];
    case 'distinct':
      order.keys = undefined;
      // distinct * already keeps one row per key and values; a column list gets the key added.
      return op.columns === '*' ? [op] : [{ ...op, columns: [keyItem, ...op.columns] }];
    case 'sort':
      order.keys = op.keys;
      return [{ ...op, keys: [asc(k), ...op.keys] }];
    case 'top':
    case 'take': {
      const count = h.constantCount(op.count);
      const cut: Operator = {
        kind: 'where',
        predicate: binary('<=', nthOfKey(k, span), long(count, span), span),
        span,
      };
      // A take with no sort or top before it keeps each key's first rows in the input's order
      // (sorting by the key alone would lose it), or any rows when the input has no order.
      if (op.kind === 'take' && !order.keys && serial) return inInputOrder(key, [cut], span);
      const keys = op.kind === 'top' ? op.by : (order.keys ?? []);
      if (op.kind === 'top') order.keys = op.by;
      return [{ kind: 'sort', keys: [asc(k), ...keys], span }, cut];
    }
    case 'mvExpand':
      // Row by row (the hidden key is copied to each expanded row), but the rows leave the sort's order.
      order.keys = undefined;
      return [op];
    case 'scan': {
      // Each key's rows in their order, scanned from an empty state. A sort or top inside set that order;
      // else the input's: sorting by the key alone would lose it (the engines' sort is not stable), so the
      // rows are numbered first (as serialize does) and ordered by the key, then that number.
      const scan: Operator = { ...op, scan: { ...op.scan, partitionKey: key } };
      return order.keys ? [scan] : inInputOrder(key, [scan], span);
    }
    default:
      if (ROW_WISE.has(op.kind)) return [op];
      throw h.errors.unsupported(`${operatorWord(op)} inside partition is not supported`, op.span);
  }
}

/** `ops` over each key's rows in the input's order: numbered, sorted by key then number, the number dropped after. */
function inInputOrder(key: string, ops: readonly Operator[], span: Span): Operator[] {
  const nth = `${key} input row`;
  return [
    numbering(nth, span),
    { kind: 'sort', keys: [asc(name(key, span)), asc(name(nth, span))], span },
    ...ops,
    { kind: 'projectAway', names: [{ name: nth, wildcard: false, span }], span },
  ];
}

/** The row's number within its key, rows sorted by the key: numbering restarts where the key changes (null included). */
function nthOfKey(k: Expr, span: Span): Expr {
  const prev = call('prev', [k], span);
  const same = binary(
    'or',
    binary('==', k, prev, span),
    binary('and', call('isnull', [k], span), call('isnull', [prev], span), span),
    span,
  );
  return call('row_number', [long(1n, span), call('not', [same], span)], span);
}
