// Semantic analysis of make-series (https://learn.microsoft.com/en-us/kusto/query/make-series-operator):
// the by columns first, then one dynamic array per aggregation, then the axis array named after the
// axis column. Only aggregations with numeric results are allowed (the docs' rule); a bin without
// rows gets the aggregation's default (0 when not written). The bounds and the step are scalars
// without column references; the step must be a positive constant so the bins can be counted.
// Throws QueryError QUERY_SEMANTIC for a wrong type, name clash or step, QUERY_UNSUPPORTED for
// aggregations that yield several columns.
import type { MakeSeriesSpec } from './ast';
import { analyzeAggregate } from './aggregates';
import { clip, type ErrorFactory } from './errors';
import type { Assigned, IrColumn, IrExpr, KqlType, MakeSeriesIr, Rel, SeriesAgg } from './ir';
import { TICKS_PER_MICRO } from './literals';
import { closest, derivedName, OutputNames, type ColumnNumbers } from './naming';
import { foldConstant } from './range';
import { AGGREGATE_FUNCTIONS, analyzeScalar, type ScalarEnv } from './scalars';
import { isNumeric, lit, widerNumeric } from './types';

export interface MakeSeriesHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[]): ScalarEnv;
  /** The numbers of the unnamed columns of the operator at `at` (naming.ts, ColumnNumbering). */
  columnNumbers(at: number): ColumnNumbers;
}

/** The most values a make-series array may hold (the docs' limit, 2^20). */
export const MAX_SERIES_LENGTH = 1_048_576;

