// Semantic analysis of scalar expressions: name resolution, typing, Kusto's operator rules.
// Throws QueryError: QUERY_SEMANTIC for unknown names and type errors, QUERY_UNSUPPORTED for functions
// outside the subset, QUERY_TOO_DEEP / QUERY_TOO_MANY_TERMS when `let` or `extend` names make an
// expression deeper or larger than the limits once replaced by their values.
import { columnIfExists } from './column-ifexists';
import { packColumns } from './pack-columns';
import { isStarPack, spellPackArrayStar } from './analyze-star-args';
import { withTypeLiteral } from './type-literal';
import type { Expr, Pipeline } from './ast';
import { analyzeStarPredicate } from './analyze-search';
import { analyzeColumnNamesOf, analyzeList, analyzeToScalar } from './analyze-subquery';
import { clip, type ErrorFactory } from './errors';
import { aggregateNames, lookupOperator, lookupScalar } from './catalog/index';
import { resolve } from './catalog/resolve';
import { refusalReason } from './catalog/functions-v6-refused';
import { binAutoCall, type BinAuto } from './bin-auto';
import { metaFunction, type QueryIdentity } from './meta-functions';
import type { ScalarFunction } from './catalog/types';
import { convert, undocumentedConversion } from './convert';
import { isRowFree } from './range';
import { exactTimespanTicks, foldArithmetic } from './constant-fold';
import {
  alignArithmetic,
  alignBranches,
  dynamicComparedAs,
  dynamicHint,
  exactIntegerComparison,
  type ArithmeticOp,
} from './dynamic-arithmetic';
import type { IrColumn, IrExpr, KqlType, PathSegment, Rel, ScalarFn } from './ir';
import { countQueryTerms, expandedTerms, type CompileContext, type ExpressionRecords } from './limits';
import {
  inDatetimeRange,
  MAX_INT,
  MIN_DATETIME_TICKS,
  MIN_INT,
  parseDatetimeTicks,
  parseTimespanTicks,
  TICKS_PER_MICRO,
} from './literals';
import { closest } from './naming';
import { notRe2 } from './regex-groups';
import { commonType, isInteger, isNumeric, lit, typeNamed, widerNumeric } from './types';
import type { Span } from './tokens';

export interface ScalarEnv {
  readonly errors: ErrorFactory;
  /** A column (or, inside one extend/project, an expression defined earlier in the same operator). */
  resolve(name: string): IrExpr | undefined;
  columnNames(): readonly string[];
  /** The operator's input columns, for pack_all (absent where names are the only columns). */
  readonly inputColumns?: readonly IrColumn[];
  readonly lets: ReadonlyMap<string, IrExpr>;
  readonly nowTicks: bigint;
  /** The query's query_bin_auto_size and _at (set statements), for bin_auto(). */
  readonly binAuto?: BinAuto;
  /** current_principal(), current_database() (meta-functions.ts). */
  readonly identity?: QueryIdentity;
  readonly ctx: CompileContext;
  readonly records: ExpressionRecords;
  /** The relation of a tabular expression inside a scalar one (toscalar, in): absent where none may appear. */
  readonly subquery?: (p: Pipeline) => Rel;
}

export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set([
  'count',
  'countif',
  'sum',
  'sumif',
  'avg',
  'avgif',
  'min',
  'max',
  'dcount',
  'percentile',
  'percentiles',
  'arg_max',
  'arg_min',
  'argmax',
  'argmin',
  'makelist',
  'makeset',
  'make_dictionary',
  'make_list',
  'make_set',
  'stdev',
  'take_any',
  'any',
  'dcountif',
  'variance',
  'stdevp',
  'make_bag',
  'minif',
  'maxif',
  'percentilew',
  'percentilesw',
  'hll',
  'tdigest',
  'count_distinct',
  'make_list_if',
  'make_set_if',
  'take_anyif',
  'anyif',
  'binary_all_or',
  'binary_all_and',
  'buildschema',
  'countifs',
  'varianceif',
  'stdevif',
  'avg_if',
  ...aggregateNames(),
]);

const call = (fn: ScalarFn, args: readonly IrExpr[], type: KqlType, path?: readonly PathSegment[]): IrExpr =>
  path ? { kind: 'call', fn, args, type, path } : { kind: 'call', fn, args, type };

const CONVERSIONS: Readonly<Record<string, { fn: ScalarFn; type: KqlType }>> = {
  tostring: { fn: 'tostring', type: 'string' },
  todouble: { fn: 'todouble', type: 'real' },
  toreal: { fn: 'todouble', type: 'real' },
  toint: { fn: 'toint', type: 'int' },
  tolong: { fn: 'tolong', type: 'long' },
  tobool: { fn: 'tobool', type: 'bool' },
  toboolean: { fn: 'tobool', type: 'bool' },
  todatetime: { fn: 'todatetime', type: 'datetime' },
  parse_json: { fn: 'parse_json', type: 'dynamic' },
  todynamic: { fn: 'parse_json', type: 'dynamic' },
  toobject: { fn: 'parse_json', type: 'dynamic' },
};

export { convert };

/**
 * Analyzes one top-level expression (`level` is how deep it already sits, e.g. 1 inside an
 * aggregation call) and records its depth, terms and span for the limits.
 * @throws QueryError, including QUERY_TOO_DEEP and QUERY_TOO_MANY_TERMS counted after names are
 * replaced by the values they stand for.
 */
/**
 * `fine`: the value may be a timespan constant finer than a microsecond (a scalar let's, `let t = 1tick;`):
 * each use of it is then folded or refused where it stands, as the literal would be.
 */
