// Semantic analysis of join and lookup (join-operator, lookup-operator docs): key resolution and
// typing, the output schema (left columns, then right columns; a right name already taken gets the
// first free number suffix, Key1, Value1 ...), semi/anti joins keeping one side only, lookup not
// repeating the right key columns. Throws QueryError QUERY_SEMANTIC for unknown or mistyped keys.
import type { JoinSpec, Pipeline } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { IrColumn, JoinKey, JoinOutput, KqlType, Rel } from './ir';
import { NameAllocator } from './naming';
import { isNumeric } from './types';
import type { Span } from './tokens';

/** What the join analysis needs from the Analyzer. */
export interface TabularHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  /** A nested tabular expression (the right side, a union leg); render is refused there. */
  subquery(p: Pipeline): Rel;
  unknownColumn(name: string, cols: readonly IrColumn[], span: Span, where?: string): Error;
  /** The name the as operator gave this relation, if any. */
  nameOf?(rel: Rel): string | undefined;
}

const LEFT_ONLY: ReadonlySet<string> = new Set(['leftsemi', 'leftanti']);
const RIGHT_ONLY: ReadonlySet<string> = new Set(['rightsemi', 'rightanti']);

/** Kusto compares keys of the same type; numbers of different widths compare by value. */
const comparable = (a: KqlType, b: KqlType): boolean => a === b || (isNumeric(a) && isNumeric(b));

export function analyzeJoin(h: TabularHost, left: Rel, spec: JoinSpec): Rel {
  const right = h.subquery(spec.right);
  const leftBy = firstByName(left.columns);
  const rightBy = firstByName(right.columns);
  const on: JoinKey[] = [];
  const rightKeyRefs = new Set<string>();
  for (const c of spec.on) {
    const l = leftBy.get(c.left);
    if (!l) throw h.unknownColumn(c.left, left.columns, c.leftSpan, 'on the left side of the join');
    const r = rightBy.get(c.right);
    if (!r) throw h.unknownColumn(c.right, right.columns, c.rightSpan, 'on the right side of the join');
    if (!comparable(l.type, r.type)) {
      throw h.errors.semantic(
        `join keys '${clip(c.left)}' (${l.type}) and '${clip(c.right)}' (${r.type}) are not of the same type`,
        c.span,
      );
    }
    if (l.type === 'dynamic')
      throw h.errors.semantic(
        `cannot join on the dynamic column '${clip(c.left)}'; convert it first, e.g. tostring(...)`,
        c.span,
      );
    on.push({ left: l.ref, right: r.ref });
    rightKeyRefs.add(r.ref);
  }
  const output: JoinOutput[] = [];
  const names = new NameAllocator();
  // A right column renamed for a clash also skips the right side's own names (Kusto.Language, and
  // the detect_anomalous_access_cf_fl page: right (resource, resource1) beside a left resource
  // gives resource2, resource1).
  const renames = new NameAllocator([...left.columns, ...right.columns].map((c) => c.name));
  const add = (side: 'left' | 'right', c: IrColumn): void => {
    const name = names.has(c.name) ? renames.unique(c.name) : c.name;
    names.add(name);
    renames.add(name);
    output.push({ side, from: c.ref, column: { name, type: c.type, ref: h.newRef() } });
  };
  if (!RIGHT_ONLY.has(spec.joinKind)) for (const c of left.columns) add('left', c);
  if (!LEFT_ONLY.has(spec.joinKind)) {
    for (const c of right.columns) if (!(spec.lookup && rightKeyRefs.has(c.ref))) add('right', c);
  }
  return { kind: 'join', joinKind: spec.joinKind, left, right, on, output, columns: output.map((o) => o.column) };
}

function firstByName(columns: readonly IrColumn[]): Map<string, IrColumn> {
  const byName = new Map<string, IrColumn>();
  for (const c of columns) if (!byName.has(c.name)) byName.set(c.name, c);
  return byName;
}
