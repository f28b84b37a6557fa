// The macro-expand operator (https://learn.microsoft.com/kusto/query/macro-expand-operator) and
// entity groups (`entity_group [...]`, `let G = entity_group [...]`): "runs the subquery separately
// for each entity in the group and then combines all the results" as a union (kind=outer by
// default, kind=inner). Read while parsing: the subquery's text is read once per entity with the
// entity identifier bound to that entity, and the copies become the legs of a union source.
// Entities here: this service's tables and the query's tabular lets (`X` is the table), and the
// caller's own database written database('name') (`X.T` is database('name').T, which the analyzer
// checks is the caller's). cluster() is refused at its word: cross-cluster queries are not offered;
// so are the contextual functions `X.$current_database` / `$current_cluster_endpoint`.
// Throws QueryError QUERY_SYNTAX for malformed text, QUERY_SEMANTIC for an unknown entity or group,
// QUERY_UNSUPPORTED for cluster() and database() without a name.
import type { Expr, Pipeline, Source } from './ast';
import { clip } from './errors';
import type { RestrictCursor } from './statements-restrict';
import { boolWord, type Span, type Token } from './tokens';

/** The part of the Parser read here: the statements' cursor and sub-queries. */
export interface MacroCursor extends RestrictCursor {
  subPipeline(at: Span): Pipeline;
  /** Whether a name is a table or a tabular let here. */
  isTabularName(name: string): boolean;
  /** The token index of the cursor, and a return to one: the subquery is read once per entity. */
  mark(): number;
  rewind(mark: number): void;
}

type Entity =
  // `span`: where the entity is written, when that is in the macro-expand itself (entity_group [...]):
  // the source is positioned there (a restrict refusal names the entity). An entity of a group let
  // is positioned at the identifier instead: the let may precede a restrict statement, whose check
  // is by position (statements-restrict.ts).
  | { readonly kind: 'table'; readonly name: string; readonly span?: Span }
  | { readonly kind: 'database'; readonly database: string; readonly span: Span };

/** The entity groups and bound entity identifiers of one parse. */
export class MacroScope {
  private readonly groups = new Map<string, readonly Entity[]>();
  private readonly bound = new Map<string, Entity>();

  /** Whether the cursor is at `let G = entity_group [`. */
  atGroupLet(p: Pick<MacroCursor, 'peekAt'>): boolean {
    return p.peekAt(0)?.text === 'let' && p.peekAt(2)?.text === '=' && p.peekAt(3)?.text === 'entity_group';
  }

  /** `let G = entity_group [...];` at the cursor. */
  parseGroupLet(p: MacroCursor): void {
    p.next();
    const name = p.expectName('an entity group name');
    p.expectOp('=');
    p.next();
    this.groups.set(name.name, this.entities(p, false));
    if (!p.acceptOp(';')) throw p.errors.syntax("expected ';' after the let statement", p.peekAt(0)!.span);
  }

  /** Whether the cursor is at a bound entity identifier (a source inside a macro-expand's subquery). */
  at(p: Pick<MacroCursor, 'peekAt'>, offset = 0): boolean {
    const t = p.peekAt(offset);
    return t?.kind === 'ident' && this.bound.has(t.text);
  }

  /** The bound identifier at the cursor as the source it stands for. */
  invoke(p: Pick<MacroCursor, 'next' | 'expectOp' | 'expectName' | 'spanFrom' | 'errors'>): Source {
    const word = p.next();
    const entity = this.bound.get(word.text)!;
    if (entity.kind === 'table') return { kind: 'table', name: entity.name, span: entity.span ?? word.span };
    p.expectOp('.');
    const table = p.expectName('a table name after the database entity');
    if (table.name.startsWith('$'))
      throw p.errors.unsupported(
        `${table.name} is not supported: this service has one cluster and one database per caller; use current_database()`,
        table.span,
      );
    const database: Expr = { kind: 'literal', type: 'string', value: entity.database, span: entity.span };
    const name: Expr = { kind: 'literal', type: 'string', value: table.name, span: table.span };
    return { kind: 'tableRef', table: name, database, span: p.spanFrom(word.span.start) };
  }

  /** `macro-expand [kind=..] [isfuzzy=..] (entity_group [...] | G) as X (subquery)`, after the word. */
  parse(p: MacroCursor, word: Token): Source {
    let unionKind: 'inner' | 'outer' = 'outer';
    while (p.peekAt(1)?.text === '=' && (p.peekAt(0)?.text === 'kind' || p.peekAt(0)?.text === 'isfuzzy')) {
      const key = p.next().text;
      p.next();
      const value = p.next();
      if (key === 'kind') {
        if (value.text !== 'inner' && value.text !== 'outer')
          throw p.errors.syntax(`macro-expand kind is inner or outer, not '${clip(value.text)}'`, value.span);
        unionKind = value.text;
      } else if (boolWord(value) === undefined) throw p.errors.syntax("isfuzzy is 'true' or 'false'", value.span);
    }
    const entities = this.group(p);
    p.expectIdent('as');
    const id = p.expectName('an entity identifier');
    if (this.bound.has(id.name))
      throw p.errors.semantic(`'${clip(id.name)}' already names the entity of an outer macro-expand`, id.span);
    const open = p.expectOp('(');
    const start = p.mark();
    const legs = entities.map((entity) => {
      p.rewind(start);
      this.bound.set(id.name, entity);
      try {
        return { kind: 'pipeline' as const, pipeline: p.subPipeline(open.span) };
      } finally {
        this.bound.delete(id.name);
      }
    });
    p.expectOp(')');
    return { kind: 'union', union: { unionKind, legs }, span: p.spanFrom(word.span.start) };
  }

  /** `entity_group [...]` or the name of a group a let declared. */
  private group(p: MacroCursor): readonly Entity[] {
    if (p.peekAt(0)?.text === 'entity_group' && p.peekAt(1)?.text === '[') {
      p.next();
      return this.entities(p, true);
    }
    const name = p.expectName('entity_group [...] or an entity group name');
    const group = this.groups.get(name.name);
    if (!group)
      throw p.errors.semantic(
        `'${clip(name.name)}' is not an entity group: declare it with let ${clip(name.name)} = entity_group [...] (stored entity groups are not offered)`,
        name.span,
      );
    return group;
  }

  /** `[Entity, ...]`; `inline`: in the macro-expand itself, not in a group let. */
  private entities(p: MacroCursor, inline: boolean): Entity[] {
    p.expectOp('[');
    const entities: Entity[] = [];
    do entities.push(entity(p, inline));
    while (p.acceptOp(','));
    p.expectOp(']');
    return entities;
  }
}

function entity(p: MacroCursor, inline: boolean): Entity {
  const t = p.peekAt(0)!;
  if (t.text === 'cluster')
    throw p.errors.unsupported(
      'cluster() is not supported: cross-cluster queries are not offered; an entity group holds tables or this database',
      t.span,
    );
  if (t.text === 'database' && p.peekAt(1)?.text === '(') {
    p.next();
    p.expectOp('(');
    const name = p.next();
    if (name.kind !== 'string')
      throw p.errors.unsupported("write the database as database('<name>'), the caller's own", name.span);
    p.expectOp(')');
    return { kind: 'database', database: String(name.value), span: name.span };
  }
  const name = p.expectName('a table, database() or cluster() entity');
  if (!p.isTabularName(name.name))
    throw p.errors.semantic(`'${clip(name.name)}' does not refer to any known table or tabular let`, name.span);
  return inline ? { kind: 'table', name: name.name, span: name.span } : { kind: 'table', name: name.name };
}
