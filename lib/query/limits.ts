// The compiler's limits (docs/query-api.md, "Limits"): each violation is a QueryError with its own
// code, a message that states the limit, and the position where it was crossed. The defaults stay
// far beyond what a person writes and keep the generated SQL cheap for the engine to plan
// (bench/query-limits.bench.ts measures DuckDB's planning time against depth and terms).
import { ErrorFactory, type QueryLimitCode } from './errors';
import type { IrExpr } from './ir';
import { oncePerProcessMs } from './once-per-process';
import type { Span } from './tokens';

export interface QueryLimits {
  /** Characters of query text. */
  readonly maxQueryLength: number;
  /**
   * How deep one construct may sit inside another: parentheses, brackets and `.` access, call
   * arguments, unary signs, each further operand of a binary operator (`a + b + c` is 2 deep; an
   * `and`/`or` chain counts once), counted after `let` names are replaced by their values; and
   * tabular operators stacked on one source (through `let` tables too).
   */
  readonly maxDepth: number;
  /** Terms (operands and operators) of one scalar expression, counted after `let` substitution. */
  readonly maxTerms: number;
  /**
   * Terms of the whole query: each expression counts its terms after `let` substitution, but at
   * least the square of its depth (the engine's planning time grows with depth much faster than
   * with terms); each column a subquery passes on counts one.
   */
  readonly maxQueryTerms: number;
  /** Characters of one name: identifier, `['bracketed name']`, `let` name. */
  readonly maxNameLength: number;
  /** `let` statements. */
  readonly maxStatements: number;
  /** Characters of the generated SQL (dialects repeat some arguments, e.g. tostring() of a real 4 times). */
  readonly maxSqlLength: number;
  /** Milliseconds of compile time (lexing to SQL): a backstop for anything the limits above miss. */
  readonly compileBudgetMs: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({
  maxQueryLength: 100_000,
  maxDepth: 64,
  maxTerms: 2_000,
  maxQueryTerms: 5_000,
  maxNameLength: 1_024,
  maxStatements: 100,
  maxSqlLength: 131_072,
  compileBudgetMs: 500,
});

/** The defaults overridden by `overrides`. @throws TypeError for a value that is not a positive integer (a caller's bug). */
export function resolveLimits(overrides?: Partial<QueryLimits>): QueryLimits {
  // The defaults are frozen and valid: no copy nor check per compile when nothing is overridden.
  if (overrides === undefined) return DEFAULT_QUERY_LIMITS;
  const limits = { ...DEFAULT_QUERY_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || (value as number) < 1)
      throw new TypeError(`limits.${key} must be a positive integer`);
  }
  return limits;
}

/** Time source of the compile budget, in milliseconds (performance.now by default; tests pass their own). */
export type Clock = () => number;

/** Clock reads are spread over this many ticks: a tick costs an increment, not a system call. */
const TICKS_PER_CLOCK_READ = 256;

/**
 * The compile-time budget: every loop of the compiler calls tick(); once the budget is spent the
 * next clock read throws QUERY_TOO_COMPLEX at the position being worked on. With `cpuMs` (the
 * default clock's companion), a wall-clock overrun counts only once the process has also used the
 * budget's CPU time since its first clock read: on a loaded machine a query waits for a core, and that
 * wait is not the query's fault (a 400 for it would blame the caller for the server's load); a
 * compile that truly runs long uses the CPU too and is still stopped.
 */
export class CompileBudget {
  private ticks = 0;
  /** The process's once-only work so far (once-per-process.ts), none of it this compile's. */
  private readonly onceAtStart = oncePerProcessMs();
  private readonly deadline: number;
  /** CPU time at the first clock read: read then, not per compile (a system call; most compiles never read the clock, and the compile bench showed a read per compile). */
  private cpuAtFirstRead: number | undefined;

  constructor(
    private readonly budgetMs: number,
    private readonly clock: Clock,
    private readonly errors: ErrorFactory,
    /** Compile time already spent by earlier compiles of the same request (a batch's other tables). */
    private readonly spentMs = 0,
    /** Milliseconds of CPU time the process has used, or none to go by the clock alone. */
    private readonly cpuMs?: Clock,
  ) {
    this.deadline = clock() + budgetMs - spentMs;
  }

  /** @throws QueryError QUERY_TOO_COMPLEX when the budget is spent; `offset` is the position in the query text. */
  tick(offset: number): void {
    if (++this.ticks % TICKS_PER_CLOCK_READ !== 0) return;
    if (this.cpuMs && this.cpuAtFirstRead === undefined) this.cpuAtFirstRead = this.cpuMs();
    // What this compile did once for the whole process is not its cost (once-per-process.ts).
    const once = oncePerProcessMs() - this.onceAtStart;
    if (this.clock() - once <= this.deadline) return;
    if (this.cpuMs && this.cpuMs() - once - this.cpuAtFirstRead! + this.spentMs <= this.budgetMs) return;
    throw this.errors.limit(
      'QUERY_TOO_COMPLEX',
      `compiling the query took longer than its budget of ${this.budgetMs} ms; simplify the query`,
      { start: offset, end: offset },
    );
  }
}

/** The process's CPU time in milliseconds (user and system), where there is a process to ask. */
const processCpuMs: Clock | undefined =
  typeof process !== 'undefined' && typeof process.cpuUsage === 'function'
    ? () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      }
    : undefined;

