// Kusto's long arithmetic wraps around 64 bits (the long page; constant folding wraps the same way),
// where DuckDB's BIGINT +, -, * and unary minus raise an overflow error. An operation that can overflow
// is computed in HUGEINT (a product of two longs fits in it: long.min * long.min is 2^126) and its low
// 64 bits are taken: & on a two's-complement HUGEINT gives the value modulo 2^64. Each operand other
// than a column is written once, so nested arithmetic grows linearly, and an aggregate inside stays
// legal (no TRY).
// HUGEINT arithmetic costs several times BIGINT's on DuckDB, so an operation whose operands are
// bounded (ints, small constants, arithmetic of those) is written as before: it cannot overflow.
import type { IrExpr } from '../ir';

const TWO_63 = 1n << 63n;
const LOW_64_BITS = (1n << 64n) - 1n;

/** The operations wrapped when their result is a long. */
export const WRAPPING: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'neg']);

/**
 * A bound on the magnitude of a long or int expression's value: a constant's own, 2^31 for anything
 * typed int, the exact arithmetic's bound for +, -, * and negation of bounded operands, else 2^63.
 */
export function magnitudeBound(e: IrExpr): bigint {
  if (e.kind === 'lit' && typeof e.value === 'bigint') return e.value < 0n ? -e.value : e.value;
  if (e.type === 'int') return 1n << 31n;
  if (e.kind !== 'call' || e.type !== 'long' || !WRAPPING.has(e.fn)) return TWO_63;
  const exact = exactBound(e.fn, e.args);
  return exact < TWO_63 ? exact : TWO_63;
}

/** The bound of the exact (unwrapped) result of fn over operands bounded by a and b. */
const combined = (fn: string, [a = 0n, b = 0n]: readonly bigint[]): bigint =>
  fn === 'mul' ? a * b : fn === 'neg' ? a : a + b;

/** The bound of the exact (unwrapped) result of fn over args. */
const exactBound = (fn: string, args: readonly IrExpr[]): bigint => combined(fn, args.map(magnitudeBound));

/** Whether a long-typed +, -, * or negation over args may leave the long range (and so must wrap). */
export function mayOverflow(fn: string, args: readonly IrExpr[]): boolean {
  return exactBound(fn, args) >= TWO_63;
}

/**
 * 2^63 as HUGEINT SQL: the largest long plus one, which the engine folds once. Written out, the
 * literal 9223372036854775808 would read as the long overflow other writers guard against.
 */
const HUGE_TWO_63 = `(CAST(${TWO_63 - 1n} AS HUGEINT) + 1)`;

/** sql (a HUGEINT computation) as the long its low 64 bits hold. */
function lowLong(sql: string): string {
  return `CAST(((${sql} + ${HUGE_TWO_63}) & ${LOW_64_BITS}) - ${HUGE_TWO_63} AS BIGINT)`;
}

/** HUGEINT holds magnitudes below 2^127: a chain left unwrapped stays at or below this. */
const HUGEINT_ROOM = 1n << 126n;

/**
 * The magnitudes tried, largest first, as the range within which every unbounded column of a chain
 * lets the chain run in plain BIGINT (see LongWrapper).
 */
const GUARD_RANGES: readonly bigint[] = [62n, 53n, 40n, 31n, 20n, 15n].map((bits) => 1n << bits);

