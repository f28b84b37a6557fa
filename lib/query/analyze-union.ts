// Semantic analysis of union (union-operator docs): legs from sub-queries, table and let names, and
// name patterns matched against our tables; kind=outer keeps every column (a name seen with two
// types becomes name_type in each), kind=inner only the columns every leg has; withsource= adds the
// leg's name first; isfuzzy=true leaves out a leg that is a table name that does not exist (union
// operator docs: "the set of union sources is reduced to the set of table references that exist")
// and a pattern matching no table. Throws QueryError QUERY_SEMANTIC for a pattern matching no table
// (without isfuzzy) and when isfuzzy leaves no leg.
import type { Pipeline, UnionSpec } from './ast';
import type { TabularHost } from './analyze-join';
import { clip, QueryError } from './errors';
import type { IrColumn, IrExpr, KqlType, Rel, UnionLegRel } from './ir';
import { matchesWildcard, NameAllocator } from './naming';
import { lit } from './types';
import type { Span } from './tokens';
import { TABLE_NAMES } from '../telemetry/tables';

interface Leg {
  readonly rel: Rel;
  readonly name: string;
}

/**
 * `first` is the piped input of `T | union ...` (absent for the union source). `keep` drops the legs
 * it rejects, unless it rejects them all (search: the tables lacking a column its predicate names).
 */
export function analyzeUnion(
  h: TabularHost,
  first: Rel | undefined,
  spec: UnionSpec,
  span: Span,
  keep?: (rel: Rel, all: readonly Rel[]) => boolean,
): Rel {
  let legs: Leg[] = [];
  if (first) legs.push({ rel: first, name: h.nameOf?.(first) ?? 'union_arg0' });
  for (const leg of spec.legs) {
    if (leg.kind === 'pattern') {
      const matched = TABLE_NAMES.filter((t) => matchesWildcard(leg.pattern, t));
      if (matched.length === 0 && spec.fuzzy) continue;
      if (matched.length === 0) throw h.errors.semantic(`no table matches '${clip(leg.pattern)}'`, leg.span);
      for (const t of matched)
        legs.push({
          rel: h.subquery({
            kind: 'pipeline',
            source: { kind: 'table', name: t, span: leg.span },
            operators: [],
            span: leg.span,
          }),
          name: t,
        });
      continue;
    }
    const rel = spec.fuzzy ? fuzzyLeg(h, leg.pipeline) : h.subquery(leg.pipeline);
    if (!rel) continue;
    legs.push({ rel, name: leg.name ?? h.nameOf?.(rel) ?? `union_arg${legs.length}` });
  }
  if (legs.length === 0) throw h.errors.semantic('union isfuzzy=true found none of its tables', span);
  if (keep) {
    const all = legs.map((l) => l.rel);
    if (legs.some((l) => keep(l.rel, all))) legs = legs.filter((l) => keep(l.rel, all));
  }
  // Each (name, type) pair once, in order of first appearance; names with several types get suffixes.
  const typesOf = new Map<string, KqlType[]>();
  for (const leg of legs) {
    for (const c of leg.rel.columns) {
      const types = typesOf.get(c.name) ?? [];
      if (!types.includes(c.type)) types.push(c.type);
      typesOf.set(c.name, types);
    }
  }
  const outputs: { name: string; source: string; type: KqlType }[] = [];
  for (const [name, types] of typesOf) {
    for (const type of types) {
      if (
        spec.unionKind === 'inner' &&
        !legs.every((l) => l.rel.columns.some((c) => c.name === name && c.type === type))
      )
        continue;
      outputs.push({ name: types.length > 1 ? `${name}_${type}` : name, source: name, type });
    }
  }
  const names = new NameAllocator();
  const columns: IrColumn[] = [];
  if (spec.withSource) {
    names.add(spec.withSource.name);
    columns.push({ name: spec.withSource.name, type: 'string', ref: h.newRef() });
  }
  // Names as the legs wrote them first, then the type-suffixed ones: a suffixed name meeting a
  // written one is the one renamed (union page: View_1's x becomes x_long1 beside View_3's x_long,
  // in first-appearance order; Kusto.Language renames the other one, the page's output wins).
  const chosen = outputs.map((o) => (o.name === o.source ? o.name : undefined));
  chosen.forEach((name, i) => {
    if (name === undefined) return;
    chosen[i] = names.unique(name);
    names.add(chosen[i]);
  });
  outputs.forEach((o, i) => {
    let name = chosen[i];
    if (name === undefined) {
      name = names.unique(o.name);
      names.add(name);
    }
    columns.push({ name, type: o.type, ref: h.newRef() });
  });
  if (columns.length === 0) throw h.errors.semantic('the legs of this union have no column in common', span);
  const rels: UnionLegRel[] = legs.map((leg) => {
    const values: IrExpr[] = spec.withSource ? [lit('string', leg.name)] : [];
    const byKey = new Map<string, IrColumn>();
    for (const c of leg.rel.columns)
      if (!byKey.has(`${c.name}\u0000${c.type}`)) byKey.set(`${c.name}\u0000${c.type}`, c);
    for (const o of outputs) {
      const c = byKey.get(`${o.source}\u0000${o.type}`);
      values.push(c ? { kind: 'col', ref: c.ref, type: c.type } : lit(o.type, null));
    }
    return { rel: leg.rel, values };
  });
  return { kind: 'union', legs: rels, columns };
}

/**
 * A leg of union isfuzzy=true: undefined when it names a table that does not exist, or one in a
 * database the query cannot read (`database('other').T`: not accessible, so left out like a missing table).
 */
function fuzzyLeg(h: TabularHost, pipeline: Pipeline): Rel | undefined {
  try {
    return h.subquery(pipeline);
  } catch (e) {
    if (e instanceof QueryError && isMissingSource(pipeline.source, e)) return undefined;
    throw e;
  }
}

/** Whether the error is the source's own "unknown table" (or "unknown database"), not one from inside it. */
function isMissingSource(source: Pipeline['source'], e: QueryError): boolean {
  const at = (span: Span, what: string) => e.span.start === span.start && e.message.includes(what);
  if (source.kind === 'table') return at(source.span, 'unknown table ');
  if (source.kind !== 'tableRef') return false;
  // table('Name') and database(...).Name are reported at the name, database('other') at its argument.
  return (
    at(source.table.span, 'unknown table ') ||
    (source.database !== undefined && at(source.database.span, 'unknown database '))
  );
}
