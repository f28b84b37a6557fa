// Semantic analysis of scan (https://learn.microsoft.com/en-us/kusto/query/scan-operator):
// `scan [with_match_id=M] [declare (Col:type [= Default], ...)] with (step s [output=all|last|none]:
// Cond [=> Col = Expr, ...]; ...)`. Each `Step.Column` a condition or assignment reads becomes a ref
// of its own, bound when the SQL is written to the slot of that step in the state the check reads
// (sql/scan.ts: the previous step's state for Check 1, the step's own for Check 2). The state's
// slots hold the declared columns and the input columns some step reads. Throws QUERY_SEMANTIC for
// unknown names and types, clashes, a step reading a later step's state, and a non-bool condition.
import { mapChildren } from './ast-walk';
import type { Expr, ScanSpec } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { Assigned, IrColumn, IrExpr, Rel, ScanIr, ScanStepIr } from './ir';
import { analyzeScalar, convert, type ScalarEnv } from './scalars';
import type { Span } from './tokens';
import { isConstant, isNumeric, lit, typeNamed } from './types';

export interface ScanHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[], local?: ReadonlyMap<string, IrExpr>): ScalarEnv;
  unknownColumn(name: string, cols: readonly IrColumn[], span: Span, where?: string): Error;
}

const readName = (ref: string): string => `\u0000scan read ${ref}`;