export function analyzeMakeSeries(h: MakeSeriesHost, input: Rel, spec: MakeSeriesSpec): Rel {
  const { errors } = h;
  const env = h.env(input.columns);
  // Named as summarize names its output (Kusto.Language): two written names clash, a written name
  // meeting a generated one is made unique (count(), count_ = sum(1) gives count_, count_1; a key
  // bin(Timestamp, 1d) before the axis Timestamp gives Timestamp, Timestamp1).
  const names = new OutputNames(h.columnNumbers(spec.axis.span.start));
  const claim = (name: string, span: MakeSeriesSpec['axis']['span']): string => {
    if (names.isDeclared(name)) throw errors.semantic(`duplicate column name '${clip(name)}'`, span);
    return names.written(name);
  };

  const keys: Assigned<IrExpr>[] = spec.by.map((item) => {
    const value = analyzeScalar(item.expr, env);
    if (value.type === 'dynamic')
      throw errors.semantic('cannot group by a dynamic value; convert it first, e.g. tostring(...)', item.expr.span);
    const written = item.name ?? (item.expr.kind === 'name' ? item.expr.name : undefined);
    // A key named as a derived key is refused, as in summarize.
    if (item.name !== undefined && names.has(item.name))
      throw errors.semantic(`duplicate column name '${clip(item.name)}'`, item.nameSpan ?? item.span);
    const name =
      written !== undefined ? claim(written, item.nameSpan ?? item.span) : names.generated(derivedName(item.expr));
    return { column: { name, type: value.type, ref: h.newRef() }, value };
  });

  const pending: {
    name?: string;
    span: MakeSeriesSpec['axis']['span'];
    agg: SeriesAgg['value'];
    def: string;
    d: IrExpr;
  }[] = [];
  for (const item of spec.aggregates) {
    if (item.expr.kind !== 'call' || !AGGREGATE_FUNCTIONS.has(item.expr.name))
      throw errors.semantic('each make-series column must be an aggregation such as count() or avg(x)', item.expr.span);
    const outputs = analyzeAggregate(item.expr, { env, errors, starColumns: [] });
    if (outputs.length !== 1 || outputs[0]!.multi)
      throw errors.unsupported(`${item.expr.name}() is not supported in make-series`, item.expr.span);
    const { agg, defaultName } = outputs[0]!;
    if (!isNumeric(agg.type))
      throw errors.semantic(
        `make-series needs aggregations with numeric results; ${item.expr.name}() gives ${agg.type}`,
        item.expr.span,
      );
    let d = lit(agg.type, 0n);
    if (agg.type === 'real' || agg.type === 'decimal') d = lit(agg.type, 0);
    if (item.default) {
      d = analyzeScalar(item.default, h.env([]));
      if (d.kind !== 'lit' && foldConstant(d) === undefined)
        throw errors.semantic('the make-series default must be a constant', item.default.span);
      if (!(isNumeric(d.type) || (d.kind === 'lit' && d.value === null)))
        throw errors.semantic(`the make-series default must be a number, got ${d.type}`, item.default.span);
    }
    pending.push({
      ...(item.name ? { name: item.name } : {}),
      span: item.nameSpan ?? item.span,
      agg,
      def: defaultName,
      d,
    });
  }
  const aggs: SeriesAgg[] = pending.map((p) => {
    const name = p.name !== undefined ? claim(p.name, p.span) : names.generated(p.def === '' ? undefined : p.def);
    const elementType = isNumeric(p.d.type) ? widerNumeric(p.agg.type, p.d.type) : p.agg.type;
    return { column: { name, type: 'dynamic', ref: h.newRef() }, value: p.agg, default: p.d, elementType };
  });

  const axisValue = env.resolve(spec.axis.name);
  if (!axisValue) {
    const hint = closest(spec.axis.name, env.columnNames());
    throw errors.semantic(
      `unknown column '${clip(spec.axis.name)}' after on${hint ? `; did you mean '${hint}'?` : ''}`,
      spec.axis.span,
    );
  }
  const axisType = axisValue.type;
  if (axisType !== 'datetime' && axisType !== 'timespan' && !isNumeric(axisType))
    throw errors.semantic(
      `the make-series axis must be a datetime, timespan or number, not ${axisType}`,
      spec.axis.span,
    );
  const axisColumn: IrColumn = { name: claim(spec.axis.name, spec.axis.span), type: 'dynamic', ref: h.newRef() };

  const bounds = h.env([]);
  const stepType: KqlType = axisType === 'datetime' ? 'timespan' : axisType;
  const scalar = (e: MakeSeriesSpec['step'], what: string, want: KqlType): IrExpr => {
    const v = analyzeScalar(e, bounds);
    const ok = isNumeric(want) ? isNumeric(v.type) : v.type === want;
    if (!ok)
      throw errors.semantic(
        `the make-series ${what} must be a ${isNumeric(want) ? 'number' : want}, not ${v.type}`,
        e.span,
      );
    return v;
  };
  const from = spec.from ? scalar(spec.from, spec.range ? 'range start' : 'from bound', axisType) : undefined;
  const to = spec.to ? scalar(spec.to, spec.range ? 'range stop' : 'to bound', axisType) : undefined;
  const step = scalar(spec.step, 'step', stepType);
  const size = foldConstant(step);
  if (size === undefined) throw errors.semantic('the make-series step must be a constant', spec.step.span);
  if (!(size > 0) || (typeof size === 'number' && !Number.isFinite(size)))
    throw errors.semantic('the make-series step must be greater than 0', spec.step.span);
  if (stepType === 'timespan' && (size as bigint) < TICKS_PER_MICRO)
    throw errors.unsupported('make-series steps below one microsecond are not supported', spec.step.span);
  checkLength(errors, from, to, size, spec);
  if (spec.nonEmpty && (!from || !to))
    throw errors.semantic('make-series kind=nonempty needs both from and to', spec.axis.span);

  const series: MakeSeriesIr = {
    keys,
    aggs,
    axis: { column: axisColumn, value: axisValue },
    step,
    range: spec.range,
    nonEmpty: spec.nonEmpty,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  return {
    kind: 'makeSeries',
    input,
    series,
    columns: [...keys.map((k) => k.column), ...aggs.map((a) => a.column), axisColumn],
  };
}

/** @throws QueryError QUERY_SEMANTIC when constant bounds make arrays longer than the docs' 2^20 values. */
function checkLength(
  errors: ErrorFactory,
  from: IrExpr | undefined,
  to: IrExpr | undefined,
  step: bigint | number,
  spec: MakeSeriesSpec,
): void {
  const a = from ? foldConstant(from) : undefined;
  const b = to ? foldConstant(to) : undefined;
  if (a === undefined || b === undefined) return;
  const bins = Math.ceil((Number(b) - Number(a)) / Number(step)) + (spec.range ? 1 : 0);
  if (bins > MAX_SERIES_LENGTH)
    throw errors.semantic(
      `make-series would make arrays of ${bins} values; at most ${MAX_SERIES_LENGTH} are allowed`,
      spec.step.span,
    );
}
