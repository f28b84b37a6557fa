// Scalar and aggregate expressions to SQL text. Semantics live here once; the dialect only spells.
// Some spellings repeat an argument (tostring of a real, Kusto's == on nullable values ...), so the
// text of nested calls can grow exponentially with their depth: each node's text is measured as it
// is built and refused past limits.maxSqlLength (QUERY_TOO_LARGE), before it can exhaust memory.
import type { AggregateFunction, ScalarFunction, SqlCall } from '../catalog/types';
import { catalogEntry } from '../catalog';
import { LONG_TEXT_PATTERN } from '../convert';
import { guidText } from '../catalog/sql-helpers';
import { QueryError } from '../errors';
import type { IrAgg, IrExpr, KqlType, SubqueryExpr } from '../ir';
import type { CompileContext, NodeTable } from '../limits';
import type { Span } from '../tokens';
import { isInteger } from '../types';
import { MAX_DATETIME_TICKS, MIN_DATETIME_TICKS } from '../literals';
import { DECIMAL_SNAP } from '../values';
import { bindDraws, bindOnce, bindOnceIn, bindRepeated } from './bind-once';
import { dynamicArithmeticSql, type DynamicArithmeticFn } from './dynamic-arithmetic-sql';
import { BIN_ORIGIN_MICROS, distinctReal, MICROS_PER_DAY, textToBool, type SqlDialect } from './dialect';
import { hasTerms } from './has-terms';
import { LongWrapper, mayOverflow, WRAPPING } from './long-wrap';
import { caselessRegex, foldsBeyondAscii, literalPattern, type CaselessPlace } from './ascii-caseless';
import { engineRegex } from '../regex-groups';

const ARITHMETIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div', 'mod']);
/** Comparisons where a guid may meet a string (`g == "..."`, `g in (guid(...), "...")`). */
const GUID_TEXT_COMPARISONS: ReadonlySet<string> = new Set(['eq', 'ne', 'in']);

/**
 * A guid compared with a string is compared as text: the string read as toguid() reads it (so the
 * 32 digits without hyphens match), else its lower case text, which is then no guid's. The engine's
 * own comparison casts the string to UUID and fails on text that is no guid ("abc"), where Kusto
 * answers false (== and in) or true (!=). Rewrites `sql` in place; nothing when no guid meets a string.
 */
function guidsAsText(d: SqlDialect, args: readonly IrExpr[], sql: string[]): void {
  if (!args.some((x) => x.type === 'guid') || !args.some((x) => x.type === 'string')) return;
  args.forEach((x, i) => {
    if (x.type === 'guid') sql[i] = `CAST(${sql[i]} AS VARCHAR)`;
    else if (x.type === 'string') {
      const read = (v: string): string => `coalesce(${guidText(d, v)}, lower(${v}))`;
      sql[i] = d.name === 'duckdb' ? bindOnce(sql[i]!, read) : read(sql[i]!);
    }
  });
}

/** The text of a string constant holding a letter beyond ASCII (which lower() would fold too). */
function beyondAsciiConstant(e: IrExpr): string | undefined {
  return e.kind === 'lit' && typeof e.value === 'string' && foldsBeyondAscii(e.value) ? e.value : undefined;
}

/**
 * A decimal (a double in the engines) at its 15-significant-digit value when it is within about a unit
 * in the last place of it, as the answer writes it (values.ts): tostring(decimal(0.1) + decimal(0.2))
 * is "0.3". The nested CASE keeps log10 away from 0, NaN and the infinities.
 */
function decimalSnapped(x: string): string {
  const near = `round(${x}, 14 - CAST(floor(log10(abs(${x}))) AS INTEGER))`;
  const close = `abs(${near} - ${x}) <= abs(${x}) * ${DECIMAL_SNAP.withinUlp}`;
  return `CASE WHEN abs(${x}) BETWEEN 1E-280 AND ${DECIMAL_SNAP.below} THEN CASE WHEN ${close} THEN ${near} ELSE ${x} END ELSE ${x} END`;
}

/** The comparison of the negated operands that means the same: x < y is -x > -y. */
const MIRRORED = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/** Arithmetic whose int operands are widened to BIGINT when Kusto types the result long. */
const WIDENED: ReadonlySet<string> = new Set([...ARITHMETIC, 'neg', 'bin_num']);

/** Catalog functions whose datetime, shifted by an amount or a zone, may leave Kusto's range. */
const SHIFTS_DATETIME = /^(startof|endof)(day|week|month|year)$|^datetime_(add|utc_to_local|local_to_utc)$/;

/** Whether e computes a datetime by shifting one (see inDatetimeRange). */
function shiftsDatetime(e: IrExpr): boolean {
  if (e.kind !== 'call' || e.type !== 'datetime') return false;
  if (e.fn === 'add' || e.fn === 'sub' || e.fn === 'startofday') return e.args.length > 1;
  return e.fn === 'catalog' && SHIFTS_DATETIME.test(catalogEntry(e.ref).name) && e.args.length > 1;
}

/**
 * A computed datetime, null when it is outside Kusto's range (0001-01-01 to 9999-12-31, the datetime
 * page): the engine keeps such a timestamp, which the answer shows as null, so isnull(), where and
 * comparisons must see the same null. The value is named twice: a long one is bound once. On
 * Timestream (timestamps in nanoseconds since 1970) the engine's own range is the narrower one.
 */
