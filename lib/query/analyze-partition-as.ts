// `as Name` inside a partition sub-query (partition operator docs, "Partition reference":
// `partition by Dim (as Partition | extend MetricPct = Metric * 100.0 / toscalar(Partition |
// summarize sum(Metric)))`): Name is the current partition's sub-table. Each `toscalar(Name | ...)`
// in a later operator is computed per key (the sub-query's operators run per key as the partition's
// own are) and joined to the rows by the hidden key, and the call reads the joined column. The join
// matches the key's text after whether it is null, so a null key's partition (a value of its own)
// finds its value too: a join never matches null keys, which left its toscalar null.
// Other uses of Name are unknown tables (QUERY_SEMANTIC at the name).
import type { Expr, Operator, Pipeline } from './ast';
import { mapChildren } from './ast-walk';
import { call, name, numbering, sortedBack } from './ast-build';
import { mapExpressions } from './analyze-partition-source';
import type { Rel } from './ir';
import type { Span } from './tokens';

export interface PartitionRun {
  readonly prefix: string;
  readonly key: string;
  newRef(): string;
  isSerialized(rel: Rel): boolean;
  bind(table: string, rel: Rel | undefined): void;
  at(ops: readonly Operator[], rel: Rel): Rel;
  /** The sub-query's operators applied to each key's sub-table of `rel`. */
  perKey(ops: readonly Operator[], rel: Rel): Rel;
}

/** `op` with its toscalar(Name | ...) over the partition's `as` names read from columns joined to `rel`. */
export function liftPartitionScalars(
  p: PartitionRun,
  op: Operator,
  named: ReadonlyMap<string, Rel>,
  rel: Rel,
  span: Span,
): { op: Operator; rel: Rel } {
  if (named.size === 0) return { op, rel };
  let current = rel;
  // The joins below do not keep the rows' order: serialized rows are numbered first and sorted back after.
  const nth = p.isSerialized(rel) ? `${p.prefix}scalar row ${p.newRef()}` : undefined;
  let numbered = false;
  const leftKey = `${p.prefix}scalar key ${p.newRef()}`;
  let joined = false;
  const source = (e: Expr): { table: Rel; ops: readonly Operator[] } | undefined => {
    if (e.kind === 'name' && named.has(e.name)) return { table: named.get(e.name)!, ops: [] };
    if (e.kind !== 'tabular' || e.pipeline.source.kind !== 'table') return undefined;
    const table = named.get(e.pipeline.source.name);
    return table ? { table, ops: e.pipeline.operators } : undefined;
  };
  const sub = (e: Expr): Expr => {
    const found = e.kind === 'call' && e.name === 'toscalar' && e.args.length === 1 ? source(e.args[0]!) : undefined;
    if (!found) return mapChildren(e, sub);
    const values = p.perKey(found.ops, found.table);
    const first = values.columns.find((c) => !c.name.startsWith(p.prefix));
    if (!first) return mapChildren(e, sub);
    const tag = `${p.prefix}scalar ${p.newRef()}`;
    const [keyName, valueName, table] = [`${tag} key`, `${tag} value`, `${tag} table`];
    const right: Pipeline = {
      kind: 'pipeline',
      source: { kind: 'table', name: table, span },
      operators: [
        {
          kind: 'summarize',
          // One value per key: toscalar reads the first row; any of a key's rows when it has several.
          aggregates: [
            {
              name: valueName,
              expr: { kind: 'call', name: 'take_any', nameSpan: span, args: [name(first.name, span)], span },
              span,
            },
          ],
          by: [{ name: keyName, expr: joinKey(p.key, span), span }],
          span,
        },
      ],
      span,
    };
    if (nth && !numbered) {
      current = p.at([numbering(nth, span)], current);
      numbered = true;
    }
    if (!joined) {
      current = p.at([{ kind: 'extend', items: [{ name: leftKey, expr: joinKey(p.key, span), span }], span }], current);
      joined = true;
    }
    p.bind(table, values);
    try {
      const on = [{ left: leftKey, right: keyName, leftSpan: span, rightSpan: span, span }];
      current = p.at(
        [{ kind: 'join', join: { lookup: false, joinKind: 'leftouter', kindSpan: span, right, on }, span }],
        current,
      );
    } finally {
      p.bind(table, undefined);
    }
    return name(valueName, e.span);
  };
  const lifted = mapExpressions(op, sub);
  if (nth && numbered) current = p.at(sortedBack(nth, span), current);
  return { op: lifted, rel: current };
}

/**
 * The partition key as a join matches it: `strcat(tostring(isnull(k)), tostring(k))`, a text no two
 * keys share, null included ("true" then "", where every other key's text starts with "false").
 */
export function joinKey(key: string, span: Span): Expr {
  const k = name(key, span);
  return call('strcat', [call('tostring', [call('isnull', [k], span)], span), call('tostring', [k], span)], span);
}
