// Aggregation functions of summarize: argument checks, result types and Kusto's default column names.
// Each call yields one or more output columns (percentiles, arg_max and take_any can yield several).
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import type { AggFn, IrAgg, IrColumn, IrExpr, KqlType } from './ir';
import { aggregateArgumentName, derivedName } from './naming';
import { lookupAggregate } from './catalog/index';
import { resolve } from './catalog/resolve';
import { analyzeScalar, convert, type ScalarEnv } from './scalars';
import { isInteger, isNumeric, lit } from './types';

export interface AggregateOutput {
  /** The default column name (before duplicate suffixes). */
  readonly defaultName: string;
  readonly agg: IrAgg;
  /** True for columns whose count depends on the call (percentiles, arg_max, take_any): they cannot be renamed with Name =. */
  readonly multi: boolean;
}

export interface AggregateContext {
  readonly env: ScalarEnv;
  readonly errors: ErrorFactory;
  /** Input columns minus the by keys, for arg_max(x, *) and take_any(*). */
  readonly starColumns: readonly IrColumn[];
  /** Refs of the input columns the by keys stand for: a call with `*` does not return them again. */
  readonly keyRefs?: ReadonlySet<string>;
}

const SIMPLE_PREFIX: Readonly<Record<string, string>> = {
  sum: 'sum',
  avg: 'avg',
  min: 'min',
  max: 'max',
  dcount: 'dcount',
  stdev: 'stdev',
  make_list: 'list',
  make_set: 'set',
  sumif: 'sumif',
  avgif: 'avgif',
};

// The argument checks below are module functions, not closures made per call: the compile path
// runs through esbuild's keepNames, which names every closure again each time it is made.
const argScalar = (e: Expr, ctx: AggregateContext): IrExpr => analyzeScalar(e, ctx.env, 1);

function arity(call: Expr & { kind: 'call' }, ctx: AggregateContext, min: number, max = min): void {
  if (call.args.length < min || call.args.length > max) {
    throw ctx.errors.semantic(
      `${call.name}() takes ${min === max ? min : `${min} to ${max === Infinity ? 'any number of' : max}`} argument${max === 1 ? '' : 's'}, got ${call.args.length}`,
      call.span,
    );
  }
}

function predicate(e: Expr, ctx: AggregateContext): IrExpr {
  const p = argScalar(e, ctx);
  if (p.type === 'dynamic') return convert(p, 'bool');
  if (p.type !== 'bool') throw ctx.errors.semantic(`expected a bool predicate, got ${p.type}`, e.span);
  return p;
}

function numeric(e: Expr, fn: string, ctx: AggregateContext): IrExpr {
  const x = argScalar(e, ctx);
  if (x.type === 'dynamic') {
    const arg = derivedName(e) ?? 'x';
    throw ctx.errors.semantic(
      `${fn}() needs a numeric argument but '${arg}' is dynamic; convert it first, e.g. ${fn}(todouble(${arg}))`,
      e.span,
    );
  }
  if (!isNumeric(x.type) && x.type !== 'timespan')
    throw ctx.errors.semantic(`${fn}() needs a numeric argument, got ${x.type}`, e.span);
  return x;
}

/** avg's argument: a number, a timespan or a datetime (Kusto.Language's avg overloads; the mean instant). */
function averaged(e: Expr, fn: string, ctx: AggregateContext): IrExpr {
  const x = argScalar(e, ctx);
  return x.type === 'datetime' ? x : numeric(e, fn, ctx);
}

function orderable(e: Expr, fn: string, ctx: AggregateContext): IrExpr {
  const x = argScalar(e, ctx);
  if (x.type === 'dynamic')
    throw ctx.errors.semantic(
      `${fn}() cannot order dynamic values; convert the argument first, e.g. ${fn}(todouble(${derivedName(e) ?? 'x'}))`,
      e.span,
    );
  return x;
}

const PERCENTILEW = { catalog: 'aggregate', name: 'percentilew' } as const;
const TAKE_ANYIF = { catalog: 'aggregate', name: 'take_anyif' } as const;