function inDatetimeRange(d: SqlDialect, ts: string): string {
  if (d.name !== 'duckdb') return ts;
  const low = d.datetime(MIN_DATETIME_TICKS);
  const high = d.datetime(MAX_DATETIME_TICKS - (MAX_DATETIME_TICKS % 10n));
  const test = (v: string): string => `CASE WHEN ${v} BETWEEN ${low} AND ${high} THEN ${v} END`;
  return bindRepeated(test(ts), [ts]);
}

const ENGINE_NAMES = { duckdb: 'DuckDB', timestream: 'Timestream' } as const;

export interface WriterLimits {
  readonly ctx: CompileContext;
  /** Where each analyzed expression came from: a size error is reported at the innermost one. */
  readonly spans: NodeTable<Span>;
  /** The SQL of a value read from a tabular expression (the generator writes relations). */
  readonly subquery?: (e: SubqueryExpr) => string;
}

export class ExpressionWriter {
  private readonly where: Span[] = [];
  /**
   * Sets (make_set, make_set_if) keep their elements in the order they first come: true while the
   * generator writes the aggregations of rows that read no stored table (datatable, print, range),
   * whose order is the query's own; a stored table's sets keep the engine's hash order, which costs
   * no list of every value (sql/generator.ts, readsStoredTable).
   */
  setsInOrder = false;
  /** Datetime shifts whose range check the shift around them makes. */
  private readonly shiftedAgain = new WeakSet<IrExpr>();
  /** Long arithmetic that can overflow, wrapped around 64 bits as Kusto's does (DuckDB). */
  readonly longs = new LongWrapper();

  constructor(
    private readonly d: SqlDialect,
    private readonly limits?: WriterLimits,
  ) {}

  literal(type: KqlType, value: unknown): string {
    const d = this.d;
    if (value === null || value === undefined) return type === 'string' ? "''" : d.nullOf(type);
    switch (type) {
      case 'string':
        return d.string(String(value));
      case 'guid':
        // Typed, so that a guid literal meets a computed or null guid (UUID) in a CASE of three or
        // more arms: DuckDB unifies a text literal with UUID in two arms only.
        return d.name === 'duckdb'
          ? `CAST(${d.string(String(value))} AS ${d.sqlType('guid')})`
          : d.string(String(value));
      case 'long':
        return d.long(value as bigint);
      case 'int':
        return d.int(value as bigint);
      case 'real':
      case 'decimal':
        return d.real(value as number);
      case 'bool':
        return d.bool(value as boolean);
      case 'datetime':
        return d.datetime(value as bigint);
      case 'timespan':
        return d.timespan(value as bigint);
      case 'dynamic':
        return d.dynamic(String(value));
      default:
        return d.nullOf(type);
    }
  }

  expr(e: IrExpr): string {
    if (e.kind === 'col') return this.d.quoteIdent(e.ref);
    if (e.kind === 'lit') return this.literal(e.type, e.value);
    if (e.kind === 'subquery') {
      if (!this.limits?.subquery) throw new Error('a subquery expression needs the SQL generator');
      return this.limits.subquery(e);
    }
    const limits = this.limits;
    if (!limits) return this.call(e);
    const span = limits.spans.get(e);
    if (span) this.where.push(span);
    try {
      limits.ctx.budget.tick(this.where.at(-1)?.start ?? 0);
      const sql = this.call(e);
      const max = limits.ctx.limits.maxSqlLength;
      if (sql.length > max) {
        limits.ctx.exceeded(
          'QUERY_TOO_LARGE',
          `the SQL for this expression grows past ${max.toLocaleString('en-US')} characters`,
          max,
          this.where.at(-1) ?? { start: 0, end: limits.ctx.source.length },
        );
      }
      return sql;
    } finally {
      if (span) this.where.pop();
    }
  }

  private call(e: IrExpr & { kind: 'call' }): string {
    // A shifted datetime shifted again is checked once, at the outermost shift (each check nests a
    // lambda: 64 nested startofday() calls would pass DuckDB's expression depth).
    if (shiftsDatetime(e)) for (const x of e.args) if (shiftsDatetime(x)) this.shiftedAgain.add(x);
    // Kusto's int arithmetic gives long: int operands are widened first so the engine cannot overflow.
    const widen = e.type === 'long' && WIDENED.has(e.fn);
    const a = e.args.map((x) => (widen && x.type === 'int' ? `CAST(${this.expr(x)} AS BIGINT)` : this.expr(x)));
    if (GUID_TEXT_COMPARISONS.has(e.fn)) guidsAsText(this.d, e.args, a);
    // Kusto computes an argument once: rand() named twice (a null test and the value) is one draw.
    return this.d.name === 'duckdb' ? bindDraws(a, (held) => this.spell(e, held)) : this.spell(e, a);
  }

