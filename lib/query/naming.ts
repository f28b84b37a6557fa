// Kusto's default column names: derived from the expression where Kusto derives one, ColumnN otherwise,
// numeric suffixes for duplicates (avg_Value1, Timestamp1).
import type { Expr } from './ast';

/** Conversion and rounding functions whose result keeps the name of their first argument. */
const NAME_PRESERVING: ReadonlySet<string> = new Set([
  'tostring', 'todouble', 'toreal', 'toint', 'tolong', 'tobool', 'toboolean', 'todatetime', 'totimespan', 'todynamic',
  'toobject', 'parse_json', 'bin', 'floor', 'todecimal', 'toguid',
]);

/** The name a column gets in project/extend/summarize-by when none is given, or undefined (then ColumnN). */
export function derivedName(expr: Expr): string | undefined {
  switch (expr.kind) {
    case 'name':
      return expr.name;
    case 'member': {
      const base = derivedName(expr.target);
      return base === undefined ? undefined : `${base}_${expr.name}`;
    }
    case 'index': {
      const base = derivedName(expr.target);
      const idx = expr.index;
      if (base === undefined || idx.kind !== 'literal' || idx.value === null) return undefined;
      return `${base}_${String(idx.value)}`;
    }
    case 'call':
      return NAME_PRESERVING.has(expr.name) && expr.args[0] ? derivedName(expr.args[0]) : undefined;
    default:
      return undefined;
  }
}

/** The argument part of an aggregate's default name: avg(todouble(Value.temp)) -> Value_temp, sum(x + 1) -> ''. */
export function aggregateArgumentName(expr: Expr | undefined): string {
  if (expr === undefined) return '';
  if (expr.kind === 'call') {
    if (NAME_PRESERVING.has(expr.name)) return aggregateArgumentName(expr.args[0]);
    const inner = aggregateArgumentName(expr.args[0]);
    return inner ? `${expr.name}_${inner}` : '';
  }
  return derivedName(expr) ?? '';
}

/** base, or base1, base2 ... the first that is not taken. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

/** Column1, Column2 ... the first that is not taken. */
export function columnN(taken: ReadonlySet<string>): string {
  for (let i = 1; ; i++) if (!taken.has(`Column${i}`)) return `Column${i}`;
}

/** Closest candidate by edit distance (case-insensitive), for "did you mean" hints. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** `a*`, `*Id`, `*x*`: `*` matches any run of characters, everything else literally. */
export function wildcardRegex(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}