function weightOf(e: Expr, fn: string, ctx: AggregateContext): IrExpr {
  const w = argScalar(e, ctx);
  if (!isInteger(w.type)) throw ctx.errors.semantic(`${fn}() needs an integer weight, got ${w.type}`, e.span);
  return w;
}

function single(fn: AggFn, args: IrExpr[], type: KqlType, defaultName: string, percentile?: number): AggregateOutput[] {
  return [
    { defaultName, agg: percentile === undefined ? { fn, args, type } : { fn, args, type, percentile }, multi: false },
  ];
}

/** One output computed by the catalog's aggregation `name` (an `*if` form the plain one is written through). */
function viaCatalog(name: string, args: IrExpr[], type: KqlType, defaultName: string): AggregateOutput[] {
  return [{ defaultName, agg: { fn: 'catalog', args, type, ref: { catalog: 'aggregate', name } }, multi: false }];
}

const prefixed = (name: string, first: Expr | undefined): string =>
  `${SIMPLE_PREFIX[name]}_${aggregateArgumentName(first)}`;

const sumType = (t: KqlType): KqlType => (isInteger(t) ? 'long' : t);
/** avg keeps a timespan, a datetime or a decimal (Kusto.Language's avg overloads), other numbers give real. */
const averageType = (t: KqlType): KqlType => (t === 'timespan' || t === 'datetime' || t === 'decimal' ? t : 'real');
/** percentile of an int is long, of a decimal real (Kusto.Language's percentile result); others keep their type. */
const percentileType = (t: KqlType): KqlType => (t === 'int' ? 'long' : t === 'decimal' ? 'real' : t);

const DEPRECATED_AGGREGATES: Readonly<Record<string, string>> = {
  any: 'take_any',
  anyif: 'take_anyif',
  argmax: 'arg_max',
  argmin: 'arg_min',
  makelist: 'make_list',
  makeset: 'make_set',
  make_dictionary: 'make_bag',
};

/**
 * The maximum size a deprecated list or bag aggregation keeps when none is given: "The deprecated
 * version has a default maxSize limit of 128" (make_list's, make_set's and make_bag's pages).
 */
const LEGACY_MAX_SIZE = lit('long', 128n);