  /** A call's SQL from its arguments' SQL. */
  private spell(e: IrExpr & { kind: 'call' }, a: readonly string[]): string {
    const d = this.d;
    const [x = '', y = '', z = ''] = a;
    const [ex, ey] = e.args;
    // Arithmetic typed dynamic (two dynamic operands, or one negated) keeps the operands' kind.
    if (e.type === 'dynamic' && (ARITHMETIC.has(e.fn) || e.fn === 'neg'))
      return dynamicArithmeticSql(d, e.fn as DynamicArithmeticFn, x, y);
    if (d.name === 'duckdb' && e.type === 'long' && WRAPPING.has(e.fn) && e.args.every((v) => isInteger(v.type)))
      if (mayOverflow(e.fn, e.args)) return this.longs.write(e.fn, e.args, a);
    switch (e.fn) {
      case 'add':
        if (e.type === 'datetime') return this.inRange(e, d.addMicros(x, y));
        return `(${x} + ${y})`;
      case 'sub':
        if (e.type === 'datetime') return this.inRange(e, d.addMicros(x, `-(${y})`));
        if (ex!.type === 'datetime') return `(${d.epochMicros(x)} - ${d.epochMicros(y)})`;
        return `(${x} - ${y})`;
      case 'mul':
        if (e.type === 'timespan' && isFractional(ey!.type)) return fractionalTicks(d, `${x} * ${y}`);
        return `(${x} * ${y})`;
      case 'div':
        if (e.type === 'timespan') return isFractional(ey!.type) ? fractionalTicks(d, `${x} / ${y}`) : d.intDiv(x, y);
        if (isInteger(e.type)) return d.intDiv(x, y);
        return d.realDiv(x, y);
      case 'mod':
        // Kusto's % is never negative: -7 % 3 is 2, 7 % -3 is 1, -7.5 % 2 is 0.5. A negative remainder
        // moves up by |y|, written without abs(y) (abs(long.min) overflows) and never past a long
        // (9223372036854775806 % 9223372036854775807 overflowed in r + |y| before the second %).
        return bindOnceIn(
          d,
          `(${x} % ${y})`,
          (r) => `CASE WHEN ${r} < 0 AND ${y} < 0 THEN ${r} - ${y} WHEN ${r} < 0 THEN ${r} + ${y} ELSE ${r} END`,
        );
      case 'neg':
        // An int typed int (-toint(k), no column read) is negated in 64 bits: -int(-2147483648) is no engine error.
        return e.type === 'int' ? `(-CAST(${x} AS BIGINT))` : `(-${x})`;
      case 'eq':
        return this.nanFalse(ex!, ey!, x, y, this.nullSafe(ex!, ey!, x, y, '=', 'FALSE'), false);
      case 'ne':
        return this.nanFalse(ex!, ey!, x, y, this.nullSafe(ex!, ey!, x, y, '<>', 'TRUE'), true);
      case 'lt':
        return this.ordered(ex!, ey!, x, y, '<');
      case 'le':
        return this.ordered(ex!, ey!, x, y, '<=');
      case 'gt':
        return this.ordered(ex!, ey!, x, y, '>');
      case 'ge':
        return this.ordered(ex!, ey!, x, y, '>=');
      case 'eq_ci':
        return this.caseless(ex!, ey!, x, y, 'whole') ?? `(lower(${x}) = lower(${y}))`;
      case 'ne_ci': {
        const beyond = this.caseless(ex!, ey!, x, y, 'whole');
        return beyond !== undefined ? `(NOT ${beyond})` : `(lower(${x}) <> lower(${y}))`;
      }
      case 'and':
      case 'or': {
        // A chain of any length, written as the left-nested pairs a binary chain always gave.
        const op = e.fn === 'and' ? 'AND' : 'OR';
        return a.slice(1).reduce((left, right) => `(${left} ${op} ${right})`, x);
      }
      case 'not':
        return `(NOT ${x})`;
      case 'in': {
        // A null on either side makes SQL's IN null where Kusto's == gives false (columns may be listed).
        const test = `${x} IN (${a.slice(1).join(', ')})`;
        const listed = e.args.some((v) => this.nullable(v)) ? `coalesce(${test}, FALSE)` : `(${test})`;
        // As == compares: a NaN equals nothing (DuckDB's IN finds a listed NaN).
        const nanListed = e.args.slice(1).some((v) => this.mayBeNan(v));
        return nanListed ? this.nanCorrected([ex!], [x], listed, false) : listed;
      }
      case 'in_ci': {
        // Constants folding beyond ASCII: all of them in one regex folding ASCII only (lower() folds
        // every letter; translate() to lower ASCII alone was far slower than lower() in DuckDB).
        const items = e.args.slice(1);
        const lowered = (sql: readonly string[]): string =>
          `lower(${x}) IN (${sql.map((v) => `lower(${v})`).join(', ')})`;
        if (!items.some((v) => beyondAsciiConstant(v) !== undefined)) return `(${lowered(a.slice(1))})`;
        const constant = (v: IrExpr): v is IrExpr & { value: string } =>
          v.kind === 'lit' && typeof v.value === 'string';
        const texts = items.filter(constant).map((v) => v.value);
        const computed = a.slice(1).filter((_v, i) => !constant(items[i]!));
        const matched = d.regexMatch(x, d.string(caselessRegex(texts, 'whole')));
        // Listed columns and computations keep lower() (two computed texts: docs).
        return computed.length > 0 ? `(${matched} OR ${lowered(computed)})` : matched;
      }
      case 'between':
      case 'not_between': {
        // between is (x >= low and x <= high), as the between page defines it: null for a null x, as
        // x >= low is. !between keeps the rows where (x < low or x > high) is true (not-between page):
        // a null or NaN x is in neither, where not(between) would keep it. Both name x more than once
        // (each bound, the NaN tests) and DuckDB evaluates a repeated expression in a WHERE each time
        // (a regex, a JSON path), so a long x is bound once.
        const test =
          e.fn === 'between'
            ? this.nanCorrected(e.args, [x, y, z], `(${x} BETWEEN ${y} AND ${z})`, false)
            : `(${this.ordered(ex!, ey!, x, y, '<')} OR ${this.ordered(ex!, e.args[2]!, x, z, '>')})`;
        // The bounds too: a toscalar() bound inside the NaN correction must not be left in this lambda.
        return d.name === 'duckdb' ? bindRepeated(test, [x, y, z]) : test;
      }
      case 'has':
      case 'has_cs':
        // Every text has the empty term.
        if ((ey as { value: unknown }).value === '') return 'TRUE';
        return d.regexMatch(x, d.string(termPattern(String((ey as { value: unknown }).value), e.fn === 'has')));
      case 'has_terms_any':
      case 'has_terms_all':
        return hasTerms(d, x, y, e.fn === 'has_terms_all');
      case 'contains':
        return this.caseless(ex!, ey!, x, y, 'anywhere') ?? d.contains(`lower(${x})`, `lower(${y})`);
      case 'contains_cs':
        return d.contains(x, y);
      case 'startswith':
        return this.caseless(ex!, ey!, x, y, 'start') ?? d.startsWith(`lower(${x})`, `lower(${y})`);
      case 'startswith_cs':
        return d.startsWith(x, y);
      case 'endswith':
        return this.caseless(ex!, ey!, x, y, 'end') ?? d.endsWith(`lower(${x})`, `lower(${y})`);
      case 'endswith_cs':
        return d.endsWith(x, y);
      case 'matches':
        // The regex is a constant (matches regex, parse-where): its named groups in the engine's
        // spelling, and only tested for a match (more word boundaries exact).
        return d.regexMatch(x, ey?.kind === 'lit' ? d.string(engineRegex(String(ey.value), d.name, true)) : y);
      case 'iff':
        return `CASE WHEN ${x} THEN ${y} ELSE ${z} END`;
      case 'case': {
        const parts: string[] = [];
        for (let i = 0; i + 1 < a.length; i += 2) parts.push(`WHEN ${a[i]} THEN ${a[i + 1]}`);
        return `CASE ${parts.join(' ')} ELSE ${a[a.length - 1]} END`;
      }
      case 'coalesce':
        // Kusto's coalesce skips empty strings as well as nulls.
        if (e.type === 'string') return `coalesce(${a.map((v) => `nullif(${v}, '')`).join(', ')}, '')`;
        // A JSON null (parse_json("null"), an array's null element) is null, as isnull() says.
        if (e.type === 'dynamic') return `coalesce(${a.map((v) => `nullif(${v}, 'null')`).join(', ')})`;
        return `coalesce(${a.join(', ')})`;
      case 'isnull':
        return ex!.type === 'dynamic' ? d.dynIsNull(x) : `(${x} IS NULL)`;
      case 'isnotnull':
        return ex!.type === 'dynamic' ? `(NOT ${d.dynIsNull(x)})` : `(${x} IS NOT NULL)`;
      case 'isempty':
        return this.isEmpty(ex!, x);
      case 'isnotempty':
        return `(NOT ${this.isEmpty(ex!, x)})`;
      case 'strcat':
        return a.length === 1 ? x : `concat(${a.join(', ')})`;
      case 'strlen':
        return `CAST(length(${x}) AS BIGINT)`;
      case 'substring': {
        // A negative start counts from the end (substring("hello", -2, 2) is "lo"); one still before the
        // text is 0, the length kept (substring("123456", -8, 3) is "123"). The position is computed
        // here, not left to the engines' negative positions: DuckDB's answer there differed between a
        // constant start (folded: a window before the text, "1") and a column ("123"), and Timestream's
        // substr (Trino's) documents negative positions only inside the text. Start and length bounded to the engines' range of positions (any value past
        // it answers as the bound does): the largest long overflowed the + 1, or was an Out of Range error.
        // Only a start that may be negative reads the text's length; DuckDB binds the text once there,
        // so nesting cannot double the SQL at each level.
        const ahead = `least(${y}, 4294967294) + 1`;
        const nonNegative =
          ey!.kind === 'lit' && (typeof ey!.value === 'bigint' || typeof ey!.value === 'number') && ey!.value >= 0;
        const take = (t: string): string => {
          const start = nonNegative
            ? ahead
            : `CASE WHEN ${y} < 0 THEN greatest(length(${t}) + ${y}, 0) + 1 ELSE ${ahead} END`;
          return a.length === 3
            ? `coalesce(substr(${t}, ${start}, least(greatest(${z}, 0), 4294967295)), '')`
            : `coalesce(substr(${t}, ${start}), '')`;
        };
        return nonNegative || d.name !== 'duckdb' ? take(x) : bindOnce(x, take);
      }
      case 'tolower':
        return `lower(${x})`;
      case 'toupper':
        // .NET's invariant upper-casing (Kusto's) keeps ß; DuckDB's upper makes it ẞ. The text is split
        // at ß only where one occurs: the test costs nothing measurable on ASCII text (1M rows).
        if (d.name !== 'duckdb') return `upper(${x})`;
        return bindOnce(
          x,
          (v) =>
            `CASE WHEN contains(${v}, 'ß') THEN array_to_string(list_transform(string_split(${v}, 'ß'), u__p -> upper(u__p)), 'ß') ELSE upper(${v}) END`,
        );
      case 'round':
        return a.length === 2 ? `round(${x}, CAST(${y} AS INTEGER))` : `round(${x})`;
      case 'abs':
        return ex!.type === 'int' ? `abs(CAST(${x} AS BIGINT))` : `abs(${x})`;
      case 'bin_num':
      case 'bin_timespan':
        return positiveSize(
          ey!,
          y,
          binFloor(x, y, (isInteger(ex!.type) && isInteger(ey!.type)) || e.fn === 'bin_timespan'),
        );
      case 'bin_datetime': {
        if (ey!.kind === 'lit') return d.binDatetime(x, (ey!.value as bigint) / 10n);
        // Counted from 0001-01-01 as a constant size is (KQL-NOTES.md), in microseconds.
        const since = `(${d.epochMicros(x)} - (${BIN_ORIGIN_MICROS}))`;
        return positiveSize(ey!, y, d.fromEpochMicros(`${binFloor(since, y, true)} + (${BIN_ORIGIN_MICROS})`));
      }
      case 'startofday':
        // startofday(date, offset): offset whole days after the start of date's day.
        if (a.length === 1) return d.startOfDay(x);
        return this.inRange(e, d.addMicros(d.startOfDay(x), `(${y}) * ${MICROS_PER_DAY}`));
      case 'tostring':
        return this.toStringOf(ex!, x);
      case 'todouble':
        return this.toNumber(ex!, x, 'real');
      case 'tolong':
        return this.toNumber(ex!, x, 'long');
      case 'toint':
        return this.toNumber(ex!, x, 'int');
      case 'tobool':
        if (ex!.type === 'dynamic') return d.dynToBool(x);
        if (ex!.type === 'string') return textToBool(x);
        return `(${x} <> 0)`;
      case 'todatetime': {
        // Spaces around the text are read as the datetime(...) literal reads them (.NET's parse skips them).
        const parsed = d.parseDatetime(`trim(${ex!.type === 'dynamic' ? d.dynToString(x) : x})`);
        // DuckDB's parse names the text inside lambdas: a toscalar() argument is bound outside them.
        return d.name === 'duckdb' ? bindRepeated(parsed, [x]) : parsed;
      }
      case 'parse_json':
        return d.parseJson(x);
      case 'totimespan':
        return x;
      case 'dyn_get':
        return d.dynGet(x, e.path ?? []);
      case 'dyn_at':
        return ey!.type === 'string' ? d.dynKey(x, y!) : d.dynIndex(x, y!);
      case 'catalog': {
        const entry = catalogEntry(e.ref);
        const sql = this.catalog(entry, e.args, a, e.type);
        return shiftsDatetime(e) ? this.inRange(e, sql) : sql;
      }
    }
  }

