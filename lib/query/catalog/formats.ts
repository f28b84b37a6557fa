// format_datetime and format_timespan: the constant format is cut into Kusto's format elements at
// compile time and each element becomes a SQL fragment over the value's calendar fields.
import type { IrExpr } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { calendarPart, floorDiv, floorMod, MICROS, pad, subSecondMicros } from './sql-helpers';
import { constantOf } from './types';

const DATETIME_LETTERS = /^(d{1,2}|f{1,7}|F{1,7}|h{1,2}|H{1,2}|m{1,2}|M{1,2}|s{1,2}|y{1,4}|tt)$/;
const TIMESPAN_LETTERS = /^(d{1,8}|f{1,7}|F{1,7}|h{1,2}|H{1,2}|m{1,2}|s{1,2})$/;
/** Kusto's documented separators; anything else in a format is refused rather than guessed. */
const SEPARATORS = new Set([' ', '/', '-', ':', ',', '.', '_', '[', ']', 'T', 'Z']);

type Piece = { readonly element: string } | { readonly text: string };

function tokenize(format: string, letters: RegExp): Piece[] | string {
  const pieces: Piece[] = [];
  for (let i = 0; i < format.length;) {
    const ch = format[i]!;
    let j = i;
    while (j < format.length && format[j] === ch) j++;
    const run = format.slice(i, j);
    if (letters.test(run)) pieces.push({ element: run });
    else if (SEPARATORS.has(ch)) pieces.push({ text: run });
    else return `unsupported format element '${run}'`;
    i = j;
  }
  return pieces;
}

const check =
  (letters: RegExp) =>
  (args: readonly IrExpr[]): readonly [number, string] | undefined => {
    const r = tokenize(String(constantOf(args[1]) ?? ''), letters);
    return typeof r === 'string' ? [1, r] : undefined;
  };
export const FORMAT_DATETIME_CHECK = check(DATETIME_LETTERS);
export const FORMAT_TIMESPAN_CHECK = check(TIMESPAN_LETTERS);

/** n digits of the fraction of a second (f: always; F: trailing zeros dropped). */
function fraction(micros: string, element: string): string {
  const digits = `substr(${pad(micros, 6)} || '0', 1, ${element.length})`;
  return element[0] === 'F' ? `rtrim(${digits}, '0')` : digits;
}

function concat(parts: string[]): string {
  return parts.length === 0 ? "''" : parts.length === 1 ? parts[0]! : `(${parts.join(' || ')})`;
}

export function formatDatetime(d: SqlDialect, ts: string, format: string): string {
  const pieces = tokenize(format, DATETIME_LETTERS) as Piece[];
  const field = (p: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'): string => calendarPart(d, p, ts);
  const parts = pieces.map((piece) => {
    if ('text' in piece) return d.string(piece.text);
    const e = piece.element;
    switch (e[0]) {
      case 'y':
        return e.length <= 2 ? pad(floorMod(field('year'), '100'), e.length) : pad(field('year'), e.length);
      case 'M':
        return pad(field('month'), e.length);
      case 'd':
        return pad(field('day'), e.length);
      case 'H':
        return pad(field('hour'), e.length);
      case 'h':
        return pad(`((${field('hour')} + 11) % 12 + 1)`, e.length);
      case 'm':
        return pad(field('minute'), e.length);
      case 's':
        return pad(field('second'), e.length);
      case 't':
        return `CASE WHEN ${field('hour')} < 12 THEN 'AM' ELSE 'PM' END`;
      default:
        return fraction(subSecondMicros(d, ts), e);
    }
  });
  return `coalesce(${concat(parts)}, '')`;
}

export function formatTimespan(d: SqlDialect, us: string, format: string): string {
  const pieces = tokenize(format, TIMESPAN_LETTERS) as Piece[];
  const abs = `abs(${us})`;
  const unit = (size: bigint, modulo?: bigint): string => {
    const n = floorDiv(d, abs, String(size));
    return modulo === undefined ? n : `(${n} % ${modulo})`;
  };
  const parts = pieces.map((piece) => {
    if ('text' in piece) return d.string(piece.text);
    const e = piece.element;
    switch (e[0]) {
      case 'd':
        return pad(unit(MICROS.day), e.length);
      case 'h':
      case 'H':
        return pad(unit(MICROS.hour, 24n), e.length);
      case 'm':
        return pad(unit(MICROS.minute, 60n), e.length);
      case 's':
        return pad(unit(MICROS.second, 60n), e.length);
      default:
        return fraction(`(${abs} % 1000000)`, e);
    }
  });
  return `coalesce(CASE WHEN ${us} < 0 THEN '-' ELSE '' END || ${concat(parts)}, '')`;
}
