// What differs between SQL engines: quoting, literal spelling and function spelling. The generator
// (generator.ts) is shared; a dialect never sees user text except through `string()`, its one
// escaping function for literals, and `quoteIdent()`, which only receives schema or generated names.
import type { KqlType, PathSegment, ScopeRestriction } from '../ir';
import type { TableName } from '../../telemetry/tables';
import { TICKS_PER_MICRO } from '../literals';

export type DialectName = 'duckdb' | 'timestream';

/** Origin of datetime bins: 0001-01-01T00:00:00Z in microseconds since the Unix epoch. */
export const BIN_ORIGIN_MICROS = -62135596800000000n;
export const MICROS_PER_DAY = 86400000000n;

/** tobool() of a text (tobool page): "true"/"1" and "false"/"0", any case, spaces around skipped; else null. */
export const textToBool = (text: string): string =>
  `CASE lower(trim(${text})) WHEN 'true' THEN TRUE WHEN '1' THEN TRUE WHEN 'false' THEN FALSE WHEN '0' THEN FALSE END`;

/** quoteIdent()'s memo: at most MAX_QUOTED names of at most MAX_QUOTED_NAME characters (then it starts over). */
const QUOTED = new Map<string, string>();
const MAX_QUOTED = 4096;
const MAX_QUOTED_NAME = 64;

/**
 * A real as a set keeps it: -0.0 and 0.0 are one value (.NET's Equals, and == here), so -0.0 + 0.0
 * (which IEEE makes 0.0) is what make_set, make_set_if and hll write; other types as they are.
 */
export const distinctReal = (x: string, type: string): string =>
  type === 'real' || type === 'decimal' ? `(${x} + 0E0)` : x;

export abstract class SqlDialect {
  abstract readonly name: DialectName;

  // ------------------------------------------------------------ quoting and literals
  /**
   * Quoted once per process for the names every query repeats (the generator quotes each column of
   * each subquery, and the same string instance makes its `sql === q(ref)` tests a pointer
   * comparison): schema columns and generated refs, a bounded set; long names are not kept.
   */
  quoteIdent(name: string): string {
    let quoted = QUOTED.get(name);
    if (quoted === undefined) {
      quoted = name.includes('"') ? `"${name.replace(/"/g, '""')}"` : `"${name}"`;
      if (name.length <= MAX_QUOTED_NAME) {
        if (QUOTED.size >= MAX_QUOTED) QUOTED.clear();
        QUOTED.set(name, quoted);
      }
    }
    return quoted;
  }

  /** The one function through which every string value reaches SQL. Control characters become chr(n). */
  string(value: string): string {
    // Usual case first, in one pass: no control character, so one quoted literal. (Its parentheses
    // around a text holding ' || ' are the general path's, kept so the SQL is the same text.)
    let i = 0;
    while (i < value.length) {
      const code = value.charCodeAt(i);
      if (code < 0x20 || code === 0x7f) break;
      i++;
    }
    if (i === value.length) {
      const quoted = `'${value.includes("'") ? value.replaceAll("'", "''") : value}'`;
      return quoted.includes(' || ') ? `(${quoted})` : quoted;
    }
    let out = '';
    let literal = '';
    const flush = (): void => {
      if (literal) out += (out ? ' || ' : '') + `'${literal}'`;
      literal = '';
    };
    for (const ch of value) {
      const code = ch.codePointAt(0)!;
      if (code < 0x20 || code === 0x7f) {
        flush();
        out += (out ? ' || ' : '') + `chr(${code})`;
      } else literal += ch === "'" ? "''" : ch;
    }
    if (literal || !out) out += (out ? ' || ' : '') + `'${literal}'`;
    return out.includes(' || ') ? `(${out})` : out;
  }

