// Semantic analysis of partition (https://learn.microsoft.com/en-us/kusto/query/partition-operator):
// the sub-query runs on each sub-table of rows sharing a value of the key column (null is a value
// of its own), and the output is the union of the results. Built from relations the generator
// already writes, so both engines run it: the key is copied once under a hidden name that every
// operator carries, and each sub-query operator is applied per key: row-wise operators as they are;
// summarize, count and distinct grouped by the key; sort ordered by the key first; top and take cut
// per key with row_number() restarting where the key changes; scan walks the rows sorted by the key
// and starts from an empty state where the key changes. The hidden key is dropped at the end,
// so the output has the sub-query's columns only. Window functions (prev, next, row_number, row_cumsum)
// run per key: the key partitions their SQL windows. Throws QueryError QUERY_SEMANTIC for an unknown or
// dynamic key, QUERY_UNSUPPORTED at a sub-query operator not run per key here.
import type { Expr, NamedExpr, Operator, PartitionSpec, SortKey } from './ast';
import { windowCalls, type MvApplyHost } from './analyze-mv-apply';
import { liftPartitionScalars, type PartitionRun } from './analyze-partition-as';
import { partitionSource } from './analyze-partition-source';
import { name, long, call, binary, asc, operatorWord } from './ast-build';
import type { Assigned, IrExpr, Rel } from './ir';
import type { Span } from './tokens';

/** Operators that work row by row and keep the rows' order: per sub-table or over all rows, the same result. */
const ROW_WISE: ReadonlySet<Operator['kind']> = new Set(['where', 'extend', 'parse', 'projectAway', 'projectRename']);

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
  const state: Order = { keys: undefined };
  const run: PartitionRun = {
    prefix,
    key,
    newRef: () => h.newRef(),
    bind: (table, r) => h.bindTable(table, r),
    at,
    perKey: (ops, r) => {
      const own: Order = { keys: undefined };
      return ops.reduce((acc, op) => at(perKey(h, key, groupWindows(h, op, acc, key), own), acc), r);
    },
  };
  const named = new Map<string, Rel>();
  for (const original of operators) {
    if (original.kind === 'as') {
      named.set(original.name, rel);
      continue;
    }
    const lifted = liftPartitionScalars(run, original, named, rel, original.span);
    rel = at(perKey(h, key, groupWindows(h, lifted.op, lifted.rel, key), state), lifted.rel);
  }
  const items: Assigned<IrExpr>[] = rel.columns
    .filter((c) => !c.name.startsWith(prefix))
    .map((c) => ({ column: c, value: { kind: 'col', ref: c.ref, type: c.type } }));
  return { kind: 'project', input: rel, items, columns: items.map((i) => i.column) };
}

/** `op`, its window functions (if any) made to run per key of `input`, the rows `op` reads. */
function groupWindows(h: MvApplyHost, op: Operator, input: Rel, key: string): Operator {
  if (windowCalls(op).length > 0) h.groupWindows(input, key);
  return op;
}

/** The order of each sub-table set by the last sort or top, for a take after it; undefined: none. */
interface Order {
  keys: readonly SortKey[] | undefined;
}

/** The operators that apply `op` to each key's sub-table. */
function perKey(h: MvApplyHost, key: string, op: Operator, order: Order): Operator[] {
  const span = op.span;
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
      const keys = op.kind === 'top' ? op.by : (order.keys ?? []);
      if (op.kind === 'top') order.keys = op.by;
      return [
        { kind: 'sort', keys: [asc(k), ...keys], span },
        { kind: 'where', predicate: binary('<=', nthOfKey(k, span), long(count, span), span), span },
      ];
    }
    case 'mvExpand':
      // Row by row (the hidden key is copied to each expanded row), but the rows leave the sort's order.
      order.keys = undefined;
      return [op];
    case 'scan':
      // Each key's rows in their order, scanned from an empty state. A sort or top inside set that order;
      // else the input's: sorting by the key alone would lose it (the engines' sort is not stable), so the
      // rows are numbered first (as serialize does) and ordered by the key, then that number.
      return order.keys ? [{ ...op, scan: { ...op.scan, partitionKey: key } }] : inputOrderScan(key, op, span);
    default:
      if (ROW_WISE.has(op.kind)) return [op];
      throw h.errors.unsupported(`${operatorWord(op)} inside partition is not supported`, op.span);
  }
}

/** Scan each key's rows in the input's order: numbered, sorted by key then number, the number dropped after. */
function inputOrderScan(key: string, op: Operator & { kind: 'scan' }, span: Span): Operator[] {
  const nth = `${key} input row`;
  return [
    { kind: 'serialize', items: [{ name: nth, expr: call('row_number', [], span), span }], span },
    { kind: 'sort', keys: [asc(name(key, span)), asc(name(nth, span))], span },
    { ...op, scan: { ...op.scan, partitionKey: key } },
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