  /** A datetime shift's SQL, null outside Kusto's range unless a shift around it checks. */
  private inRange(e: IrExpr, sql: string): string {
    return this.shiftedAgain.has(e) ? sql : inDatetimeRange(this.d, sql);
  }

  /** A catalog entry's spelling in this dialect; a function the dialect cannot compute is refused. */
  private catalog(
    impl: ScalarFunction | AggregateFunction,
    args: readonly IrExpr[],
    a: readonly string[],
    type: KqlType,
  ): string {
    const build = this.d.name === 'duckdb' ? impl.duckdb : impl.timestream;
    if (!build) {
      const span = this.where.at(-1) ?? { start: 0, end: 0 };
      throw new QueryError(
        'QUERY_UNSUPPORTED',
        `${impl.name}() is not supported on the ${ENGINE_NAMES[this.d.name]} engine`,
        span,
        this.limits?.ctx.source ?? '',
      );
    }
    const call = new CatalogCall(this, a, args, type, this.d);
    const sql = build(call);
    // An argument's text (tostring of a dynamic value or a real is long SQL) is bound once too.
    return this.d.name === 'duckdb' && !('defaultName' in impl) ? bindRepeated(sql, [...a, ...call.texts]) : sql;
  }

  /** JSON text of any value, 'null' for null (elements of pack_array, bag_pack). */
  jsonOf(e: IrExpr, x: string): string {
    if (e.type === 'dynamic')
      return this.d.name === 'duckdb' ? `coalesce(CAST(${x} AS VARCHAR), 'null')` : `coalesce(${x}, 'null')`;
    // timespanToString gives '' for null (tostring's answer), which would be "" here, and the dialects'
    // bool text false: a null is JSON null.
    if (e.type === 'timespan')
      return `CASE WHEN ${x} IS NULL THEN 'null' ELSE '"' || ${this.timespanToString(x)} || '"' END`;
    if (e.type === 'bool') return `CASE WHEN ${x} IS NULL THEN 'null' ELSE ${this.d.jsonText(x, e.type)} END`;
    if (e.type === 'decimal') {
      // Snapped as in the answer and in tostring() (values.ts): pack_array(decimal(0.1) + decimal(0.2)) holds 0.3.
      const snapped = bindOnceIn(this.d, `CAST(${x} AS DOUBLE)`, decimalSnapped);
      return bindOnceIn(this.d, snapped, (v) => this.jsonOf({ ...e, type: 'real' }, v));
    }
    if (e.type === 'real') {
      // NaN and the infinities are no JSON numbers: written as the strings make-series writes. NaN <> NaN
      // is false in DuckDB, hence its own test; an engine's infinity text would make the whole value invalid JSON.
      const duck = this.d.name === 'duckdb';
      const nan = duck ? `isnan(${x})` : `is_nan(${x})`;
      const inf = duck ? `isinf(${x})` : `is_infinite(${x})`;
      return `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${nan} THEN '"NaN"' WHEN ${inf} THEN CASE WHEN ${x} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END ELSE ${this.d.jsonText(x, e.type)} END`;
    }
    return `coalesce(${this.d.jsonText(x, e.type)}, 'null')`;
  }

