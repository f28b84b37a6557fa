// Overload resolution against the catalog: picks the first signature the analyzed arguments fit,
// converting dynamic arguments to the parameter's type as Kusto does implicitly.
import type { IrExpr, KqlType } from '../ir';
import { convert } from '../convert';
import { isInteger, isNumeric } from '../types';
import type { Param, ParamType, ScalarFunction, Signature } from './types';

export interface Resolved {
  readonly args: readonly IrExpr[];
  readonly type: KqlType;
}

/** Failure: the index of the offending argument (or -1 for the call) and a message. */
export interface ResolveError {
  readonly arg: number;
  readonly message: string;
}

/** coerceDynamic: convert dynamic arguments to the parameter's type (scalar functions do, aggregations don't). */
export function resolve(fn: ScalarFunction, args: readonly IrExpr[], coerceDynamic = true): Resolved | ResolveError {
  let firstError: ResolveError | undefined;
  for (const sig of fn.signatures) {
    const r = fit(sig, args, coerceDynamic);
    if ('message' in r) {
      firstError ??= r;
      continue;
    }
    const bad = fn.check?.(r.args);
    if (bad) return { arg: bad[0], message: `${fn.name}(): ${bad[1]}` };
    return r;
  }
  if (fn.signatures.length === 1 && firstError && firstError.arg >= 0)
    return { arg: firstError.arg, message: `${fn.name}(): ${firstError.message}` };
  const got = args.map((a) => a.type).join(', ');
  return {
    arg: -1,
    message: `${fn.name}() takes ${fn.signatures.map((s) => `(${describeParams(s)})`).join(' or ')}; got (${got})`,
  };
}

function fit(sig: Signature, args: readonly IrExpr[], coerceDynamic: boolean): Resolved | ResolveError {
  const params = sig.params;
  const required = params.filter((p) => !p.optional).length;
  if (args.length < required || (!sig.variadic && args.length > params.length)) {
    return { arg: -1, message: `expects ${describeParams(sig)}` };
  }
  const out: IrExpr[] = [];
  for (let i = 0; i < args.length; i++) {
    const p = params[Math.min(i, params.length - 1)]!;
    const a = coerce(args[i]!, p, coerceDynamic);
    if (!a) return { arg: i, message: misfit(p, args[i]!) };
    out.push(a);
  }
  const type = typeof sig.result === 'function' ? sig.result(out) : sig.result;
  return { args: out, type };
}

/**
 * Why an argument does not fit its parameter. A parameter that must be a constant (a unit, a regex,
 * a size) says so apart from its type: its value is written into the SQL, so a column of the right
 * type (Kusto.Language accepts one) is refused for that reason, not for its type.
 */
function misfit(p: Param, a: IrExpr): string {
  if (p.constant && accepts(p.type, a.type))
    return `argument '${p.name}' must be a constant ${describeType(p.type).replace(/^an? /, '')} (a literal): its value is written into the SQL when the query is compiled`;
  return `argument '${p.name}' must be ${describeType(p.type)}${p.constant ? ' constant' : ''}, got ${a.type}`;
}

function coerce(a: IrExpr, p: Param, coerceDynamic: boolean): IrExpr | undefined {
  if (p.constant && a.kind !== 'lit') return undefined;
  if (accepts(p.type, a.type)) return a;
  // Kusto converts a dynamic argument to the parameter's scalar type.
  if (coerceDynamic && a.type === 'dynamic' && p.constant !== true) {
    const target: KqlType | undefined =
      p.type === 'number'
        ? 'real'
        : p.type === 'integer'
          ? 'long'
          : p.type === 'scalar' || p.type === 'any'
            ? undefined
            : p.type;
    if (target) return convert(a, target);
  }
  return undefined;
}

export function accepts(p: ParamType, t: KqlType): boolean {
  switch (p) {
    case 'any':
      return true;
    case 'scalar':
      return t !== 'dynamic';
    case 'number':
      return isNumeric(t);
    case 'integer':
      return isInteger(t);
    case 'long':
      return isInteger(t);
    case 'real':
      return isNumeric(t);
    default:
      return p === t;
  }
}

const describeType = (t: ParamType): string =>
  t === 'number'
    ? 'a number'
    : t === 'integer'
      ? 'an integer'
      : t === 'any'
        ? 'any value'
        : t === 'scalar'
          ? 'a scalar'
          : `a ${t}`;

export function describeParams(sig: Signature): string {
  const ps = sig.params.map((p) => `${p.optional ? '[' : ''}${p.name}: ${p.type}${p.optional ? ']' : ''}`);
  if (sig.variadic && ps.length) ps[ps.length - 1] += ', ...';
  return ps.join(', ');
}