export function analyzeScalar(expr: Expr, env: ScalarEnv, level = 0, fine = false): IrExpr {
  const analyzer = new ScalarAnalyzer(env, level);
  const ir = fine ? analyzer.analyzeFine(expr) : analyzer.analyze(expr);
  const { ctx, records } = env;
  const terms = expandedTerms(ir, records.terms);
  if (terms > ctx.limits.maxTerms) {
    ctx.exceeded(
      'QUERY_TOO_MANY_TERMS',
      `an expression of ${terms.toLocaleString('en-US')} terms once its names are replaced by their values`,
      ctx.limits.maxTerms,
      expr.span,
    );
  }
  // The engine's planning time grows much faster than linearly with depth (DuckDB: about depth^2.5
  // per expression, bench/query-limits.bench.ts): a deep expression counts at least depth^2 terms.
  const depth = analyzer.deepest - level;
  countQueryTerms(ctx, records, Math.max(terms, depth * depth), expr.span);
  if (!records.depths.has(ir)) records.depths.set(ir, depth);
  if (!records.spans.has(ir)) records.spans.set(ir, expr.span);
  return ir;
}

class ScalarAnalyzer {
  /** How deep the node being analyzed sits in the expression tree. */
  private level: number;
  /** The deepest level reached, names counted with the depth of the value they stand for. */
  deepest: number;
  /**
   * Whether the node analyzed next may be a timespan constant finer than a microsecond (`1tick`):
   * set only for the operands of arithmetic and bin()'s size, which fold it or refuse it (fineArithmetic).
   */
  private fineAllowed = false;

  constructor(
    private readonly env: ScalarEnv,
    level: number,
  ) {
    this.level = level;
    this.deepest = level;
  }

  get errors(): ErrorFactory {
    return this.env.errors;
  }

  analyze(expr: Expr): IrExpr {
    const fine = this.fineAllowed;
    this.fineAllowed = false;
    this.env.ctx.budget.tick(expr.span.start);
    switch (expr.kind) {
      case 'literal':
        this.reach(this.level, expr);
        if (!fine || expr.type !== 'timespan') this.requireMicros(expr.type, expr.value, expr.span);
        return lit(expr.type, expr.value);
      case 'name': {
        const ir = this.name(expr.name, expr.span, expr.orLet);
        if (!fine && isFineTimespan(ir)) this.requireMicros(ir.type, ir.value, expr.span);
        return ir;
      }
      case 'star':
        throw this.errors.semantic("'*' is only allowed as an argument of arg_max, arg_min or distinct", expr.span);
      default:
        this.level++;
        try {
          const ir = this.inner(expr, fine);
          if (!fine && isFineTimespan(ir)) this.requireMicros(ir.type, ir.value, expr.span);
          return ir;
        } finally {
          this.level--;
        }
    }
  }

  /** A leaf at `depth`: the deepest point so far, refused past the limit. */
  private reach(depth: number, at: Expr | { span: { start: number; end: number } }, name?: string): void {
    if (depth > this.deepest) this.deepest = depth;
    const max = this.env.ctx.limits.maxDepth;
    if (depth > max) {
      const what =
        name === undefined
          ? `an expression ${depth} levels deep`
          : `'${clip(name)}' stands for an expression that, used here, is ${depth} levels deep`;
      this.env.ctx.exceeded('QUERY_TOO_DEEP', what, max, at.span);
    }
  }

  /** An operand that may be a sub-microsecond timespan constant: its user folds or refuses it. */
  analyzeFine(expr: Expr): IrExpr {
    this.fineAllowed = true;
    return this.analyze(expr);
  }

  /** `fine`: the node may give a sub-microsecond timespan constant (see fineAllowed). */
  private inner(expr: Exclude<Expr, { kind: 'literal' | 'name' | 'star' }>, fine: boolean): IrExpr {
    switch (expr.kind) {
      case 'unary': {
        const operand = fine ? this.analyzeFine(expr.operand) : this.analyze(expr.operand);
        if (expr.op === '+') return operand;
        if (operand.kind === 'lit' && operand.value !== null) {
          if (typeof operand.value === 'bigint') return negatedLiteral(operand.type, operand.value);
          if (typeof operand.value === 'number') return lit(operand.type, -operand.value);
        }
        // -d.a stays dynamic (Kusto.Language's type); its value keeps the number's kind.
        if (!isNumeric(operand.type) && operand.type !== 'timespan' && operand.type !== 'dynamic')
          throw this.errors.semantic(`cannot negate a value of type ${operand.type}`, expr.span);
        // -x of an int column is a long (Kusto.Language), so -int(-2147483648) fits; an int that reads
        // no column (`-toint(1)`, `-hourofday(now())`) stays int there, as a literal does above.
        const widened = operand.type === 'int' && !isRowFree(operand);
        return call('neg', [operand], widened ? 'long' : operand.type);
      }
      case 'binary':
        return this.binary(expr);
      case 'in':
        return this.inList(expr);
      case 'between': {
        const left = this.analyze(expr.left);
        const low = this.analyze(expr.low);
        let high = this.analyze(expr.high);
        this.requireDynamicOrderedByNumber(left, low, expr.span);
        this.requireDynamicOrderedByNumber(left, high, expr.span);
        const exact = exactIntegerComparison(expr.negated ? 'not_between' : 'between', [left, low, high]);
        if (exact) return exact;
        // Compared as == compares a dynamic value: dynamic(20.5) between (20 .. 20) is false.
        const l = left.type === 'dynamic' ? convert(left, dynamicComparedAs(low.type)) : left;
        // A timespan right bound of a datetime range is a length from the left bound (between operator docs).
        if (l.type === 'datetime' && low.type === 'datetime' && high.type === 'timespan')
          high = call('add', [low, high], 'datetime');
        this.requireComparable(l, low, expr.span);
        this.requireComparable(l, high, expr.span);
        return call(expr.negated ? 'not_between' : 'between', [l, low, high], 'bool');
      }
      case 'member':
      case 'index':
        return this.dynamicAccess(expr);
      case 'call':
        return this.call(expr);
      case 'tabular':
        throw this.errors.semantic('a tabular expression is only allowed in toscalar() and in (...)', expr.span);
    }
  }