  aggregate(agg: IrAgg): string {
    const d = this.d;
    const [ex, ey] = agg.args;
    const x = ex ? this.expr(ex) : '';
    const y = ey ? this.expr(ey) : '';
    switch (agg.fn) {
      case 'count':
        return 'count(*)';
      case 'countif':
        // A predicate that is null counts as false; count_if over no rows or only nulls is null in DuckDB.
        // https://learn.microsoft.com/en-us/kusto/query/countif-aggregation-function
        return `CAST(coalesce(${d.countIf(x)}, 0) AS BIGINT)`;
      case 'sum':
        return total(agg, `sum(${x})`);
      case 'sumif':
        return total(agg, `sum(CASE WHEN ${y} THEN ${x} END)`);
      case 'avg':
      case 'avgif': {
        const value = agg.type === 'datetime' ? d.epochMicros(x) : x;
        const avg = `avg(${agg.fn === 'avg' ? value : `CASE WHEN ${y} THEN ${value} END`})`;
        // A decimal has no NaN: its average over no rows stays null; so does a datetime's.
        if (agg.type === 'timespan') return `CAST(${avg} AS BIGINT)`;
        if (agg.type === 'datetime') return d.fromEpochMicros(`CAST(trunc(${avg}) AS BIGINT)`);
        return agg.type === 'decimal' ? avg : `coalesce(${avg}, ${d.nan()})`;
      }
      // NaN is not larger or smaller than anything in Kusto; DuckDB would make it the maximum. It is skipped.
      case 'min':
        return `min(${this.withoutNan(ex!, x)})`;
      case 'max':
        return `max(${this.withoutNan(ex!, x)})`;
      case 'dcount':
        return `count(DISTINCT ${x})`;
      case 'percentile': {
        const p = d.percentile(x, (agg.percentile ?? 50) / 100);
        // percentile of an int is a long (lib/query/aggregates.ts): widened so later arithmetic is 64-bit.
        return agg.type === 'long' && ex!.type === 'int' ? `CAST(${p} AS BIGINT)` : p;
      }
      case 'arg_max':
      case 'arg_min':
        // "When ExprToMinimize is null for all rows in a group, one row in the group is picked" (the
        // arg_min page; its Banana row keeps Color Yellow): the engines' arg_max skips those rows, so
        // the dialect orders them last when the expression can be null.
        // A NaN maximizes and minimizes nothing (every comparison with it is false), as max() skips it.
        return d.argMax(x, this.withoutNan(ey!, y), agg.fn === 'arg_min', this.nullable(ey!) || this.mayBeNan(ey!));
      case 'make_list':
      case 'make_set':
        return d.jsonArrayAgg(
          // Reals through jsonOf: NaN and the infinities as strings, so the list stays JSON.
          ex!.type === 'real' || ex!.type === 'decimal'
            ? this.jsonOf(ex!, agg.fn === 'make_set' ? distinctReal(x, ex!.type) : x)
            : d.jsonText(x, ex!.type),
          ex!.type === 'dynamic' ? `NOT ${d.dynIsNull(x)}` : `${x} IS NOT NULL`,
          agg.fn === 'make_set',
          this.setsInOrder,
        );
      case 'stdev':
        return `coalesce(stddev_samp(${x}), 0E0)`;
      case 'take_any':
        return d.anyValue(x, agg.sameRow === true);
      case 'catalog':
        return this.catalog(
          catalogEntry(agg.ref!),
          agg.args,
          agg.args.map((e) => this.expr(e)),
          agg.type,
        );
    }
  }

