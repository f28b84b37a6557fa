// Semantic analysis of find (find operator docs, https://learn.microsoft.com/en-us/kusto/query/find-operator):
// the union of the tables (all of ours and the query's views by default) without those lacking
// every column the predicate names, the rows where the predicate holds (a column a table lacks is
// null there), then the output schema:
// - `source_` (or withsource='s name) first: the table each row comes from; under project-smart a
//   string column of that name is left out, as Kusto.Language unifies the two (the page is silent);
// - project-smart (the default): the columns the predicate names and those every table has, in
//   the union's order, then `pack_`: the row's table's other columns as a bag (`{}` when it has
//   none; no `pack_` when no table has any, as Kusto.Language declares it; the page's
//   `find Session_Id == ...` prints Level and EventText, common to both tables, and packs Version
//   or EventName);
// - `project Col[:type], ...`: those columns (null where a table lacks one), converted to the type
//   written; a column with several types across the tables needs its type and is then named
//   Col_type (the page's ProcessId_string); `pack_all()` adds `pack_` with the row's table's columns
//   not projected (the page prints {"Session_Id": ..., "Level": ...} after projecting EventText,
//   Version and EventName, though its text says "all the columns").
// The table names are in a hidden column until the last projection, so a term looked up in every
// column does not match them.
// Throws QueryError QUERY_SEMANTIC for a projected column no table has, or one with several types
// and no type written.
import type { Expr, FindSpec, NamedExpr, Operator } from './ast';
import { call, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { searchPredicate } from './analyze-search';
import { analyzeUnion } from './analyze-union';
import { namesIn } from './ast-walk';
import { clip } from './errors';
import type { IrColumn, Rel } from './ir';
import { convertedTo, runOver } from './plugin-rewrite';
import type { Span } from './tokens';

/** One table of the union: its name and, per union column it fills, its own column's name. */
interface Leg {
  readonly name: string;
  readonly columns: ReadonlyMap<string, string>;
}

export function analyzeFind(h: MvApplyHost, spec: FindSpec, span: Span): Rel {
  const named = namesIn(spec.predicate);
  const has = (rel: Rel, n: string): boolean => rel.columns.some((c) => c.name === n);
  // A name no table has (a let value) does not count; a predicate naming no column keeps every table.
  const keep = (rel: Rel, all: readonly Rel[]): boolean => {
    const counted = [...named].filter((n) => all.some((r) => has(r, n)));
    return counted.length === 0 || counted.some((n) => has(rel, n));
  };
  const hidden = `\u0000find ${h.newRef()} source`;
  const tables = spec.tables ?? {
    unionKind: 'outer' as const,
    legs: [{ kind: 'pattern' as const, pattern: '*', span }],
  };
  const union = analyzeUnion(h, undefined, { ...tables, withSource: { name: hidden, span } }, span, keep);
  if (union.kind !== 'union') throw new Error('find: the union of its tables is not a union');
  const [, ...columns] = union.columns;
  const legs: Leg[] = union.legs.map((leg) => {
    const own = new Map(leg.rel.columns.map((c) => [c.ref, c.name]));
    const filled = new Map<string, string>();
    leg.values.slice(1).forEach((v, i) => {
      const source = v.kind === 'col' ? own.get(v.ref) : undefined;
      if (source !== undefined) filled.set(columns[i]!.name, source);
    });
    const first = leg.values[0];
    return { name: first?.kind === 'lit' ? String(first.value) : '', columns: filled };
  });
  /** The union's columns holding `n`: one, or one per type (name_type) when the tables disagree. */
  const columnsOf = (n: string): IrColumn[] => {
    const exact = columns.filter((c) => c.name === n);
    if (exact.length > 0) return exact;
    return columns.filter((c) => legs.some((l) => l.columns.get(c.name) === n));
  };

  const sourceName = spec.withSource?.name ?? 'source_';
  const out: NamedExpr[] = [{ name: sourceName, expr: name(hidden, span), span }];
  const shown = new Set<string>();
  let packed = true;
  if (spec.project) {
    for (const c of spec.project.columns) {
      const found = columnsOf(c.name);
      if (found.length === 0) throw h.unknownColumn(c.name, columns, c.span, 'in the tables of find');
      found.forEach((f) => shown.add(f.name));
      if (found.length === 1) {
        const value = name(found[0]!.name, c.span);
        out.push({ name: c.name, expr: c.type ? convertedTo(c.type, value, c.span) : value, span: c.span });
        continue;
      }
      if (!c.type)
        throw h.errors.semantic(
          `'${clip(c.name)}' has several types in the tables of find; write its type (${clip(c.name)}:string)`,
          c.span,
        );
      const each = found.map((f) => convertedTo(c.type!, name(f.name, c.span), c.span));
      out.push({ name: `${c.name}_${c.type}`, expr: call('coalesce', each, c.span), span: c.span });
    }
    packed = spec.project.packAll;
  } else {
    for (const c of columns) {
      const inPredicate =
        named.has(c.name) || named.has(legs.find((l) => l.columns.has(c.name))?.columns.get(c.name) ?? '');
      if (inPredicate || legs.every((l) => l.columns.has(c.name))) {
        shown.add(c.name);
        // A string column named as withsource= is one column with the source (Kusto.Language
        // unifies columns of one name and type); of another type it would be two of one name.
        if (c.name === sourceName) {
          if (c.type === 'string') continue;
          throw h.errors.semantic(
            `withsource=${clip(sourceName)} names a ${c.type} column of the tables of find; choose another name`,
            spec.withSource?.span ?? span,
          );
        }
        out.push({ name: c.name, expr: name(c.name, span), span });
      }
    }
    // pack_ only when some table has a column not shown (Kusto.Language adds it only then).
    packed = legs.some((l) => [...l.columns.keys()].some((c) => !shown.has(c)));
  }
  if (packed) out.push({ name: 'pack_', expr: packOfLegs(legs, shown, hidden, span), span });
  const ops: Operator[] = [
    { kind: 'where', predicate: searchPredicate(h.errors, { caseSensitive: false, predicate: spec.predicate }), span },
    { kind: 'project', items: out, span },
  ];
  return runOver(h, union, ops, span);
}

/** The row's table's columns not shown, as a bag: one bag_pack per table, chosen by the table's name. */
function packOfLegs(legs: readonly Leg[], shown: ReadonlySet<string>, source: string, span: Span): Expr {
  const str = (s: string): Expr => ({ kind: 'literal', type: 'string', value: s, span });
  const bagOf = (leg: Leg): Expr => {
    const rest = [...leg.columns].filter(([column]) => !shown.has(column));
    if (rest.length === 0) return { kind: 'literal', type: 'dynamic', value: '{}', span };
    return call(
      'bag_pack',
      rest.flatMap(([column, own]) => [str(own), name(column, span)]),
      span,
    );
  };
  if (legs.length === 1) return bagOf(legs[0]!);
  const branches = legs.flatMap((leg) => [
    { kind: 'binary', op: '==', left: name(source, span), right: str(leg.name), opSpan: span, span } as Expr,
    bagOf(leg),
  ]);
  return call('case', [...branches, { kind: 'literal', type: 'dynamic', value: null, span }], span);
}