  /** A column, else a let (orLet: a user function's parameter or body let bound to that let, expand-udf.ts). */
  private name(name: string, span: Span, orLet = name): IrExpr {
    const resolved = this.env.resolve(name) ?? this.env.lets.get(orLet);
    if (resolved) {
      // A let or extend name stands for its value: the value's depth continues from here.
      this.reach(this.level + (this.env.records.depths.get(resolved) ?? 0), { span }, name);
      return resolved;
    }
    if (name === 'null')
      throw this.errors.semantic(
        'an untyped null is not allowed; use a typed null such as long(null) or dynamic(null)',
        span,
      );
    // A name bound to another let (orLet) reads no let of its own name: none is hinted.
    const lets = orLet === name ? [...this.env.lets.keys()] : [];
    const hint = closest(name, [...this.env.columnNames(), ...lets]);
    throw this.errors.semantic(`unknown column '${clip(name)}'${hint ? `; did you mean '${hint}'?` : ''}`, span);
  }

  private dynamicAccess(expr: Expr & { kind: 'member' | 'index' }): IrExpr {
    const path: PathSegment[] = [];
    const top = this.level;
    let node: Expr = expr;
    while (node.kind === 'member' || node.kind === 'index') {
      if (node.kind === 'member') path.unshift(node.name);
      else {
        const idx = this.analyze(node.index);
        if (idx.kind !== 'lit' || idx.value === null) {
          // A key or index computed per row (`dict[col]`, `arr[i]`, dynamic data type docs): the
          // accesses inside it first, then this subscript, then the constant path outside it.
          if (idx.type !== 'string' && !isInteger(idx.type))
            throw this.errors.semantic(
              `a computed subscript must be a string key or an integer index, got ${idx.type}; convert it, e.g. tostring(...)`,
              node.index.span,
            );
          const inner = this.analyze(node.target);
          if (inner.type !== 'dynamic')
            throw this.errors.semantic(
              `'[...]' needs a dynamic value; '${describe(node.target)}' is ${inner.type}`,
              node.span,
            );
          this.level = top;
          const at = call('dyn_at', [inner, idx], 'dynamic');
          return path.length === 0 ? at : call('dyn_get', [at], 'dynamic', path);
        }
        if (idx.type === 'string') path.unshift(String(idx.value));
        // A negative index counts from the end of the array (x[-1] is the last element).
        else if (isInteger(idx.type) && typeof idx.value === 'bigint') path.unshift(Number(idx.value));
        else throw this.errors.unsupported('an index must be a string key or an integer', node.index.span);
      }
      node = node.target;
      this.level++; // each access is one level over its target
    }
    this.level--;
    const target = this.analyze(node);
    this.level = top;
    if (target.type !== 'dynamic')
      throw this.errors.semantic(
        `'.' and '[...]' need a dynamic value; '${describe(node)}' is ${target.type}`,
        expr.span,
      );
    if (target.kind === 'call' && target.fn === 'dyn_get')
      return call('dyn_get', target.args, 'dynamic', [...(target.path ?? []), ...path]);
    return call('dyn_get', [target], 'dynamic', path);
  }