  /**
   * Kusto's == and != on nulls: null vs a value gives false (==) or true (!=); null vs null gives null.
   * https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/null-values
   */
  private nullSafe(ex: IrExpr, ey: IrExpr, x: string, y: string, op: string, oneNull: string): string {
    const nx = this.nullable(ex);
    const ny = this.nullable(ey);
    if (!nx && !ny) return `(${x} ${op} ${y})`;
    if (nx && ny)
      return `CASE WHEN ${x} IS NULL AND ${y} IS NULL THEN NULL ELSE coalesce(${x} ${op} ${y}, ${oneNull}) END`;
    return `coalesce(${x} ${op} ${y}, ${oneNull})`;
  }

  /**
   * == and != as Kusto compares reals (as .NET does): NaN is neither equal to, smaller nor larger than
   * anything, so every comparison with a NaN operand is false and != is true (NaN == NaN is false).
   * DuckDB makes NaN = NaN (and orders NaN above every number: `ordered`), so there the equality is
   * corrected when both operands may be NaN (their SQL is then written twice; the SQL size limit
   * bounds what nesting makes of that). With one, DuckDB's = is already false and <> true.
   */
  private nanFalse(ex: IrExpr, ey: IrExpr, x: string, y: string, cmp: string, ne: boolean): string {
    // No arrays nor closure for the usual case of no real operand.
    if (this.d.name !== 'duckdb' || !this.mayBeNan(ex) || !this.mayBeNan(ey)) return cmp;
    return this.nanCorrected([ex, ey], [x, y], cmp, ne);
  }

  /**
   * `x op y` for <, <=, >, >= as Kusto compares (nanFalse). When one operand may be NaN and the other
   * cannot, DuckDB's answer is already false unless the NaN operand is the one that must be the
   * greater (NaN > 1 is true there). That comparison is written over the operands' negations, the
   * other way round (x > y as -x < -y), where NaN, its own negation, is again above every number, so
   * an expensive operand (a conversion of a dynamic value) is evaluated once, not twice as the NaN
   * test would; a bare column keeps the test (short SQL, a filter the scan may take).
   */
  private ordered(ex: IrExpr, ey: IrExpr, x: string, y: string, op: '<' | '<=' | '>' | '>='): string {
    const cmp = `(${x} ${op} ${y})`;
    if (this.d.name !== 'duckdb') return cmp;
    const [nx, ny] = [this.mayBeNan(ex), this.mayBeNan(ey)];
    const nanMustBeGreater = op[0] === '>' ? nx && !ny : ny && !nx;
    if (!nanMustBeGreater) return nx && ny ? this.nanCorrected([ex, ey], [x, y], cmp, false) : cmp;
    if ((nx ? ex : ey).kind === 'col') return this.nanCorrected([ex, ey], [x, y], cmp, false);
    const negated = (e: IrExpr, v: string): string =>
      e.type === 'real' || e.type === 'decimal' ? `(-(${v}))` : `(-CAST(${v} AS DOUBLE))`;
    return `(${negated(ex, x)} ${MIRRORED[op]} ${negated(ey, y)})`;
  }

