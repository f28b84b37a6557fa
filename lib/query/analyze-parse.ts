// Semantic analysis of parse and parse-where (parse operator docs): the pattern becomes one regular
// expression anchored at the start, each column a capture group (`*` skips text, string constants
// match themselves; kind=regex takes them as regular expressions). Captures are strings, converted
// to their declared type above; a row that does not match gets empty columns (parse) or is dropped
// (parse-where, which also drops rows whose typed captures do not convert). kind=relaxed: a typed
// column takes text as a string column does and is null when it does not convert (the page: "extended
// columns that don't match the required type get null"), so the rest still parses.
// A source of another type is read as its tostring() text (the page). Throws QueryError
// QUERY_SEMANTIC for an unknown type or a column written twice.
import type { ParseSpec } from './ast';
import type { MvExpandHost } from './analyze-mv-expand';
import { clip } from './errors';
import type { Assigned, IrColumn, IrExpr, KqlType, Rel } from './ir';
import { analyzeScalar, convert } from './scalars';
import { captureGroupNames, notRe2 } from './regex-groups';
import { lit, typeNamed } from './types';

const NUMBER_PATTERNS: Partial<Record<KqlType, string>> = {
  long: '([-+]?\\d+)',
  int: '([-+]?\\d+)',
  real: '([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)',
};

const escapeRegex = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

export function analyzeParse(h: MvExpandHost, input: Rel, spec: ParseSpec): Rel {
  // The page: "If the parsed expression isn't of type string, it will be converted to type string."
  let source = analyzeScalar(spec.source, h.env(input.columns));
  if (source.type !== 'string') source = convert(source, 'string');
  const lastColumn = spec.parts.map((x) => x.kind).lastIndexOf('column');
  // flags=: RE2's inline flags ahead of the whole pattern, so they apply to the columns' groups too.
  // The match starts at the text's start whatever the flags (the page's generated regex for
  // `with * <regex1> var1` is `.*?<regex1>(.*?)`: an anchored match, no `^` of its own): under m,
  // where `^` is every line's start, the anchor is written \A; the m flag moves only the `^` and `$`
  // the pattern's text writes.
  const letters = spec.flags?.letters;
  let pattern = letters === undefined ? '^' : `(?${letters})${letters.includes('m') ? '\\A' : '^'}`;
  let groups = 0;
  const captures: Assigned<number>[] = [];
  const typed: { column: IrColumn; type: KqlType }[] = [];
  const out: IrColumn[] = [...input.columns];
  const position = new Map(out.map((c, i) => [c.name, i]));
  const written = new Set<string>();
  spec.parts.forEach((part, i) => {
    if (part.kind === 'text') {
      pattern += spec.mode === 'regex' ? part.value : escapeRegex(part.value);
      // The text's own groups (the page's "(.*?)[a-zA-Z]*=") come before the next column's.
      if (spec.mode === 'regex') groups += captureGroupNames(part.value).length;
      // A fragment need not compile alone; a group RE2 refuses is refused at it, not by the engine.
      const problem = spec.mode === 'regex' ? notRe2(part.value) : undefined;
      if (problem !== undefined) throw h.errors.semantic(problem, part.span);
    } else if (part.kind === 'star') pattern += '.*?';
    else {
      const type = part.type === undefined ? 'string' : typeNamed(part.type, true);
      if (!type)
        throw h.errors.semantic(
          `unknown type '${clip(part.type ?? '')}' for the parsed column '${clip(part.name)}'`,
          part.span,
        );
      // Numbers match their digits (so `n:long *` stops at the first non-digit); the last column
      // takes the rest of the text when nothing follows it; others take as little as they can,
      // except in kind=regex, where they take as much as they can: the page's regex examples print
      // `resourceName ',' *` reaching the last comma "since the default mode is greedy", and flags=U
      // (ungreedy) stopping at the first.
      const numberPattern = spec.mode === 'relaxed' ? undefined : NUMBER_PATTERNS[type];
      const greedy = spec.mode === 'regex' || (i === lastColumn && i === spec.parts.length - 1);
      pattern += numberPattern ?? (greedy ? '(.*)' : '(.*?)');
      // Kusto.Language: "A column with the name 'a' is already declared" (the second would shadow the first).
      if (written.has(part.name)) throw h.errors.semantic(`duplicate column name '${clip(part.name)}'`, part.span);
      written.add(part.name);
      const column: IrColumn = { name: part.name, type: 'string', ref: h.newRef() };
      groups += 1;
      captures.push({ column, value: groups });
      if (type !== 'string') typed.push({ column, type });
      const at = position.get(part.name);
      if (at === undefined) {
        position.set(part.name, out.length);
        out.push(column);
      } else out[at] = column;
    }
  });
  // flags=U reaches Timestream too: its Java spelling writes the quantifiers swapped (regex-spelling.ts).
  let rel: Rel = { kind: 'parse', input, source, pattern, captures, columns: out };
  if (spec.where) {
    const matches: IrExpr = { kind: 'call', fn: 'matches', args: [source, lit('string', pattern)], type: 'bool' };
    rel = { kind: 'filter', input: rel, predicate: matches, columns: out };
  }
  if (typed.length === 0) return rel;
  const conversions = new Map(typed.map((t) => [t.column.ref, t.type]));
  const converted: IrColumn[] = [];
  const items = out.map((c) => {
    const type = conversions.get(c.ref);
    const col: IrExpr = { kind: 'col', ref: c.ref, type: c.type };
    if (!type) return { column: c, value: col };
    const column: IrColumn = { name: c.name, type, ref: h.newRef() };
    converted.push(column);
    return { column, value: convert(col, type) };
  });
  rel = { kind: 'project', input: rel, items, columns: items.map((x) => x.column) };
  if (!spec.where) return rel;
  const predicate = converted
    .map((c): IrExpr => ({
      kind: 'call',
      fn: 'isnotnull',
      args: [{ kind: 'col', ref: c.ref, type: c.type }],
      type: 'bool',
    }))
    .reduce((a, b) => ({ kind: 'call', fn: 'and', args: [a, b], type: 'bool' }));
  return { kind: 'filter', input: rel, predicate, columns: rel.columns };
}