  private binary(expr: Expr & { kind: 'binary' }): IrExpr {
    const op = expr.op;
    if (op === 'and' || op === 'or') {
      // One list of operands, read without recursion: a chain of any length is one level deep.
      const operands: Expr[] = [];
      let node: Expr = expr;
      while (node.kind === 'binary' && node.op === op) {
        operands.push(node.right);
        node = node.left;
      }
      operands.push(node);
      operands.reverse();
      return call(
        op,
        operands.map((o) => this.requireBool(this.analyze(o), o.span)),
        'bool',
      );
    }
    if (expr.left.kind === 'star') return analyzeStarPredicate(this, expr);
    if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%')
      return this.fineArithmetic(op, this.analyzeFine(expr.left), this.analyzeFine(expr.right), expr);
    let left = this.analyze(expr.left);
    let right = this.analyze(expr.right);
    switch (op) {
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const equality = op === '==' || op === '!=';
        if (!equality) this.requireDynamicOrderedByNumber(left, right, expr.opSpan);
        const fn = ({ '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' } as const)[op];
        const exact = exactIntegerComparison(fn, [left, right]);
        if (exact) return exact;
        [left, right] = this.alignDynamic(left, right);
        this.requireComparable(left, right, expr.opSpan, equality);
        return call(fn, [left, right], 'bool');
      }
      case '=~':
      case '!~':
        return call(
          op === '=~' ? 'eq_ci' : 'ne_ci',
          [this.asString(left), this.asString(right, expr.right.span)],
          'bool',
        );
      case 'matches regex': {
        this.requireConstantString(right, expr.right.span, 'matches regex');
        // A group RE2 refuses is refused here, not by the engine (JavaScript's reading of the whole,
        // the catalog functions' check, would refuse RE2's own \A, \z and [[:alpha:]]).
        const problem = notRe2(String((right as IrExpr & { kind: 'lit' }).value));
        if (problem !== undefined) throw this.errors.semantic(problem, expr.right.span);
        return call('matches', [this.asString(left), right], 'bool');
      }
      default:
        return this.stringPredicate(op, left, right, expr);
    }
  }

  private stringPredicate(op: string, left: IrExpr, right: IrExpr, expr: Expr & { kind: 'binary' }): IrExpr {
    const legacy = LEGACY_CONTAINS[op];
    const negated = legacy ? legacy.startsWith('!') : op.startsWith('!');
    const base = (legacy ?? op).replace(/^!/, '');
    const fns: Readonly<Record<string, ScalarFn>> = {
      has: 'has',
      has_cs: 'has_cs',
      contains: 'contains',
      contains_cs: 'contains_cs',
      startswith: 'startswith',
      startswith_cs: 'startswith_cs',
      endswith: 'endswith',
      endswith_cs: 'endswith_cs',
    };
    const fn = fns[base];
    const operator = fn ? undefined : lookupOperator(base);
    if (operator) {
      this.requireConstantString(right, expr.right.span, op);
      const r = resolve(operator, [this.asString(left), right]);
      if ('message' in r) throw this.errors.semantic(r.message, expr.span);
      const result: IrExpr = {
        kind: 'call',
        fn: 'catalog',
        ref: { catalog: 'operator', name: operator.name },
        args: r.args,
        type: 'bool',
      };
      return negated ? call('not', [result], 'bool') : result;
    }
    if (!fn) throw this.errors.unsupported(`the '${op}' operator is not supported`, expr.opSpan);
    if (fn === 'has' || fn === 'has_cs') this.requireConstantString(right, expr.right.span, op);
    const result = call(fn, [this.asString(left), this.asString(right, expr.right.span)], 'bool');
    return negated ? call('not', [result], 'bool') : result;
  }

  /**
   * Arithmetic where an operand may be a timespan constant finer than a microsecond (`1tick`, `5tick`,
   * `0.5microsecond`). Constants are folded exactly in ticks (`1tick * 10`, `5tick + 5tick`, `1s / 1tick`);
   * a timespan divided by one is the exact ratio, computed as (x * 10) / (k microseconds) for k ticks,
   * so `tolong(d / 1tick)` is d's tick count. Any other use is refused at the constant: with a value
   * computed per row (`n * 1tick`), the result is a whole microsecond only for some rows, and rounding
   * it would give a wrong answer without saying so.
   */
  private fineArithmetic(op: ArithmeticOp, l: IrExpr, r: IrExpr, expr: Expr & { kind: 'binary' }): IrExpr {
    const fineLeft = isFineTimespan(l);
    if (!fineLeft && !isFineTimespan(r)) return this.arithmetic(op, l, r, expr);
    const folded = l.kind === 'lit' && r.kind === 'lit' ? foldFine(op, l, r) : undefined;
    if (folded) return folded;
    if (op === '/' && l.type === 'timespan' && !fineLeft) {
      const scaled = call('mul', [l, lit('long', 10n)], 'timespan');
      return call('div', [scaled, lit('timespan', ((r as IrExpr & { kind: 'lit' }).value as bigint) * 10n)], 'real');
    }
    throw this.errors.unsupported(
      `this timespan ${FINE_MESSAGE}; only constant arithmetic with a whole-microsecond result and division by such a constant are computed`,
      fineLeft ? expr.left.span : expr.right.span,
    );
  }

  private arithmetic(op: ArithmeticOp, l: IrExpr, r: IrExpr, expr: Expr & { kind: 'binary' }): IrExpr {
    const fn = ({ '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod' } as const)[op];
    if (l.type === 'dynamic' || r.type === 'dynamic') {
      const aligned = alignArithmetic(op, l, r);
      if (aligned === 'dynamic') return call(fn, [l, r], 'dynamic');
      if (!aligned) {
        const hint = dynamicHint(op, l.type === 'dynamic' ? r.type : l.type);
        throw this.errors.semantic(
          `operator '${op}' cannot be applied to ${l.type} and ${r.type}${hint ? `; convert the dynamic value first, e.g. ${hint}` : ''}`,
          expr.opSpan,
        );
      }
      [l, r] = aligned;
    }
    const lt = l.type;
    const rt = r.type;
    let type: KqlType | undefined;
    // int arithmetic gives long in Kusto (gettype(toint(2147483647) + 1) is long 2147483648).
    if (isNumeric(lt) && isNumeric(rt)) type = widerNumeric(lt, rt) === 'int' ? 'long' : widerNumeric(lt, rt);
    else if (lt === 'datetime' && rt === 'timespan' && (op === '+' || op === '-')) type = 'datetime';
    else if (lt === 'timespan' && rt === 'datetime' && op === '+') return call('add', [r, l], 'datetime');
    else if (lt === 'datetime' && rt === 'datetime' && op === '-') type = 'timespan';
    else if (lt === 'datetime' && rt === 'timespan' && op === '%') {
      // A datetime's ticks (counted from 0001-01-01, as bin's are) modulo the timespan: the older
      // Application Insights reference gives datetime("2015-04-15T22:33") % 1d as 22:33.
      const sinceOrigin = call('sub', [l, lit('datetime', MIN_DATETIME_TICKS)], 'timespan');
      return foldArithmetic('%', sinceOrigin, r, 'timespan') ?? call('mod', [sinceOrigin, r], 'timespan');
    } else if (lt === 'timespan' && rt === 'timespan') type = op === '/' ? 'real' : op === '*' ? undefined : 'timespan';
    else if (lt === 'timespan' && isNumeric(rt) && (op === '*' || op === '/')) type = 'timespan';
    else if (isNumeric(lt) && rt === 'timespan' && op === '*')
      return foldArithmetic('*', r, l, 'timespan') ?? call('mul', [r, l], 'timespan');
    if (type === undefined) {
      throw this.errors.semantic(`operator '${op}' cannot be applied to ${lt} and ${rt}`, expr.opSpan);
    }
    return foldArithmetic(op, l, r, type) ?? call(fn, [l, r], type);
  }

  private inList(expr: Expr & { kind: 'in' }): IrExpr {
    return analyzeList(this, expr);
  }

  /** For analyze-search.ts: the columns `*` stands for. */
  columnNames(): readonly string[] {
    return this.env.columnNames();
  }

  /** For analyze-subquery.ts: the tabular expressions of toscalar() and in. */
  get subquery(): ScalarEnv['subquery'] {
    return this.env.subquery;
  }

  private call(expr: Expr & { kind: 'call' }): IrExpr {
    const name = expr.name;
    // hll_merge and tdigest_merge are also scalar functions of two or more sketches.
    if (AGGREGATE_FUNCTIONS.has(name) && !lookupScalar(name)) {
      throw this.errors.semantic(`the aggregation function '${name}' can only be used in summarize`, expr.nameSpan);
    }
    if (name === 'column_ifexists')
      return this.analyze(
        columnIfExists(
          this.errors,
          expr,
          (n) => this.env.resolve(n) !== undefined,
          (n) => this.env.lets.get(n.orLet ?? n.name),
        ),
      );
    if (name === 'toscalar') return analyzeToScalar(this, expr);
    if (name === 'column_names_of') return analyzeColumnNamesOf(this, expr);
    if (isStarPack(expr))
      return this.analyze(
        spellPackArrayStar(expr, this.env.inputColumns?.map((c) => c.name) ?? this.env.columnNames()),
      );
    if (name === 'pack_all' || name === 'bag_pack_columns')
      return packColumns(this.errors, expr, this.env.inputColumns, this.env.columnNames(), (e) => this.analyze(e));
    // percentile_tdigest, percentiles_array_tdigest and its alias percentile_array_tdigest take typeof(T).
    if (name.startsWith('percentile') && name.endsWith('_tdigest'))
      return this.catalogCall(lookupScalar(name)!, this.args(withTypeLiteral(this.errors, expr)), expr);
    const conversion = CONVERSIONS[name];
    if (conversion) {
      this.arity(expr, 1);
      const [a] = this.args(expr);
      if (a!.type === conversion.type) return a!;
      // A constant datetime text with a 7th fractional digit would be cut to the microsecond, as
      // totimespan's is refused. A text that is no datetime is null, as in a column.
      if (
        conversion.type === 'datetime' &&
        a!.kind === 'lit' &&
        typeof a!.value === 'string' &&
        finerDatetime(a!.value)
      )
        throw this.errors.unsupported(`this datetime ${FINE_MESSAGE}`, expr.args[0]!.span);
      if (conversion.type === 'datetime' && !(a!.type === 'string' || a!.type === 'dynamic')) {
        throw this.errors.unsupported(undocumentedConversion('todatetime', a!.type), expr.args[0]!.span);
      }
      if (a!.type === 'guid' || (conversion.type === 'bool' && a!.type === 'datetime')) {
        if (conversion.type !== 'string' && conversion.type !== 'dynamic')
          throw this.errors.semantic(`${name}() cannot convert a ${a!.type}`, expr.args[0]!.span);
      }
      if (conversion.fn === 'parse_json' && a!.type !== 'string')
        return call('parse_json', [call('tostring', [a!], 'string')], 'dynamic');
      return call(conversion.fn, [a!], conversion.type);
    }
    switch (name) {
      case 'now': {
        this.arity(expr, 0, 1);
        if (!expr.args[0]) return datetimeOrNull(this.env.nowTicks);
        return this.fromNow('+', expr.args[0], expr.span);
      }
      case 'ago':
        this.arity(expr, 1);
        return this.fromNow('-', expr.args[0]!, expr.span);
      case 'totimespan':
      case 'totime': {
        this.arity(expr, 1);
        const [a] = this.args(expr);
        if (a!.type === 'timespan') return a!;
        if (a!.type !== 'string' && a!.type !== 'dynamic')
          throw this.errors.unsupported(undocumentedConversion('totimespan', a!.type), expr.args[0]!.span);
        if (a!.kind === 'lit' && a!.type === 'string') {
          const ticks = parseTimespanTicks(String(a!.value));
          this.requireMicros('timespan', ticks, expr.args[0]!.span);
          return lit('timespan', ticks ?? null);
        }
        return this.catalogCall(lookupScalar('totimespan')!, [a!], expr);
      }
      case 'bin_auto':
        return this.analyze(binAutoCall(this.errors, expr, this.env.binAuto));
      case 'current_principal':
      case 'current_database':
        return metaFunction(this.errors, expr, this.env.identity);
      case 'bin':
      case 'floor':
        this.arity(expr, 2);
        return this.bin([this.analyze(expr.args[0]!), this.analyzeFine(expr.args[1]!)], expr);
      case 'iff':
      case 'iif': {
        this.arity(expr, 3);
        const [c, a, b] = this.args(expr);
        const { type, values } = this.branches([a!, b!], expr.span);
        return call('iff', [this.requireBool(c!, expr.args[0]!.span), ...values], type);
      }
      case 'case': {
        this.arity(expr, 3, Infinity);
        if (expr.args.length % 2 === 0)
          throw this.errors.semantic('case() needs pairs of predicate and value followed by an else value', expr.span);
        const a = this.args(expr);
        const isValue = (i: number): boolean => i % 2 === 1 || i === a.length - 1;
        const { type, values } = this.branches(
          a.filter((_, i) => isValue(i)),
          expr.span,
        );
        let next = 0;
        const out = a.map((x, i) => (isValue(i) ? values[next++]! : this.requireBool(x, expr.args[i]!.span)));
        return call('case', out, type);
      }
      case 'coalesce': {
        this.arity(expr, 1, 64);
        const a = this.args(expr);
        return call('coalesce', a, this.unify(a, expr.span));
      }
      case 'isnull':
      case 'isnotnull':
      case 'isempty':
      case 'isnotempty':
        this.arity(expr, 1);
        return call(name, this.args(expr), 'bool');
      case 'not': {
        this.arity(expr, 1);
        return call('not', [this.requireBool(this.args(expr)[0]!, expr.args[0]!.span)], 'bool');
      }
      case 'strcat': {
        this.arity(expr, 1, 64);
        return call(
          'strcat',
          this.args(expr).map((a) => convert(a, 'string')),
          'string',
        );
      }
      case 'strlen':
        this.arity(expr, 1);
        return call('strlen', [this.asString(this.args(expr)[0]!)], 'long');
      case 'tolower':
      case 'toupper':
        this.arity(expr, 1);
        return call(name, [this.asString(this.args(expr)[0]!)], 'string');
      case 'substring': {
        this.arity(expr, 2, 3);
        const [s, start, len] = this.args(expr);
        this.requireInteger(start!, expr.args[1]!.span);
        if (len) this.requireInteger(len, expr.args[2]!.span);
        return call('substring', len ? [this.asString(s!), start!, len] : [this.asString(s!), start!], 'string');
      }
      case 'round': {
        this.arity(expr, 1, 2);
        const [x, digits] = this.args(expr);
        this.requireNumeric(x!, expr.args[0]!.span);
        if (digits) this.requireInteger(digits, expr.args[1]!.span);
        // round keeps its argument's type, int included (Kusto.Language: round returns Parameter0).
        return call('round', digits ? [x!, digits] : [x!], x!.type);
      }
      case 'abs': {
        this.arity(expr, 1);
        const [x] = this.args(expr);
        if (!isNumeric(x!.type) && x!.type !== 'timespan')
          throw this.errors.semantic(
            `abs() needs a number or timespan, got ${x!.type}${convertFirst(x!.type)}`,
            expr.args[0]!.span,
          );
        // abs of an int is a long (Kusto.Language's abs overload for integers), so abs(int(-2147483648)) fits.
        return call('abs', [x!], x!.type === 'int' ? 'long' : x!.type);
      }
      case 'extract':
        if (expr.args.length === 4) return this.typedExtract(expr);
        return this.catalogCall(lookupScalar(name)!, this.args(expr), expr);
      case 'extract_json':
      case 'extractjson':
        if (expr.args.length === 3) return this.typedExtract(expr, 'extract_json', 2);
        return this.catalogCall(lookupScalar(name)!, this.args(expr), expr);
      default: {
        const fn = lookupScalar(name);
        if (!fn) {
          const reason = refusalReason(name);
          throw this.errors.unsupported(
            `the function '${name}' is not supported${reason ? `: ${reason}` : ''}`,
            expr.nameSpan,
          );
        }
        return this.catalogCall(fn, this.args(expr), expr);
      }
    }
  }

  // Helpers of call() as methods, not closures made per call: the compile path runs through
  // esbuild's keepNames, which names every closure again each time it is made.
  private args(expr: Expr & { kind: 'call' }): IrExpr[] {
    return expr.args.map((a) => this.analyze(a));
  }

  private arity(expr: Expr & { kind: 'call' }, min: number, max = min): void {
    if (expr.args.length < min || expr.args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw this.errors.semantic(
        `${expr.name}() takes ${expected} argument${max === 1 && min === 1 ? '' : 's'}, got ${expr.args.length}`,
        expr.span,
      );
    }
  }

  /**
   * extract(regex, group, text, typeof(T)): the captured text converted to T, null when there is no
   * match or it does not convert (Kusto's typed form). The fourth argument names a type, it is not a value.
   * extract_json(path, text, typeof(T)) is the same with the type third.
   */
  private typedExtract(expr: Expr & { kind: 'call' }, fn = 'extract', typeIndex = 3): IrExpr {
    const typeArg = expr.args[typeIndex]!;
    const named =
      typeArg.kind === 'call' &&
      typeArg.name === 'typeof' &&
      typeArg.args.length === 1 &&
      typeArg.args[0]!.kind === 'name'
        ? typeNamed(typeArg.args[0]!.name, true)
        : undefined;
    if (!named)
      throw this.errors.semantic(
        `${expr.name}()'s ${typeIndex === 3 ? 'fourth' : 'third'} argument must be typeof(T), e.g. typeof(real)`,
        typeArg.span,
      );
    const text = this.catalogCall(
      lookupScalar(fn)!,
      expr.args.slice(0, typeIndex).map((a) => this.analyze(a)),
      expr,
    );
    if (named === 'string') return text;
    // No match gives '' before the conversion: every conversion of '' is null, as Kusto answers.
    if (named === 'timespan') return this.catalogCall(lookupScalar('totimespan')!, [text], expr);
    return convert(text, named);
  }

  /** A call of a catalog function: the first signature the arguments fit decides the result type. */
  private catalogCall(fn: ScalarFunction, args: readonly IrExpr[], expr: Expr & { kind: 'call' }): IrExpr {
    const r = resolve(fn, args);
    if ('message' in r) throw this.errors.semantic(r.message, r.arg >= 0 ? expr.args[r.arg]!.span : expr.span);
    return { kind: 'call', fn: 'catalog', ref: { catalog: 'scalar', name: fn.name }, args: r.args, type: r.type };
  }

  private bin(a: IrExpr[], expr: Expr & { kind: 'call' }): IrExpr {
    const [value, size] = a as [IrExpr, IrExpr];
    const sizeSpan = expr.args[1]!.span;
    if (value.type === 'datetime' || value.type === 'timespan') {
      if (size.type !== 'timespan')
        throw this.errors.semantic(`the bin size of a ${value.type} must be a timespan, got ${size.type}`, sizeSpan);
      // A size computed per row (bin page: any timespan) is binned in SQL, null where it is not positive.
      if (size.kind === 'lit') {
        if (size.value === null || (size.value as bigint) <= 0n) return lit(value.type, null);
        const ticks = size.value as bigint;
        // Values are whole microseconds (10 ticks, from an origin a whole number of microseconds away):
        // rounding them down to 1, 2 or 5 ticks leaves them as they are; other finer sizes would not.
        if (ticks % TICKS_PER_MICRO !== 0n) {
          if (TICKS_PER_MICRO % ticks === 0n) return value;
          throw this.errors.unsupported(
            `this bin size ${FINE_MESSAGE}; whole microseconds, or 1, 2 or 5 ticks, are binned`,
            sizeSpan,
          );
        }
      }
      return call(value.type === 'datetime' ? 'bin_datetime' : 'bin_timespan', [value, size], value.type);
    }
    if (isNumeric(value.type)) {
      if (!isNumeric(size.type))
        throw this.errors.semantic(`the bin size of a number must be a number, got ${size.type}`, sizeSpan);
      // int with int bins to a long, as int arithmetic does (Kusto.Language: bin(int, int) is long).
      const wider = widerNumeric(value.type, size.type);
      const type = wider === 'int' ? 'long' : wider;
      if (size.kind === 'lit' && (size.value === null || Number(size.value) <= 0)) return lit(type, null);
      return call('bin_num', [value, size], type);
    }
    throw this.errors.semantic(
      `bin() needs a number, datetime or timespan, got ${value.type}${convertFirst(value.type)}`,
      expr.args[0]!.span,
    );
  }

  // ---------------------------------------------------------------- checks
  /**
   * Datetimes and timespans are computed in microseconds on both engines (docs/query-api.md,
   * "Precision"): a constant finer than that would silently lose its last digit, so it is refused.
   */
  private requireMicros(type: KqlType, value: unknown, span: Span): void {
    if ((type === 'timespan' || type === 'datetime') && typeof value === 'bigint' && value % TICKS_PER_MICRO !== 0n)
      throw this.errors.unsupported(`this ${type} ${FINE_MESSAGE}`, span);
  }

  /**
   * now(offset) and ago(offset): a constant offset is folded (the query's fixed now); any other
   * timespan (`ago(7d * n)`, `ago(i * 1h)`, which the now/ago page's timespan parameter allows)
   * becomes the query's now plus or minus it.
   */
  private fromNow(op: '+' | '-', arg: Expr, span: Span): IrExpr {
    const offset = this.analyze(arg);
    if (offset.type !== 'timespan')
      throw this.errors.semantic(`expected a timespan such as 1h, got ${offset.type}`, arg.span);
    if (offset.kind === 'lit' && offset.value !== null)
      return datetimeOrNull(this.env.nowTicks + (op === '+' ? 1n : -1n) * (offset.value as bigint));
    const now: Expr = { kind: 'literal', type: 'datetime', value: this.env.nowTicks, span };
    return this.analyze({ kind: 'binary', op, left: now, right: arg, opSpan: span, span });
  }

  private constantTimespan(e: IrExpr, span: Span): bigint {
    if (e.type !== 'timespan' || e.kind !== 'lit' || e.value === null)
      throw this.errors.semantic('expected a constant timespan such as 1h', span);
    return e.value as bigint;
  }

  private unify(values: readonly IrExpr[], span: Span): KqlType {
    const type = commonType(values.map((v) => v.type));
    if (type === undefined)
      throw this.errors.semantic(
        `the values have incompatible types: ${[...new Set(values.map((v) => v.type))].join(', ')}`,
        span,
      );
    return type;
  }

  /** iff/case values: a dynamic one beside typed ones is converted to their type (dynamic-arithmetic.ts). */
  private branches(values: readonly IrExpr[], span: Span): { type: KqlType; values: readonly IrExpr[] } {
    const aligned = alignBranches(values);
    if (aligned === undefined)
      throw this.errors.semantic(
        `the values have incompatible types: ${[...new Set(values.map((v) => v.type))].join(', ')}`,
        span,
      );
    return aligned;
  }

  /**
   * `<`, `<=`, `>`, `>=` and `between` order a dynamic value only against a number, as Kusto.Language
   * defines them ("The operator '>' is not defined for the operand types dynamic and string"): the text,
   * datetime, timespan or bool order of a JSON value is no answer Kusto gives.
   */
  requireDynamicOrderedByNumber(l: IrExpr, r: IrExpr, span: Span): void {
    const other = l.type === 'dynamic' ? r.type : r.type === 'dynamic' ? l.type : undefined;
    if (other === undefined || other === 'dynamic' || isNumeric(other)) return;
    throw this.errors.semantic(
      `a dynamic value is ordered only against a number, not a ${other}; convert it first, e.g. ${DYNAMIC_ORDER_HINT[other] ?? 'tostring'}(...)`,
      span,
    );
  }

  private alignDynamic(l: IrExpr, r: IrExpr): [IrExpr, IrExpr] {
    if (l.type === 'dynamic' && r.type !== 'dynamic') return [convert(l, dynamicComparedAs(r.type)), r];
    if (r.type === 'dynamic' && l.type !== 'dynamic') return [l, convert(r, dynamicComparedAs(l.type))];
    return [l, r];
  }

  requireComparable(l: IrExpr, r: IrExpr, span: Span, equality = false): void {
    const ok =
      l.type === r.type ||
      (isNumeric(l.type) && isNumeric(r.type)) ||
      (equality && ((l.type === 'guid' && r.type === 'string') || (l.type === 'string' && r.type === 'guid')));
    if (!ok) throw this.errors.semantic(`cannot compare ${l.type} with ${r.type}`, span);
    if (!equality && (l.type === 'bool' || l.type === 'dynamic'))
      throw this.errors.semantic(`values of type ${l.type} cannot be ordered`, span);
  }

  private requireBool(e: IrExpr, span: Span): IrExpr {
    if (e.type === 'dynamic') return convert(e, 'bool');
    if (e.type !== 'bool') throw this.errors.semantic(`expected a bool expression, got ${e.type}`, span);
    return e;
  }

  private requireNumeric(e: IrExpr, span: Span): void {
    if (!isNumeric(e.type)) throw this.errors.semantic(`expected a number, got ${e.type}${convertFirst(e.type)}`, span);
  }

  private requireInteger(e: IrExpr, span: Span): void {
    if (!isInteger(e.type)) throw this.errors.semantic(`expected an integer, got ${e.type}`, span);
  }

  private requireConstantString(e: IrExpr, span: Span, op: string): void {
    if (e.kind !== 'lit' || e.type !== 'string')
      throw this.errors.unsupported(`the right side of '${op}' must be a constant string`, span);
  }

  /** Kusto applies string operators to other types through their string form. */
  asString(e: IrExpr, _span?: Span): IrExpr {
    return e.type === 'string' ? e : convert(e, 'string');
  }
}