  /**
   * nanFalse over any operands (between's three, in's value): `cmp` is false, or true when `ne`,
   * when one that may be NaN is. An ordered comparison or between with a null operand stays null
   * (null values page: a comparison with null is null), a NaN beside it or not: only a true `cmp`
   * is corrected then. (== and in are never null here: their callers coalesce them.)
   */
  private nanCorrected(operands: readonly IrExpr[], sql: readonly string[], cmp: string, ne: boolean): string {
    if (this.d.name !== 'duckdb') return cmp;
    const tests = sql.filter((_x, i) => this.mayBeNan(operands[i]!)).map((x) => this.d.isNan(x));
    if (tests.length === 0) return cmp;
    const nan = `coalesce(${tests.join(' OR ')}, FALSE)`;
    if (ne) return `(${cmp} OR ${nan})`;
    const nullable = sql.filter((_x, i) => this.nullable(operands[i]!)).map((x) => `${x} IS NOT NULL`);
    if (nullable.length === 0) return `(${cmp} AND NOT ${nan})`;
    // The NaN correction only where no operand is null. cmp itself is written once: rand() in it is
    // one draw (an operand's NaN and null tests are the same for every draw); a long operand is
    // bound once.
    const correct = `coalesce((${tests.join(' OR ')}) AND ${nullable.join(' AND ')}, FALSE)`;
    return bindRepeated(`(${cmp} AND NOT ${correct})`, sql);
  }

  private withoutNan(e: IrExpr, x: string): string {
    return this.d.name === 'duckdb' && this.mayBeNan(e) ? `nullif(${x}, ${this.d.nan()})` : x;
  }

  private mayBeNan(e: IrExpr): boolean {
    if (e.type !== 'real' && e.type !== 'decimal') return false;
    return e.kind !== 'lit' || (typeof e.value === 'number' && Number.isNaN(e.value));
  }

  /**
   * A caseless string test whose constant holds a letter beyond ASCII, as a regex folding ASCII
   * only (lib/query/sql/ascii-caseless.ts); undefined where lower() gives Kusto's answer. For a
   * whole-text match either side may be the constant. Two computed texts keep lower() (docs).
   */
  private caseless(ex: IrExpr, ey: IrExpr, x: string, y: string, place: CaselessPlace): string | undefined {
    const right = beyondAsciiConstant(ey);
    if (right !== undefined) return this.d.regexMatch(x, this.d.string(caselessRegex(right, place)));
    const left = place === 'whole' ? beyondAsciiConstant(ex) : undefined;
    return left === undefined ? undefined : this.d.regexMatch(y, this.d.string(caselessRegex(left, place)));
  }

  private nullable(e: IrExpr): boolean {
    if (e.type === 'string') return false;
    return !(e.kind === 'lit' && e.value !== null);
  }

  private isEmpty(e: IrExpr, x: string): string {
    if (e.type === 'string') return `(${x} = '')`;
    if (e.type === 'dynamic') return `(${this.d.dynIsNull(x)} OR CAST(${x} AS VARCHAR) = '""')`;
    return `(${x} IS NULL)`;
  }

  toStringOf(e: IrExpr, x: string): string {
    const d = this.d;
    switch (e.type) {
      case 'string':
        return x;
      case 'dynamic':
        return d.dynToString(x);
      case 'real':
        return d.realToString(x);
      case 'decimal':
        // Some decimals are the engine's DECIMAL (parse_version), which round() takes only to a constant place.
        return d.realToString(bindOnceIn(d, `CAST(${x} AS DOUBLE)`, decimalSnapped));
      case 'bool':
        // Kusto writes bools as .NET does: tostring(true) is "True".
        return `CASE WHEN ${x} THEN 'True' WHEN NOT ${x} THEN 'False' ELSE '' END`;
      case 'datetime':
        return d.datetimeToString(x);
      case 'timespan':
        return this.timespanToString(x);
      default:
        return `coalesce(CAST(${x} AS VARCHAR), '')`;
    }
  }

  /** `[-][d.]hh:mm:ss[.fffffff]` from BIGINT microseconds. */
  private timespanToString(x: string): string {
    const d = this.d;
    const ax = `abs(${x})`;
    const part = (mod: string, div: string): string =>
      `lpad(CAST(${d.intDiv(`(${ax} % ${mod})`, div)} AS VARCHAR), 2, '0')`;
    return (
      `CASE WHEN ${x} IS NULL THEN '' ELSE ` +
      `CASE WHEN ${x} < 0 THEN '-' ELSE '' END || ` +
      `CASE WHEN ${ax} >= 86400000000 THEN CAST(${d.intDiv(ax, '86400000000')} AS VARCHAR) || '.' ELSE '' END || ` +
      `${part('86400000000', '3600000000')} || ':' || ${part('3600000000', '60000000')} || ':' || ${part('60000000', '1000000')} || ` +
      `CASE WHEN ${ax} % 1000000 <> 0 THEN '.' || lpad(CAST((${ax} % 1000000) * 10 AS VARCHAR), 7, '0') ELSE '' END END`
    );
  }