export function analyzeScan(h: ScanHost, input: Rel, spec: ScanSpec): Rel {
  const { errors } = h;
  const stepIndex = new Map<string, number>();
  spec.steps.forEach((s, i) => {
    if (stepIndex.has(s.name)) throw errors.semantic(`a step named '${clip(s.name)}' already exists`, s.span);
    stepIndex.set(s.name, i);
  });
  const taken = new Set(input.columns.map((c) => c.name));
  const declared = spec.declare.map((d) => {
    const type = typeNamed(d.type, true);
    if (!type) throw errors.semantic(`unknown type '${clip(d.type)}' in scan declare`, d.span);
    if (taken.has(d.name)) throw errors.semantic(`a column named '${clip(d.name)}' already exists`, d.span);
    taken.add(d.name);
    let initial = lit(type, null);
    if (d.default) {
      const v = analyzeScalar(d.default, h.env([]));
      if (!isConstant(v)) throw errors.semantic('a declared default must be a constant', d.default.span);
      initial = fit(errors, v, type, d.default);
    }
    return { column: { name: d.name, type, ref: h.newRef() } as IrColumn, initial };
  });
  const declaredIndex = new Map(declared.map((d, i) => [d.column.name, i]));
  // An input column a step assigns (the functions library's `scan with (step s: true => x = iff(isnull(x),
  // s.x, x);)`, which Kusto.Language accepts) is carried as a hidden declared column: a matching step
  // that does not assign it takes the row's own value, and it replaces the input column in the output.
  const overridden = new Map<number, IrColumn>();
  for (const a of spec.steps.flatMap((st) => st.assignments)) {
    const column = input.columns.find((c) => c.name === a.name);
    if (declaredIndex.has(a.name) || !column) continue;
    declaredIndex.set(a.name, declared.length);
    overridden.set(declared.length, column);
    const hidden: IrColumn = { name: `\u0000scan assigns ${column.name}`, type: column.type, ref: h.newRef() };
    declared.push({ column: hidden, initial: lit(column.type, null) });
  }
  const slots: ScanIr['slots'][number][] = declared.map((d, i) => ({
    type: d.column.type,
    initial: d.initial,
    source: { declared: i },
  }));
  const inputSlot = new Map<string, number>();
  const known = [...input.columns, ...declared.map((d) => d.column)];
  const slotOf = (name: string, span: Span, step: string): number => {
    const d = declaredIndex.get(name);
    if (d !== undefined) return d;
    const column = input.columns.find((c) => c.name === name);
    if (!column) throw h.unknownColumn(name, known, span, `in the state of step '${clip(step)}'`);
    let slot = inputSlot.get(column.ref);
    if (slot === undefined) {
      slot = slots.length;
      inputSlot.set(column.ref, slot);
      slots.push({ type: column.type, initial: lit(column.type, null), source: { input: column.ref } });
    }
    return slot;
  };
  const steps = spec.steps.map((step, k): ScanStepIr => {
    const reads: ScanStepIr['reads'][number][] = [];
    const rewrite = (e: Expr): Expr => {
      if (e.kind === 'member' && e.target.kind === 'name' && stepIndex.has(e.target.name)) {
        const j = stepIndex.get(e.target.name)!;
        if (j > k)
          throw errors.semantic(
            `step '${clip(step.name)}' cannot read the state of the later step '${clip(e.target.name)}'`,
            e.span,
          );
        const read = { ref: h.newRef(), step: j, slot: slotOf(e.name, e.span, e.target.name) };
        reads.push(read);
        return { kind: 'name', name: readName(read.ref), span: e.span };
      }
      return mapChildren(e, rewrite);
    };
    const condition = rewrite(step.condition);
    const assignments = step.assignments.map((a) => ({ ...a, expr: rewrite(a.expr) }));
    const local = new Map<string, IrExpr>(
      reads.map((r) => [readName(r.ref), { kind: 'col', ref: r.ref, type: slots[r.slot]!.type }]),
    );
    const env = h.env(input.columns, local);
    let cond = analyzeScalar(condition, env);
    if (cond.type === 'dynamic') cond = convert(cond, 'bool');
    if (cond.type !== 'bool')
      throw errors.semantic(`a scan step's condition must be a bool expression, got ${cond.type}`, step.condition.span);
    const assigned: (IrExpr | undefined)[] = declared.map(() => undefined);
    for (const a of assignments) {
      const i = declaredIndex.get(a.name);
      if (i === undefined)
        throw errors.semantic(`'${clip(a.name)}' is not a declared column; declare it in scan declare (...)`, a.span);
      if (assigned[i]) throw errors.semantic(`'${clip(a.name)}' is assigned twice`, a.span);
      assigned[i] = fit(errors, analyzeScalar(a.expr, env), declared[i]!.column.type, a.expr);
    }
    for (const [i, column] of overridden) assigned[i] ??= { kind: 'col', ref: column.ref, type: column.type };
    return { output: step.output, condition: cond, assigned, reads };
  });
  const matchId: IrColumn | undefined = spec.matchId
    ? { name: spec.matchId.name, type: 'long', ref: h.newRef() }
    : undefined;
  if (matchId && taken.has(matchId.name))
    throw errors.semantic(`a column named '${clip(matchId.name)}' already exists`, spec.matchId!.span);
  const resetOn = spec.partitionKey === undefined ? undefined : input.columns.find((c) => c.name === spec.partitionKey);
  const scan: ScanIr = {
    inputs: input.columns,
    slots,
    declared: declared.map((d) => d.column),
    steps,
    ...(matchId ? { matchId } : {}),
    ...(resetOn ? { resetOn } : {}),
  };
  const columns = [...input.columns, ...scan.declared, ...(matchId ? [matchId] : [])];
  const rel: Rel = { kind: 'sequenceScan', input, scan, columns };
  return overridden.size === 0
    ? rel
    : replaceAssigned(
        rel,
        overridden,
        declared.map((d) => d.column),
      );
}

/** The scan's output with each assigned input column's value taken from its hidden declared column. */
function replaceAssigned(rel: Rel, overridden: ReadonlyMap<number, IrColumn>, declared: readonly IrColumn[]): Rel {
  const by = new Map([...overridden].map(([i, column]) => [column.ref, declared[i]!]));
  const hidden = new Set(by.values());
  const items: Assigned<IrExpr>[] = rel.columns
    .filter((c) => !hidden.has(c))
    .map((c) => {
      const from = by.get(c.ref) ?? c;
      return {
        column: by.has(c.ref) ? { ...c, ref: from.ref } : c,
        value: { kind: 'col', ref: from.ref, type: c.type },
      };
    });
  return { kind: 'project', input: rel, items, columns: items.map((i) => i.column) };
}

/** A value for a column of `type`: the same type, a number widened or narrowed, or null. @throws QUERY_SEMANTIC */
function fit(errors: ErrorFactory, v: IrExpr, type: IrColumn['type'], node: Expr): IrExpr {
  if (v.type === type) return v;
  if (v.kind === 'lit' && v.value === null) return lit(type, null);
  if ((isNumeric(v.type) && isNumeric(type)) || v.type === 'dynamic') return convert(v, type);
  throw errors.semantic(`a ${v.type} value cannot go into a ${type} column`, node.span);
}
