// The restrict statement (https://learn.microsoft.com/kusto/query/restrict-statement): `restrict
// access to (Entity, ...)` leaves visible, to the statements after it, only the entities it names:
// a tabular let or function, a table (also `database().T`), a pattern, `*` (every let, function and
// pattern declared before it: the page's "no tables/functions are accessible") or `database().*`
// (every table). What was written before the statement (a view's body, a pattern's mapping) keeps
// reading what it reads: that is the page's "logical model". The check is by position: a name read
// at or after the statement's end that names a hidden entity is refused (analyzer.ts for tables and
// lets, expand-udf.ts for functions); a let declared after the statement is its own entity, read
// by its name only after the let (its own body and earlier statements still meet the hidden one).
// Throws QueryError QUERY_SYNTAX for malformed text, QUERY_SEMANTIC for an unknown entity in the
// list or a hidden one read, QUERY_UNSUPPORTED for another database or a second restrict statement.
import { clip, lineColumn } from './errors';
import type { AccessRestriction, CompileContext } from './limits';
import type { Span, Token } from './tokens';
import type { ErrorFactory } from './errors';
import { TABLE_NAMES } from '../telemetry/tables';

/** The part of the Parser read here. */
export interface RestrictCursor {
  readonly errors: ErrorFactory;
  peekAt(offset: number): Token | undefined;
  next(): Token;
  acceptOp(text: string): Token | undefined;
  expectOp(text: string): Token;
  expectIdent(text: string): void;
  expectName(what: string): { name: string; span: Span };
  spanFrom(start: number): Span;
}

/** What the query declared before the statement: its tables and lets, functions and patterns. */
export interface KnownEntities {
  /** Tabular lets, functions and patterns declared so far. */
  readonly declared: readonly string[];
}

/** `restrict access to (...)` with the cursor at `restrict`; the `;` after it is the statement loop's. */
export function parseRestrict(p: RestrictCursor, known: KnownEntities, ctx: CompileContext): AccessRestriction {
  const word = p.next();
  if (ctx.restriction)
    throw p.errors.unsupported('a query may hold one restrict statement; name every entity in the first', word.span);
  p.expectIdent('access');
  p.expectIdent('to');
  p.expectOp('(');
  const visible = new Set<string>();
  const written: string[] = [];
  const entities = new Set([...TABLE_NAMES, ...known.declared]);
  do {
    const start = p.peekAt(0)!.span.start;
    if (p.acceptOp('*')) {
      for (const d of known.declared) visible.add(d);
    } else if (p.peekAt(0)?.text === 'database' && p.peekAt(1)?.text === '(') {
      p.next();
      p.expectOp('(');
      if (!p.acceptOp(')'))
        throw p.errors.unsupported(
          'restrict access to database(Name) is not supported: a query reads only its own database; write database().T or T',
          p.peekAt(0)!.span,
        );
      p.expectOp('.');
      if (p.acceptOp('*')) for (const t of TABLE_NAMES) visible.add(t);
      else visible.add(entity(p, entities, TABLE_NAMES));
    } else visible.add(entity(p, entities, [...entities]));
    written.push(ctx.source.slice(start, p.spanFrom(start).end));
  } while (p.acceptOp(','));
  p.expectOp(')');
  const span = p.spanFrom(word.span.start);
  const hidden = new Set([...entities].filter((e) => !visible.has(e)));
  const { line, column } = lineColumn(ctx.source, span.start);
  return { end: span.end, hidden, letsFrom: new Map(), allowed: written.join(', '), at: `${line}:${column}` };
}

/** A name of the list: one of `names`. */
function entity(p: RestrictCursor, entities: ReadonlySet<string>, names: readonly string[]): string {
  const name = p.expectName('a table, let, function or pattern name');
  if (!entities.has(name.name) || !names.includes(name.name))
    throw p.errors.semantic(
      `'${clip(name.name)}' does not refer to any known table, tabular let, function or pattern`,
      name.span,
    );
  return name.name;
}

/**
 * @throws QueryError QUERY_SEMANTIC when `name`, read at `span`, is an entity the query's restrict
 * statement hides from there. A pattern's mapping is read by its pattern's name (statements-pattern.ts).
 */
export function checkAccess(ctx: CompileContext, name: string, span: Span): void {
  const r = ctx.restriction;
  if (r === undefined || span.start < r.end) return;
  const entity = name.includes('(') ? name.slice(0, name.indexOf('(')) : name;
  if (!r.hidden.has(entity)) return;
  // Past the end of a later let of the name, the name is that let's (parser.ts, statement loop).
  const letFrom = r.letsFrom.get(entity);
  if (letFrom !== undefined && span.start >= letFrom) return;
  throw ctx.errors.semantic(
    `'${clip(entity)}' is not accessible: the restrict statement at ${r.at} allows only (${clip(r.allowed)})`,
    span,
  );
}