/** A column reference as the writer spells one (`"_c1"`, `"t"."x"`): cheap to read again and never volatile. */
const COLUMN_REFERENCE = /^(?:"(?:[^"]|"")*"\.)?"(?:[^"]|"")*"$/;

/** Most unbounded columns one guard tests. */
const MAX_GUARDED_COLUMNS = 4;

/**
 * An operand: its SQL, whether that is a HUGEINT already, the bound of its magnitude, its plain
 * BIGINT computation, and whether that computation stays in the long range when each unbounded
 * column (`columns`) lies within a given magnitude (a leaf's own bound otherwise).
 */
interface Operand {
  readonly sql: string;
  readonly huge: boolean;
  readonly bound: bigint;
  readonly plain: string;
  /** The unbounded columns the plain computation reads; null: some unbounded operand is no column. */
  readonly columns: ReadonlySet<string> | null;
  /** The bound of the plain computation's result when each unbounded column lies within `range`; null past the long range at any step. */
  readonly boundWithin: (range: bigint) => bigint | null;
}

/** An operand that is not wrapped arithmetic written here: a column, a literal, a call. */
function leaf(e: IrExpr, sql: string): Operand {
  const bound = magnitudeBound(e);
  const text = `(${sql})`;
  const unbounded = bound >= TWO_63;
  const columns = !unbounded ? new Set<string>() : COLUMN_REFERENCE.test(sql) ? new Set([sql]) : null;
  return { sql: text, huge: false, bound, plain: text, columns, boundWithin: (range) => (unbounded ? range : bound) };
}

/**
 * DuckDB SQL of long arithmetic wrapping around 64 bits, each operand written once. The low 64 bits
 * of a sum, difference or product depend only on the operands' low 64 bits, so an operand that is
 * itself wrapped arithmetic (x * 3 + 1) is used before its wrap while the HUGEINT has room: one wrap
 * for the chain instead of one for each operation.
 * HUGEINT arithmetic costs many times BIGINT's per row. Where the chain's unbounded operands are all
 * columns (a `range`, a `datatable`, an `mv-expand` of longs), the chain is also written in plain
 * BIGINT behind a test that each such column lies within the largest range that keeps every step
 * in the long range: rows inside it (nearly all) take the plain computation, the others (and nulls)
 * the wrapped one. A column is then read up to three times, which costs nothing like HUGEINT.
 */
export class LongWrapper {
  /** The HUGEINT computation behind each wrapped SQL text written so far. */
  private readonly unwrapped = new Map<string, Operand>();
  /** Whether chains over columns get their range-tested BIGINT form (off in the row walks: generator.ts). */
  guardsColumns = true;

  /** x fn y (y unused for neg), from the operands' IR and SQL. */
  write(fn: string, args: readonly IrExpr[], sql: readonly string[]): string {
    const plain = args.map((e, i) => leaf(e, sql[i]!));
    const fused = plain.map((p, i) => this.unwrapped.get(sql[i]!) ?? p);
    const chosen = resultBound(fn, fused) <= HUGEINT_ROOM ? fused : plain;
    const [a, b] = chosen as [Operand, Operand | undefined];
    const wide = a.huge || b?.huge ? a.sql : `CAST(${a.sql} AS HUGEINT)`;
    const op = fn === 'neg' ? `(-${wide})` : `(${wide} ${SYMBOL[fn]} ${b!.sql})`;
    const chain = chained(fn, a, b, op);
    const out = (this.guardsColumns ? guarded(chain) : undefined) ?? lowLong(op);
    this.unwrapped.set(out, chain);
    return out;
  }
}

/** The operand fn computes over a and b: op is its HUGEINT SQL. */
function chained(fn: string, a: Operand, b: Operand | undefined, op: string): Operand {
  const operands = b ? [a, b] : [a];
  const columns = a.columns === null || b?.columns === null ? null : new Set([...a.columns, ...(b?.columns ?? [])]);
  return {
    sql: op,
    huge: true,
    bound: resultBound(fn, operands),
    plain: fn === 'neg' ? `(-${a.plain})` : `(${a.plain} ${SYMBOL[fn]} ${b!.plain})`,
    columns,
    boundWithin: (range) => {
      const bounds = operands.map((o) => o.boundWithin(range));
      if (bounds.some((x) => x === null)) return null;
      const exact = combined(fn, bounds as bigint[]);
      return exact < TWO_63 ? exact : null;
    },
  };
}

/** The chain in plain BIGINT behind a range test of its unbounded columns, else its wrap; undefined: no guard fits. */
function guarded(chain: Operand): string | undefined {
  const columns = chain.columns;
  if (columns === null || columns.size === 0 || columns.size > MAX_GUARDED_COLUMNS) return undefined;
  const range = GUARD_RANGES.find((r) => chain.boundWithin(r) !== null);
  if (range === undefined) return undefined;
  const within = [...columns].map((c) => `${c} BETWEEN ${-range} AND ${range}`).join(' AND ');
  return `(CASE WHEN ${within} THEN ${chain.plain} ELSE ${lowLong(chain.sql)} END)`;
}

const SYMBOL: Readonly<Record<string, string>> = { add: '+', sub: '-', mul: '*' };

const resultBound = (fn: string, operands: readonly Operand[]): bigint =>
  combined(
    fn,
    operands.map((o) => o.bound),
  );