/**
 * A datetime computed at compile time: null outside Kusto's range (0001-01-01 .. 9999-12-31), as
 * Kusto's datetime arithmetic gives no value there (ago(-100000000d) is null, not an error).
 */
function datetimeOrNull(ticks: bigint): IrExpr {
  return lit('datetime', inDatetimeRange(ticks) ? ticks : null);
}

/** The conversion a dynamic needs to be ordered against a value of each non-numeric type. */
const DYNAMIC_ORDER_HINT: Readonly<Partial<Record<KqlType, string>>> = {
  datetime: 'todatetime',
  timespan: 'totimespan',
  bool: 'tobool',
  guid: 'toguid',
};

/** -x of a literal: 64-bit for long and timespan (Kusto wraps), an int that no longer fits becomes long. */
const FINE_MESSAGE = 'needs 100-nanosecond precision; datetimes and timespans are computed to the microsecond';

/**
 * The legacy spellings of contains_cs and the negated contains (the 2016 Application Insights
 * Analytics reference lists containscs; Kusto.Language still reads all three as bool operators).
 */
const LEGACY_CONTAINS: Readonly<Record<string, string>> = {
  containscs: 'contains_cs',
  notcontains: '!contains',
  notcontainscs: '!contains_cs',
};

/** A datetime text whose instant is not a whole microsecond (`2024-01-01 00:00:00.1234567`). */
const finerDatetime = (text: string): boolean => (parseDatetimeTicks(text) ?? 0n) % TICKS_PER_MICRO !== 0n;

