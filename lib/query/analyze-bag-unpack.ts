// evaluate bag_unpack (bag_unpack plugin docs, https://learn.microsoft.com/en-us/kusto/query/bag-unpack-plugin):
// the input's columns without the unpacked one, then one column per top-level slot of the bag,
// named OutputColumnPrefix + slot, in the slots' sorted order (the docs' examples print Age before
// Name and Height), typed as the slot's values when they share one type, else dynamic. With an
// output schema the columns are the schema's (`*` first: the input's columns, then the schema's
// others). Without one the slots come from the data: a discovery pass (discovery.ts). Written as
// an extend of the bag under a hidden name, then one project of the input columns and
// `tolong(Bag["slot"])`-like conversions, so it runs on both engines; the discovery's mv-expand is
// refused on Timestream naming evaluate bag_unpack.
import type { BagUnpackSpec, Expr, NamedExpr, Operator } from './ast';
import { asc, call, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { DiscoveryNeeded, MAX_DISCOVERED_KEYS, type DiscoveryState } from './discovery';
import { clip } from './errors';
import type { IrColumn, Rel } from './ir';
import { convertedTo, discoveredKeys, expandsFor, runOver } from './plugin-rewrite';
import type { Span } from './tokens';

const CONFLICTS: ReadonlySet<string> = new Set(['error', 'replace_source', 'keep_source']);

interface Slot {
  readonly column: string;
  readonly slot: string;
  readonly type: string;
}

export function analyzeBagUnpack(
  h: MvApplyHost,
  input: Rel,
  spec: BagUnpackSpec,
  span: Span,
  discovery: DiscoveryState | undefined,
): Rel {
  const at = spec.pluginSpan;
  const bag = spec.column;
  if (bag.kind !== 'name') throw h.errors.semantic('bag_unpack() takes a column of the input to unpack', bag.span);
  const bagColumn = input.columns.find((c) => c.name === bag.name);
  if (!bagColumn) throw h.unknownColumn(bag.name, input.columns, bag.span);
  if (bagColumn.type !== 'dynamic')
    throw h.errors.semantic(
      `bag_unpack() unpacks a dynamic column; '${clip(bag.name)}' is ${bagColumn.type}`,
      bag.span,
    );
  const prefix = constantString(h, spec.prefix, 'OutputColumnPrefix') ?? '';
  const conflict = constantString(h, spec.conflict, 'columnsConflict') ?? 'error';
  if (!CONFLICTS.has(conflict))
    throw h.errors.semantic("columnsConflict is 'error', 'replace_source' or 'keep_source'", spec.conflict!.span);
  const ignored = ignoredSlots(h, spec.ignored);
  const others = input.columns.filter((c) => c !== bagColumn);
  // The bag under a hidden name: a project's later items see its earlier ones, and a slot may be named as the bag.
  const hidden = `\u0000bag ${h.newRef()}`;
  const unpack = (items: NamedExpr[]): Rel =>
    runOver(
      h,
      input,
      [
        { kind: 'extend', items: [item(hidden, name(bag.name, at), at)], span },
        { kind: 'project', items, span },
      ],
      span,
    );
  let kept: readonly IrColumn[] = others;
  let slots: Slot[];
  if (spec.schema) {
    const inInput = new Set(others.map((c) => c.name));
    const listed = spec.schema.columns.filter((c) => !(spec.schema!.wildcard && inInput.has(c.name)));
    kept = spec.schema.wildcard ? others : [];
    // Without `*`, a listed input column is that column (converted); every other name is a slot.
    const fromInput = new Map(
      listed.filter((c) => !spec.schema!.wildcard && inInput.has(c.name)).map((c) => [c.name, c]),
    );
    const items: NamedExpr[] = [
      ...kept.map((c) => item(c.name, name(c.name, at), at)),
      ...listed.map((c) =>
        fromInput.has(c.name)
          ? item(c.name, convertedTo(c.type, name(c.name, at), c.span), c.span)
          : item(c.name, convertedTo(c.type, slotOf(hidden, unprefixed(c.name, prefix), c.span), c.span), c.span),
      ),
    ];
    return unpack(items);
  }
  const keys = discoveredKeys(discovery, () => needKeys(h, input, bag.name, at, span));
  slots = keys
    .filter((k) => !ignored.has(k.key))
    .map((k) => ({ column: prefix + k.key, slot: k.key, type: k.type ?? 'dynamic' }));
  const taken = new Set(others.map((c) => c.name));
  const clashing = slots.filter((s) => taken.has(s.column));
  if (clashing.length > 0) {
    if (conflict === 'error')
      throw h.errors.semantic(
        `bag_unpack: the slot '${clip(clashing[0]!.column)}' is also a column of the input; ` +
          "give columnsConflict='replace_source' or 'keep_source'",
        at,
      );
    const names = new Set(clashing.map((s) => s.column));
    if (conflict === 'replace_source') kept = others.filter((c) => !names.has(c.name));
    else slots = slots.filter((s) => !names.has(s.column));
  }
  const items: NamedExpr[] = [
    ...kept.map((c) => item(c.name, name(c.name, at), at)),
    ...slots.map((s) => item(s.column, convertedTo(s.type, slotOf(hidden, s.slot, at), at), at)),
  ];
  // No key in the data (arrays, nulls) and no other column: a result of no columns, which no engine
  // selects (project-away of every column is refused likewise).
  if (items.length === 0)
    throw h.errors.semantic(
      `bag_unpack: '${clip(bag.name)}' holds no property bag keys and the input has no other column, so the result would have no columns`,
      at,
    );
  return unpack(items);
}

const item = (column: string, expr: Expr, span: Span): NamedExpr => ({ name: column, nameSpan: span, expr, span });
const slotOf = (bag: string, slot: string, span: Span): Expr => ({
  kind: 'index',
  target: name(bag, span),
  index: { kind: 'literal', type: 'string', value: slot, span },
  span,
});
const unprefixed = (column: string, prefix: string): string =>
  prefix !== '' && column.startsWith(prefix) ? column.slice(prefix.length) : column;

/** The input reduced to each slot name and the gettype() of its values, sorted by slot name. */
function needKeys(h: MvApplyHost, input: Rel, bag: string, at: Span, span: Span): DiscoveryNeeded {
  const b = `\u0000bag ${h.newRef()}`;
  const k = `${b} key`;
  const ops: Operator[] = [
    { kind: 'project', items: [item(b, name(bag, at), at)], span },
    {
      kind: 'mvExpand',
      mvExpand: {
        bagKind: 'array',
        items: [{ ...item(k, call('bag_keys', [name(b, at)], at), at), toType: { name: 'string', span: at } }],
      },
      span,
    },
    { kind: 'where', predicate: call('isnotempty', [name(k, at)], at), span },
    {
      kind: 'summarize',
      aggregates: [
        item(
          'types',
          call(
            'make_set',
            [call('gettype', [{ kind: 'index', target: name(b, at), index: name(k, at), span: at }], at)],
            at,
          ),
          at,
        ),
      ],
      by: [item('key', name(k, at), at)],
      span,
    },
    { kind: 'sort', keys: [asc(name('key', at))], span },
  ];
  const rel = expandsFor(h, runOver(h, input, ops, span), 'evaluate bag_unpack', span);
  return new DiscoveryNeeded(
    'bag_unpack',
    at,
    rel,
    h.errors.unsupported(
      'evaluate bag_unpack without an output schema takes its columns from the data, which this request cannot read first; ' +
        'give the output schema: bag_unpack(Column) : (Name:type, ...)',
      at,
    ),
    h.errors.unsupported(
      `evaluate bag_unpack found more than ${MAX_DISCOVERED_KEYS} distinct slots; give the output schema: bag_unpack(Column) : (Name:type, ...)`,
      at,
    ),
  );
}

function constantString(h: MvApplyHost, e: Expr | undefined, what: string): string | undefined {
  if (e === undefined) return undefined;
  if (e.kind !== 'literal' || e.type !== 'string' || typeof e.value !== 'string')
    throw h.errors.semantic(`bag_unpack()'s ${what} is a constant string`, e.span);
  return e.value;
}

function ignoredSlots(h: MvApplyHost, e: Expr | undefined): ReadonlySet<string> {
  if (e === undefined) return new Set();
  const refuse = () =>
    h.errors.semantic("bag_unpack()'s ignoredProperties is a constant dynamic array of strings", e.span);
  if (e.kind !== 'literal' || e.type !== 'dynamic' || typeof e.value !== 'string') throw refuse();
  const parsed: unknown = JSON.parse(e.value);
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) throw refuse();
  return new Set(parsed as string[]);
}
