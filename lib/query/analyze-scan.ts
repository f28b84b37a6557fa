// Semantic analysis of scan (https://learn.microsoft.com/en-us/kusto/query/scan-operator), for the
// one-step form: `scan [with_match_id=M] [declare (...)] with (step s [output=all|none]: Cond => c = e, ...)`.
// With one step, Kusto's matching logic reduces to: a row whose condition holds (read with the state
// of the last matched row, or the declared defaults before any match) is output, extended with the
// step's assignments (a declared column not assigned keeps its default), and becomes the state.
// Several steps (sequences promoted from step to step) and output=last are refused at their
// position with QUERY_UNSUPPORTED; QUERY_SEMANTIC for unknown names, types and clashes.
import type { Expr, ScanSpec } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { Assigned, IrColumn, IrExpr, Rel, ScanIr } from './ir';
import { analyzeScalar, convert, type ScalarEnv } from './scalars';
import type { Span } from './tokens';
import { isConstant, isNumeric, lit, typeNamed } from './types';

export interface ScanHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[], local?: ReadonlyMap<string, IrExpr>): ScalarEnv;
  unknownColumn(name: string, cols: readonly IrColumn[], span: Span, where?: string): Error;
}

const stateName = (column: string): string => `\u0000scan state ${column}`;

export function analyzeScan(h: ScanHost, input: Rel, spec: ScanSpec): Rel {
  const { errors } = h;
  if (spec.steps.length > 1)
    throw errors.unsupported('scan with more than one step is not supported', spec.steps[1]!.span);
  const step = spec.steps[0]!;
  if (step.output === 'last') throw errors.unsupported("a scan step's output=last is not supported", step.outputSpan!);
  const taken = new Set(input.columns.map((c) => c.name));
  const declared = spec.declare.map((d) => {
    const type = typeNamed(d.type);
    if (!type) throw errors.semantic(`unknown type '${clip(d.type)}' in scan declare`, d.span);
    if (taken.has(d.name)) throw errors.semantic(`a column named '${clip(d.name)}' already exists`, d.span);
    taken.add(d.name);
    let initial = lit(type, null);
    if (d.default) {
      const v = analyzeScalar(d.default, h.env([]));
      if (!isConstant(v)) throw errors.semantic('a declared default must be a constant', d.default.span);
      initial = fit(errors, v, type, d.default);
    }
    return { name: d.name, column: { name: d.name, type, ref: h.newRef() } as IrColumn, initial };
  });
  const byName = new Map(declared.map((d) => [d.name, d]));
  // Step.Column reads the state: each column read becomes a state column of its own.
  const state = new Map<string, { ref: string; column: IrColumn; declared: boolean }>();
  const known = [...input.columns, ...declared.map((d) => d.column)];
  const rewrite = (e: Expr): Expr => {
    if (e.kind === 'member' && e.target.kind === 'name' && e.target.name === step.name) {
      const column = known.find((c) => c.name === e.name);
      if (!column) throw h.unknownColumn(e.name, known, e.span, `in the state of step '${clip(step.name)}'`);
      if (!state.has(e.name)) state.set(e.name, { ref: h.newRef(), column, declared: byName.has(e.name) });
      return { kind: 'name', name: stateName(e.name), span: e.span };
    }
    switch (e.kind) {
      case 'binary':
        return { ...e, left: rewrite(e.left), right: rewrite(e.right) };
      case 'unary':
        return { ...e, operand: rewrite(e.operand) };
      case 'call':
        return { ...e, args: e.args.map(rewrite) };
      case 'member':
        return { ...e, target: rewrite(e.target) };
      case 'index':
        return { ...e, target: rewrite(e.target), index: rewrite(e.index) };
      case 'in':
        return { ...e, left: rewrite(e.left), values: e.values.map(rewrite) };
      case 'between':
        return { ...e, left: rewrite(e.left), low: rewrite(e.low), high: rewrite(e.high) };
      default:
        return e;
    }
  };
  const condition = rewrite(step.condition);
  const assignments = step.assignments.map((a) => ({ ...a, expr: rewrite(a.expr) }));
  const local = new Map<string, IrExpr>(
    [...state].map(([name, s]) => [stateName(name), { kind: 'col', ref: s.ref, type: s.column.type }]),
  );
  const env = h.env(input.columns, local);
  let cond = analyzeScalar(condition, env);
  if (cond.type === 'dynamic') cond = convert(cond, 'bool');
  if (cond.type !== 'bool')
    throw errors.semantic(`a scan step's condition must be a bool expression, got ${cond.type}`, step.condition.span);
  const values = new Map<string, IrExpr>(declared.map((d) => [d.name, d.initial]));
  const assigned = new Set<string>();
  for (const a of assignments) {
    const d = byName.get(a.name);
    if (!d)
      throw errors.semantic(`'${clip(a.name)}' is not a declared column; declare it in scan declare (...)`, a.span);
    if (assigned.has(a.name)) throw errors.semantic(`'${clip(a.name)}' is assigned twice`, a.span);
    assigned.add(a.name);
    values.set(a.name, fit(errors, analyzeScalar(a.expr, env), d.column.type, a.expr));
  }
  const scan: ScanIr = {
    state: [...state.values()].map((s) => ({
      ref: s.ref,
      type: s.column.type,
      initial: s.declared ? byName.get(s.column.name)!.initial : lit(s.column.type, null),
      next: s.declared ? values.get(s.column.name)! : { kind: 'col', ref: s.column.ref, type: s.column.type },
    })),
    condition: cond,
    declared: declared.map((d): Assigned<IrExpr> => ({ column: d.column, value: values.get(d.name)! })),
    output: step.output === 'none' ? 'none' : 'all',
    ...(spec.matchId ? { matchId: { name: spec.matchId.name, type: 'long', ref: h.newRef() } } : {}),
  };
  if (scan.matchId && taken.has(scan.matchId.name))
    throw errors.semantic(`a column named '${clip(scan.matchId.name)}' already exists`, spec.matchId!.span);
  const columns = [...input.columns, ...declared.map((d) => d.column), ...(scan.matchId ? [scan.matchId] : [])];
  return { kind: 'sequenceScan', input, scan, columns };
}

/** A value for a column of `type`: the same type, a number widened or narrowed, or null. @throws QUERY_SEMANTIC */
function fit(errors: ErrorFactory, v: IrExpr, type: IrColumn['type'], node: Expr): IrExpr {
  if (v.type === type) return v;
  if (v.kind === 'lit' && v.value === null) return lit(type, null);
  if ((isNumeric(v.type) && isNumeric(type)) || v.type === 'dynamic') return convert(v, type);
  throw errors.semantic(`a ${v.type} value cannot go into a ${type} column`, node.span);
}