export function analyzeAggregate(call: Expr & { kind: 'call' }, ctx: AggregateContext): AggregateOutput[] {
  const { errors } = ctx;
  // Deprecated aliases (take_any's, take_anyif's, arg_max's and arg_min's pages): any(), anyif(),
  // argmax() and argmin(), each named its own way below.
  const name = DEPRECATED_AGGREGATES[call.name] ?? call.name;
  const arg0 = call.args[0];

  switch (name) {
    case 'count':
      // count(x) counts every row like count(), but is named count_x.
      // https://learn.microsoft.com/en-us/kusto/query/summarize-operator#aggregates-default-values
      arity(call, ctx, 0, 1);
      return single('count', [], 'long', `count_${aggregateArgumentName(arg0)}`);
    case 'countif':
      arity(call, ctx, 1);
      // Named as the other aggregates: countif(b) is countif_b, countif(tobool(d.f)) countif_d_f
      // (Kusto.Language), a comparison names nothing: countif_.
      return single('countif', [predicate(call.args[0]!, ctx)], 'long', `countif_${aggregateArgumentName(arg0)}`);
    case 'sum': {
      arity(call, ctx, 1);
      const x = numeric(call.args[0]!, 'sum', ctx);
      return single('sum', [x], sumType(x.type), prefixed(name, arg0));
    }
    case 'sumif': {
      arity(call, ctx, 2);
      const x = numeric(call.args[0]!, 'sumif', ctx);
      return single('sumif', [x, predicate(call.args[1]!, ctx)], sumType(x.type), prefixed(name, arg0));
    }
    case 'avg': {
      arity(call, ctx, 1);
      const x = averaged(call.args[0]!, 'avg', ctx);
      return single('avg', [x], averageType(x.type), prefixed(name, arg0));
    }
    case 'avgif': {
      arity(call, ctx, 2);
      const x = averaged(call.args[0]!, 'avgif', ctx);
      return single('avgif', [x, predicate(call.args[1]!, ctx)], averageType(x.type), prefixed(name, arg0));
    }
    case 'min':
    case 'max': {
      arity(call, ctx, 1);
      const x = orderable(call.args[0]!, name, ctx);
      return single(name, [x], x.type, prefixed(name, arg0));
    }
    case 'stdev': {
      arity(call, ctx, 1);
      const x = numeric(call.args[0]!, 'stdev', ctx);
      if (x.type === 'timespan') throw errors.unsupported('stdev() of a timespan is not supported', call.args[0]!.span);
      // A real may hold NaN or an infinity, which the catalog's statistics handle: stdev(x) is stdevif(x, true).
      if (x.type === 'real') return viaCatalog('stdevif', [x, lit('bool', true)], 'real', prefixed(name, arg0));
      return single('stdev', [x], 'real', prefixed(name, arg0));
    }
    case 'dcount': {
      arity(call, ctx, 1, 2);
      const x = argScalar(call.args[0]!, ctx);
      // A dynamic is counted by its text, its nulls skipped (the null values page), as the catalog's
      // dcountif counts it: dcount(d) is dcountif(d, true).
      if (x.type === 'dynamic') return viaCatalog('dcountif', [x, lit('bool', true)], 'long', prefixed(name, arg0));
      return single('dcount', [x], 'long', prefixed(name, arg0));
    }
    case 'make_list':
    case 'make_set': {
      arity(call, ctx, 1, 2);
      const x = argScalar(call.args[0]!, ctx);
      const ifForm = name === 'make_list' ? 'make_list_if' : 'make_set_if';
      const legacy = call.name !== name;
      // A timespan goes in as Kusto's [d.]hh:mm:ss text, which the catalog's list writes (not a count of
      // microseconds), and the set of dynamic values is the set of their elements, which the catalog's
      // set gathers: make_list(x) is make_list_if(x, true).
      const throughCatalog = x.type === 'timespan' || (x.type === 'dynamic' && name === 'make_set');
      if (throughCatalog && !call.args[1] && !legacy)
        return viaCatalog(ifForm, [x, lit('bool', true)], 'dynamic', prefixed(name, arg0));
      if (call.args[1] || legacy) {
        // make_list(x, maxSize) is make_list_if(x, true, maxSize) (the catalog entry spells the limit).
        const max = call.args[1] ? argScalar(call.args[1], ctx) : LEGACY_MAX_SIZE;
        // Kusto checks the range [1..1048576] (SEM0248), as the catalog's maxSizeCheck does.
        const v = max.kind === 'lit' && isInteger(max.type) ? (max.value as bigint | null) : null;
        if (v === null || v < 1n || v > 1_048_576n) {
          throw errors.semantic(
            `the maximum size of ${call.name}() must be a constant integer between 1 and 1048576`,
            (call.args[1] ?? call).span,
          );
        }
        return viaCatalog(ifForm, [x, lit('bool', true), max], 'dynamic', prefixed(name, arg0));
      }
      return single(name, [x], 'dynamic', prefixed(name, arg0));
    }
    case 'percentile':
    case 'percentiles':
    case 'percentilew':
    case 'percentilesw': {
      // percentilew(s) take a weight before the percentiles (catalog/functions-v6-percentilew.ts).
      const first = name.endsWith('w') ? 2 : 1;
      arity(call, ctx, first + 1, name.startsWith('percentiles') ? Infinity : first + 1);
      const x = orderable(call.args[0]!, name, ctx);
      const w = first === 2 ? weightOf(call.args[1]!, name, ctx) : undefined;
      if (!isNumeric(x.type) && x.type !== 'datetime' && x.type !== 'timespan') {
        throw errors.semantic(
          `${name}() needs a numeric, datetime or timespan argument, got ${x.type}`,
          call.args[0]!.span,
        );
      }
      return call.args.slice(first).map((p) => {
        const v = argScalar(p, ctx);
        const value = v.kind === 'lit' && v.value !== null && isNumeric(v.type) ? Number(v.value) : NaN;
        if (!(value >= 0 && value <= 100))
          throw errors.semantic('a percentile must be a constant between 0 and 100', p.span);
        // Kusto.Language names a percentile given by an expression (25 * 2, folded to 50 here) with
        // an empty label: percentile_x_; by a let or a function's parameter, with its value.
        const label = p.kind === 'literal' || p.kind === 'name' ? String(value).replace('.', '_') : '';
        return {
          defaultName: `percentile_${aggregateArgumentName(arg0)}_${label}`,
          agg: w
            ? { fn: 'catalog', args: [x, w, lit('real', value)], type: percentileType(x.type), ref: PERCENTILEW }
            : { fn: 'percentile', args: [x], type: percentileType(x.type), percentile: value },
          multi: name.startsWith('percentiles'),
        };
      });
    }
    case 'arg_max':
    case 'arg_min': {
      arity(call, ctx, 2, Infinity);
      const by = orderable(call.args[0]!, name, ctx);
      const fn: AggFn = name;
      const prefix = `${name === 'arg_max' ? 'max_' : 'min_'}${argumentLabel(call, 0)}`;
      // The deprecated argmax()/argmin() name every column after the first argument (Kusto.Language:
      // argmin(Price, Supplier) gives min_Price, min_Price_Supplier), where arg_min gives Price, Supplier.
      const legacy = call.name !== name;
      const first: AggregateOutput = {
        defaultName: (legacy ? undefined : argumentName(call, 0)) ?? prefix,
        agg: { fn, args: [by, by], type: by.type },
        multi: true,
      };
      const seen = starSeen(call.args, ctx);
      if (seen !== undefined && by.kind === 'col') seen.add(by.ref);
      const rest = returned(call, 1, ctx, seen, `${prefix}_arg`);
      return [
        first,
        ...rest.map((r) => ({
          defaultName: legacy && !r.positional ? `${prefix}_${r.name}` : r.name,
          agg: { fn, args: [r.expr, by], type: r.expr.type },
          multi: true,
        })),
      ];
    }
    case 'take_any': {
      arity(call, ctx, 1, Infinity);
      const items = returned(call, 0, ctx, starSeen(call.args, ctx), 'any_arg');
      const multi = items.length > 1 || call.args[0]!.kind === 'star';
      // The deprecated alias any() prefixes its columns with any_ (take_any page, note).
      const prefix = call.name === 'any' ? 'any_' : '';
      // Kusto.Language: any() of one unnamed expression is any_, like any aggregate of an expression.
      const lone = prefix !== '' && call.args.length === 1;
      // Several expressions are "computed over a single record" (take_any page), not each its own.
      const sameRow = items.length > 1 ? { sameRow: true } : {};
      // One string or dynamic "will attempt to return a non-null/non-empty value" (take_any page):
      // take_anyif(s, true), which skips "" and JSON null elements.
      const type = items[0]?.expr.type;
      if (items.length === 1 && (type === 'string' || type === 'dynamic')) {
        const r = items[0]!;
        return [
          {
            defaultName: r.positional ? (lone ? prefix : r.name) : `${prefix}${r.name}`,
            agg: { fn: 'catalog', args: [r.expr, lit('bool', true)], type, ref: TAKE_ANYIF },
            multi,
          },
        ];
      }
      return items.map((r) => ({
        defaultName: r.positional ? (lone ? prefix : r.name) : `${prefix}${r.name}`,
        agg: { fn: 'take_any', args: [r.expr], type: r.expr.type, ...sameRow },
        multi,
      }));
    }
    default: {
      const fn = lookupAggregate(name);
      if (!fn) throw errors.unsupported(`the aggregation function '${call.name}' is not supported`, call.nameSpan);
      const args = call.args.map((a) => argScalar(a, ctx));
      // make_dictionary(x) is make_bag(x, 128) (make_bag's page), named dictionary_x (Kusto.Language).
      if (call.name === 'make_dictionary' && args.length === 1) args.push(LEGACY_MAX_SIZE);
      // Aggregates never convert dynamic silently (avg(Value) is an error in Kusto too).
      const r = resolve(fn, args, false);
      if ('message' in r) throw errors.semantic(r.message, r.arg >= 0 ? call.args[r.arg]!.span : call.span);
      return [
        {
          // anyif(x, p) keeps its own prefix, anyif_x, where take_anyif(x, p) is x (Kusto.Language).
          defaultName:
            call.name === 'anyif' || call.name === 'make_dictionary'
              ? `${call.name === 'anyif' ? 'anyif' : 'dictionary'}_${argumentLabel(call, 0)}`
              : fn.defaultName(argumentLabel(call, 0), argumentLabel(call, 1)),
          agg: { fn: 'catalog', args: r.args, type: r.type, ref: { catalog: 'aggregate', name: fn.name } },
          multi: false,
        },
      ];
    }
  }
}