  private toNumber(e: IrExpr, x: string, target: 'real' | 'long' | 'int'): string {
    const d = this.d;
    const sqlType = d.sqlType(target);
    switch (e.type) {
      case 'dynamic': {
        if (target === 'real') return d.dynToDouble(x);
        const long = d.dynToLong(x);
        return target === 'int' ? d.tryCast(long, sqlType) : long;
      }
      case 'string':
        // The engines accept digit separators ('1_000') that Kusto does not; Kusto accepts hex integers ('0xFF').
        if (target === 'real')
          return `CASE WHEN NOT ${d.contains(x, "'_'")} THEN ${d.tryCast(`trim(${x})`, sqlType)} END`;
        return `CASE WHEN ${d.regexMatch(`trim(${x})`, d.string(LONG_TEXT_PATTERN))} THEN ${d.tryCast(`trim(${x})`, sqlType)} END`;
      case 'bool':
        return `CAST(CASE WHEN ${x} THEN 1 WHEN NOT ${x} THEN 0 END AS ${sqlType})`;
      case 'timespan':
        // Kusto converts a timespan to its number of ticks (100 ns); an int that cannot hold them is null.
        return target === 'int' ? d.tryCast(`${x} * 10`, sqlType) : `CAST(${x} * 10 AS ${sqlType})`;
      case 'datetime': {
        // A datetime converts to its .NET ticks: 100 ns units since 0001-01-01.
        const ticks = `(${d.epochMicros(x)} * 10 + ${-BIN_ORIGIN_MICROS * 10n})`;
        return target === 'int' ? d.tryCast(ticks, sqlType) : `CAST(${ticks} AS ${sqlType})`;
      }
      case 'real':
      case 'decimal':
        // The toint page: a fractional input is truncated (an engine's cast would round 1.7 to 2).
        return target === 'real' ? `CAST(${x} AS ${sqlType})` : d.tryCast(`trunc(${x})`, sqlType);
      default:
        // A long beyond int's range does not convert: null (the toint page), not an engine error.
        return target === 'int' ? d.tryCast(x, sqlType) : `CAST(${x} AS ${sqlType})`;
    }
  }
}

/** Regex for Kusto's `has`: the needle as a whole term, bounded by non-alphanumerics or the ends. */
export function termPattern(needle: string, caseInsensitive: boolean): string {
  // (?i) folds every letter in RE2: a needle with a letter beyond ASCII folds its ASCII letters alone.
  const asciiOnly = caseInsensitive && foldsBeyondAscii(needle);
  const escaped = literalPattern(needle, asciiOnly);
  return `${caseInsensitive && !asciiOnly ? '(?i)' : ''}(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`;
}

/** sum() of no rows is 0 in Kusto (null in SQL). A function, not a closure per call (keepNames bundles name each closure). */
function total(agg: IrAgg, sum: string): string {
  // decimal is held as a double on both engines: a BIGINT cast would drop its fraction.
  return agg.type === 'real' || agg.type === 'decimal'
    ? `coalesce(${sum}, 0E0)`
    : `CAST(coalesce(${sum}, 0) AS BIGINT)`;
}

/**
 * A catalog builder's view of one call. Builders destructure str and json, so they are functions of
 * their own, assigned in the constructor: an object literal's arrow properties would each be named
 * again per call by esbuild's keepNames (the deployed bundle's setting), an assignment is not.
 */
class CatalogCall implements SqlCall {
  /** The texts str() wrote, in the order asked. */
  readonly texts: string[] = [];
  readonly str: (i: number) => string;
  readonly json: (i: number) => string;
  readonly jsonOfType: (x: string, t: KqlType) => string;
  readonly setsInOrder: boolean;

  constructor(
    w: ExpressionWriter,
    readonly a: readonly string[],
    readonly args: readonly IrExpr[],
    readonly type: KqlType,
    readonly d: SqlDialect,
  ) {
    this.str = (i) => {
      const text = w.toStringOf(args[i]!, a[i]!);
      this.texts.push(text);
      return text;
    };
    this.json = (i) => w.jsonOf(args[i]!, a[i]!);
    this.jsonOfType = (x, t) => w.jsonOf({ kind: 'lit', type: t, value: null }, x);
    this.setsInOrder = w.setsInOrder;
  }
}

/** real and decimal: both doubles in the engines, so a timespan times or over either is computed alike. */
const isFractional = (t: KqlType): boolean => t === 'real' || t === 'decimal';

/**
 * A timespan times or over a real number, cut to whole microseconds. Null where the result is not a
 * finite long (over 0.0, or past the range): a null as for `/ 0` of longs, never an engine's error.
 */
function fractionalTicks(d: SqlDialect, product: string): string {
  return d.tryCast(`trunc(${product})`, 'BIGINT');
}

/** x rounded down to a multiple of y: integer arithmetic (a floor also for negative x) or floor(). */
function binFloor(x: string, y: string, integer: boolean): string {
  return integer ? `(${x} - (((${x} % ${y}) + ${y}) % ${y}))` : `(floor(${x} / ${y}) * ${y})`;
}

/**
 * bin() of a size computed per row: null where the size is not positive, as for a constant one
 * (a constant size was checked by the analyzer, so its SQL stays as it was).
 */
function positiveSize(size: IrExpr, y: string, binned: string): string {
  return size.kind === 'lit' ? binned : `CASE WHEN ${y} > 0 THEN ${binned} END`;
}
