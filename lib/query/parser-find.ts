// Parsing of find after its word (find operator docs, https://learn.microsoft.com/en-us/kusto/query/find-operator):
// `find [withsource=ColumnName] [in (Tables)] where Predicate [project-smart | project ColumnName[:ColumnType], ... [, pack_all()]]`
// and the short form `find Predicate [...]`. The tables are union legs (names, `(query)`, patterns
// such as `E*`); the predicate is read as search's (a bare "term" looks in every column).
// Throws QueryError QUERY_SYNTAX for malformed text, QUERY_UNSUPPORTED for cross-database scopes
// (cluster(), database('*'), database(...).*) and `where` missing after withsource= or in (...).
import type { FindSpec, UnionSpec } from './ast';
import { clip } from './errors';
import { parseUnion, type OperatorCursor } from './parser-operators';
import type { Span } from './tokens';
import { typeNamed } from './types';

export function parseFind(p: OperatorCursor): FindSpec {
  let withSource: { name: string; span: Span } | undefined;
  if (p.peekIdent('withsource') && p.peekAt(1)?.text === '=') {
    p.next();
    p.next();
    withSource = p.expectName('a column name after withsource=');
  }
  let tables: UnionSpec | undefined;
  if (p.peekIdent('in') && p.peekAt(1)?.text === '(') {
    p.next();
    p.next();
    const scope = p.peek();
    if (scope.kind === 'ident' && p.peekAt(1)?.text === '(' && crossDatabase(p, scope.text))
      throw p.errors.unsupported(
        `find in ${scope.text}(...) is not supported: only this database's tables`,
        scope.span,
      );
    tables = parseUnion(p);
    if (tables.withSource || tables.unionKind !== 'outer' || tables.fuzzy)
      throw p.errors.syntax('find in (...) takes table names and queries only', scope.span);
    p.expectOp(')');
  }
  const where = p.acceptIdent('where');
  if (!where && (withSource || tables))
    throw p.errors.syntax("expected 'where' and the predicate of find", p.peek().span);
  const predicate = p.expression();
  if (p.acceptIdent('project-smart'))
    return { ...(withSource ? { withSource } : {}), ...(tables ? { tables } : {}), predicate };
  const project = p.acceptIdent('project') ? projectList(p) : undefined;
  return {
    ...(withSource ? { withSource } : {}),
    ...(tables ? { tables } : {}),
    predicate,
    ...(project ? { project } : {}),
  };
}

/**
 * Whether the scope at the cursor reaches past this database: cluster(...), database('*') or
 * database(...).* (every table of a database). database('<ours>').T is a union leg like T.
 */
function crossDatabase(p: OperatorCursor, word: string): boolean {
  if (word === 'cluster') return true;
  if (word !== 'database') return false;
  const name = p.peekAt(2);
  if (name?.kind === 'string' && name.text.includes('*')) return true;
  return p.peekAt(3)?.text === ')' && p.peekAt(4)?.text === '.' && p.peekAt(5)?.text === '*';
}

/** `ColumnName[:ColumnType], ... [, pack_all()]`: pack_all() only last, as the syntax has it. */
function projectList(p: OperatorCursor): NonNullable<FindSpec['project']> {
  const columns: { name: string; type?: string; span: Span }[] = [];
  let packAll = false;
  do {
    if (packAll) throw p.errors.syntax('pack_all() comes last in the project list of find', p.peek().span);
    if (p.peekIdent('pack_all') && p.peekAt(1)?.text === '(') {
      p.next();
      p.next();
      p.expectOp(')');
      packAll = true;
      continue;
    }
    const n = p.expectName('a column name');
    if (!p.acceptOp(':')) {
      columns.push(n);
      continue;
    }
    const t = p.expectName('a type');
    if (typeNamed(t.name, true) === undefined && t.name !== 'decimal')
      throw p.errors.syntax(`unknown type '${clip(t.name)}'`, t.span);
    columns.push({ name: n.name, type: t.name, span: { start: n.span.start, end: t.span.end } });
  } while (p.acceptOp(','));
  return { columns, packAll };
}