/**
 * With a `*` among the arguments, the input columns a call already returns (Kusto.Language returns
 * each at most once then: arg_max(r, r, *) is r, s, l where arg_max(r, r) is r, r1); else undefined.
 * The by keys' columns count as returned: arg_max(l, r, *) by r gives r, l, s.
 */
function starSeen(args: readonly Expr[], ctx: AggregateContext): Set<string> | undefined {
  return args.some((a) => a.kind === 'star') ? new Set(ctx.keyRefs) : undefined;
}

/** The name an argument gives its column: written `name = value` (arg_max(t, x = v)), else its value's. */
function argumentName(call: Expr & { kind: 'call' }, i: number): string | undefined {
  return call.argNames?.[i] ?? derivedName(call.args[i]!);
}

/** An argument's part of an aggregation's default name (sum_x): its written name, else its value's. */
function argumentLabel(call: Expr & { kind: 'call' }, i: number): string {
  return call.argNames?.[i] ?? aggregateArgumentName(call.args[i]);
}

/**
 * The returned expressions of arg_max/arg_min/take_any, the call's arguments from `first` on,
 * expanding `*` to the input columns. An expression that derives no name is named unnamedPrefix +
 * its argument position (Kusto.Language: arg_max(x, 2) gives max_x_arg1, take_any(x + 1) any_arg0);
 * a named one (`x = b`) is named so, whatever its value.
 * seen (see starSeen): an argument that is an input column already returned is left out. Only the
 * column itself counts, not its name (Kusto.Language): arg_max(todouble(d), *) over a dynamic d
 * returns d (real) and d1 (the dynamic column), where arg_max(tolong(l), *) over a long l returns l
 * once, since converting to the column's own type leaves the column.
 */
function returned(
  call: Expr & { kind: 'call' },
  first: number,
  ctx: AggregateContext,
  seen: Set<string> | undefined,
  unnamedPrefix: string,
): { name: string; expr: IrExpr; positional?: boolean }[] {
  const out: { name: string; expr: IrExpr; positional?: boolean }[] = [];
  for (let i = first; i < call.args.length; i++) {
    const a = call.args[i]!;
    if (a.kind === 'star') {
      for (const c of ctx.starColumns) {
        if (seen?.has(c.ref)) continue;
        seen?.add(c.ref);
        out.push({ name: c.name, expr: { kind: 'col', ref: c.ref, type: c.type } });
      }
      continue;
    }
    const expr = analyzeScalar(a, ctx.env, 1);
    if (seen !== undefined && expr.kind === 'col') {
      if (seen.has(expr.ref)) continue;
      seen.add(expr.ref);
    }
    const derived = argumentName(call, i);
    out.push(
      derived === undefined ? { name: `${unnamedPrefix}${i}`, expr, positional: true } : { name: derived, expr },
    );
  }
  return out;
}