  long(value: bigint): string {
    return `CAST(${value.toString()} AS BIGINT)`;
  }
  int(value: bigint): string {
    return `CAST(${value.toString()} AS INTEGER)`;
  }
  real(value: number): string {
    if (Number.isNaN(value)) return this.nan();
    if (value === Infinity) return this.infinity(false);
    if (value === -Infinity) return this.infinity(true);
    // String(-0) is "0": negative zero keeps its sign (tostring(-0.0) is "-0", as .NET writes it).
    const text = Object.is(value, -0) ? '-0' : String(value);
    return text.includes('e') ? text.replace('e', 'E') : `${text}E0`;
  }
  abstract nan(): string;
  /** Whether a real is NaN (null for null). */
  abstract isNan(x: string): string;
  abstract infinity(negative: boolean): string;
  bool(value: boolean): string {
    return value ? 'TRUE' : 'FALSE';
  }
  abstract datetime(ticks: bigint): string;
  /** Timespans are BIGINT microseconds on the SQL side. */
  timespan(ticks: bigint): string {
    return this.long(ticks / TICKS_PER_MICRO);
  }
  abstract dynamic(json: string): string;
  abstract sqlType(type: KqlType): string;
  nullOf(type: KqlType): string {
    return `CAST(NULL AS ${this.sqlType(type)})`;
  }

  // ------------------------------------------------------------ function spellings
  abstract intDiv(a: string, b: string): string;
  realDiv(a: string, b: string): string {
    return `(CAST(${a} AS DOUBLE) / ${b})`;
  }
  abstract regexMatch(value: string, pattern: string): string;
  abstract contains(haystack: string, needle: string): string;
  abstract startsWith(value: string, prefix: string): string;
  abstract endsWith(value: string, suffix: string): string;
  tryCast(value: string, type: string): string {
    return `TRY_CAST(${value} AS ${type})`;
  }

  abstract epochMicros(ts: string): string;
  abstract fromEpochMicros(us: string): string;
  abstract addMicros(ts: string, us: string): string;
  abstract binDatetime(ts: string, micros: bigint): string;
  startOfDay(ts: string): string {
    return `date_trunc('day', ${ts})`;
  }
  /** ISO 8601 UTC text with up to 7 fractional digits and Z, as Kusto's tostring(datetime). */
  abstract datetimeToString(ts: string): string;
  abstract parseDatetime(text: string): string;
  abstract realToString(x: string): string;

  abstract dynGet(value: string, path: readonly PathSegment[]): string;
  /** The member of a dynamic value under a key computed per row (null when absent). */
  abstract dynKey(value: string, key: string): string;
  /** The element at an integer index computed per row, negative from the end (null when absent). */
  abstract dynIndex(value: string, index: string): string;
  abstract dynIsNull(value: string): string;
  abstract dynToString(value: string): string;
  /**
   * A dynamic value's JSON text (VARCHAR) with its reals written as Kusto writes them (1E-07, 1E+20);
   * the text as it is where the dialect does not rewrite them (Timestream: its own text, documented).
   */
  kustoJsonText(text: string): string {
    return text;
  }
  abstract dynToDouble(value: string): string;
  abstract dynToLong(value: string): string;
  abstract dynToBool(value: string): string;
  abstract parseJson(text: string): string;
  /** The JSON text of a non-dynamic value (for make_list / make_set elements). */
  abstract jsonText(value: string, type: KqlType): string;
  /**
   * JSON array built from JSON-text elements, [] when none. `inOrder` (distinct only): each element
   * where it first comes, for input whose rows come in one order (sql/generator.ts, `setsInOrder`).
   */
  abstract jsonArrayAgg(element: string, filter: string, distinct: boolean, inOrder?: boolean): string;

  abstract percentile(value: string, fraction: number): string;
  /**
   * ret at the row of the largest (min: smallest) by. A group whose by is null in every row still
   * gives one of its rows, and every column of one arg_max call comes from one row; by is written
   * once per column, since arg_max(x, *) repeats it for each input column.
   */
  abstract argMax(ret: string, by: string, min: boolean, byNullable: boolean): string;
  abstract anyValue(value: string, multi: boolean): string;
  countIf(predicate: string): string {
    return `count_if(${predicate})`;
  }

  // ------------------------------------------------------------ mv-expand (absent: refused on this engine)
  /** How many rows mv-expand makes of one dynamic value: elements, properties, or 1 for null and scalars. */
  expandCount?(value: string): string;
  /** Element `index` (0-based) of a dynamic value: an array element, a property as a bag or [key, value]. */
  expandElement?(value: string, index: string, bagKind: 'bag' | 'array'): string;

  // ------------------------------------------------------------ sources
  /** SELECT of the logical columns of one table, restricted to the caller's scope. */
  abstract scan(table: TableName, scope: ScopeRestriction): string;
  /** FROM-clause item producing one column `ref` from `from` to `to` inclusive by `step`. */
  abstract series(from: string, to: string, step: string, type: KqlType, ref: string): string;
}