/** The entities the statements after a restrict statement may not read (statements-restrict.ts). */
export interface AccessRestriction {
  /** Where the statement ends: names read from here on are checked. */
  readonly end: number;
  /** Entities known at the statement and not named by it. */
  readonly hidden: ReadonlySet<string>;
  /**
   * Where a let declared after the statement ends, by its name: from there on the name reads the
   * let, not the hidden entity (the first such let; a later one of the same name reads past it).
   */
  readonly letsFrom: Map<string, number>;
  /** The statement's list as written, for the messages. */
  readonly allowed: string;
  readonly at: string;
}

/** What every stage of one compilation shares: the text, its error factory, the limits and the budget. */
export interface CompileContext {
  readonly source: string;
  readonly errors: ErrorFactory;
  readonly limits: QueryLimits;
  readonly budget: CompileBudget;
  /** Throws the limit's QueryError: `what` says what was found, the message adds the limit. */
  exceeded(code: QueryLimitCode, what: string, limit: number, span: Span): never;
  /** The query's restrict statement, set by the parser, read by the analyzer (statements-restrict.ts). */
  restriction?: AccessRestriction;
  /** The query's alias statements: database name (lower case) by alias, read by analyze-scope.ts. */
  readonly databaseAliases: Map<string, string>;
}

export function compileContext(
  source: string,
  limits: QueryLimits = DEFAULT_QUERY_LIMITS,
  /** The compile budget's clock; by default the wall clock, gated by the process's CPU time (CompileBudget). */
  clock?: Clock,
  /** Milliseconds of the budget already spent compiling: the compiles of one batch's tables share one budget. */
  budgetSpentMs?: number,
): CompileContext {
  const errors = new ErrorFactory(source);
  const budget =
    clock === undefined
      ? new CompileBudget(limits.compileBudgetMs, () => performance.now(), errors, budgetSpentMs, processCpuMs)
      : new CompileBudget(limits.compileBudgetMs, clock, errors, budgetSpentMs);
  return {
    source,
    errors,
    limits,
    budget,
    databaseAliases: new Map(),
    exceeded(code, what, limit, span) {
      throw errors.limit(code, `${what}; the limit is ${limit.toLocaleString('en-US')}`, span);
    },
  };
}

/** Refuses a query text longer than the limit, at the first character past it. */
export function checkQueryLength(ctx: CompileContext): void {
  const { source, limits } = ctx;
  if (source.length > limits.maxQueryLength) {
    ctx.exceeded(
      'QUERY_TOO_LONG',
      `the query is ${source.length.toLocaleString('en-US')} characters long`,
      limits.maxQueryLength,
      { start: limits.maxQueryLength, end: source.length },
    );
  }
}

/** Refuses a name longer than the limit, at the name. */
export function checkNameLength(ctx: CompileContext, name: string, span: Span): void {
  if (name.length > ctx.limits.maxNameLength) {
    ctx.exceeded(
      'QUERY_NAME_TOO_LONG',
      `a name of ${name.length.toLocaleString('en-US')} characters`,
      ctx.limits.maxNameLength,
      span,
    );
  }
}

/** What records need of a table keyed by IR node: a Map or a WeakMap. */
export interface NodeTable<V> {
  get(node: object): V | undefined;
  set(node: object, value: V): unknown;
  has(node: object): boolean;
}

/**
 * What the analyzer records per compilation for the limits: the depth of each analyzed value (a
 * `let` or an `extend` name stands for it wherever it is used) and the span of each expression (for
 * a limit found later, while writing SQL).
 */
export interface ExpressionRecords {
  readonly depths: NodeTable<number>;
  readonly spans: NodeTable<Span>;
  readonly terms: NodeTable<number>;
  /** The evaluate plugin a rewritten relation serves, named when an engine refuses a part of it (sql/generator.ts). */
  readonly origins: NodeTable<string>;
  /** Terms of the whole query so far (limits.maxQueryTerms). */
  queryTerms: number;
}

export function expressionRecords(): ExpressionRecords {
  // Maps, not WeakMaps: the records live for one compile, and a Map's set and get cost less.
  return { depths: new Map(), spans: new Map(), terms: new Map(), origins: new Map(), queryTerms: 0 };
}

/** Adds n terms to the query's total. @throws QueryError QUERY_TOO_MANY_TERMS at `span` past the limit. */
export function countQueryTerms(ctx: CompileContext, records: ExpressionRecords, n: number, span: Span): void {
  records.queryTerms += n;
  const max = ctx.limits.maxQueryTerms;
  if (records.queryTerms > max) {
    ctx.exceeded(
      'QUERY_TOO_MANY_TERMS',
      `a query of more than ${max.toLocaleString('en-US')} terms in all (each expression at least its depth squared, names replaced by their values; each column a subquery passes on)`,
      max,
      span,
    );
  }
}

/**
 * Terms of an analyzed expression as the SQL writer expands it: a value used twice counts twice.
 * Shared values are counted once each (memoized), so this is linear in the distinct nodes even when
 * the expansion is exponential (let b = a + a; let c = b + b; ...).
 */
export function expandedTerms(e: IrExpr, memo: NodeTable<number>): number {
  if (e.kind !== 'call') return 1;
  const known = memo.get(e);
  if (known !== undefined) return known;
  let total = 1;
  for (const a of e.args) total += expandedTerms(a, memo);
  memo.set(e, total);
  return total;
}