/** A timespan constant finer than a microsecond, which only fineArithmetic and bin() take. */
const isFineTimespan = (e: IrExpr): e is IrExpr & { kind: 'lit' } =>
  e.kind === 'lit' && e.type === 'timespan' && typeof e.value === 'bigint' && e.value % TICKS_PER_MICRO !== 0n;

/**
 * `l op r` of two constants, one of them a sub-microsecond timespan, folded exactly: a timespan in
 * ticks (its caller refuses it unless it is whole microseconds or folded further), the real ratio of
 * two timespans, or a datetime moved by ticks; undefined when no exact constant exists.
 */
function foldFine(op: ArithmeticOp, l: IrExpr & { kind: 'lit' }, r: IrExpr & { kind: 'lit' }): IrExpr | undefined {
  if (l.value === null || r.value === null) return undefined;
  if (l.type === 'timespan' && r.type === 'timespan' && op === '/')
    return lit('real', Number(l.value as bigint) / Number(r.value as bigint));
  if (l.type === 'datetime' && r.type === 'timespan' && (op === '+' || op === '-')) {
    // A datetime is never left finer than a microsecond: no caller folds it further.
    const ticks = (l.value as bigint) + (op === '+' ? 1n : -1n) * (r.value as bigint);
    return ticks % TICKS_PER_MICRO === 0n ? datetimeOrNull(ticks) : undefined;
  }
  if (r.type === 'timespan' && isNumeric(l.type) && op === '*') return foldFine(op, r, l);
  if (op === '%') return undefined;
  const ticks = exactTimespanTicks(op, l, r);
  return ticks === undefined ? undefined : lit('timespan', ticks);
}

function negatedLiteral(type: KqlType, value: bigint): IrExpr {
  if (type === 'int') {
    const v = -value;
    return v >= MIN_INT && v <= MAX_INT ? lit('int', v) : lit('long', v);
  }
  return lit(type, BigInt.asIntN(64, -value));
}

/** Kusto.Language refuses a dynamic where these functions need a number (KS137): the message says how to convert. */
function convertFirst(type: KqlType): string {
  return type === 'dynamic' ? '; convert it first, e.g. todouble(...)' : '';
}

function describe(e: Expr): string {
  return e.kind === 'name' ? e.name : e.kind;
}
