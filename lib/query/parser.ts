// Recursive-descent parser for the KQL subset. Throws QueryError: QUERY_SYNTAX for malformed text,
// QUERY_UNSUPPORTED (naming the construct at its position) for valid Kusto outside the subset, and
// the limit codes of limits.ts (statements, names, nesting depth, terms per expression, budget).
// Every loop consumes a token per pass or ends; recursion is bounded by the depth limit.
import { TABLE_NAMES } from '../telemetry/tables';
import type {
  BatchStatement,
  ColumnDecl,
  Expr,
  LetStatement,
  LiteralKind,
  NamedExpr,
  NamePattern,
  Operator,
  Pipeline,
  Program,
  QueryParameterDecl,
  SetStatement,
  SortKey,
  Source,
} from './ast';
import { clip, QueryError, type ErrorFactory } from './errors';
import { minifiedJson } from './json-text';
import { tokenize } from './lexer';
import { checkNameLength, compileContext, type CompileContext } from './limits';
import { DynamicScalarError, dynamicLiteralJson } from './dynamic-literal';
import {
  MAX_INT,
  MAX_LONG,
  MIN_INT,
  MIN_LONG,
  parseDatetimeTicks,
  parseDatetimeTicksUnbounded,
  parseTimespanTicks,
} from './literals';
import { parseMakeSeries } from './parser-make-series';
import { GraphLets } from './parser-graph-let';
import { GRAPH_OPERATORS, graphOperatorWithoutGraph, parseGraph } from './parser-graph';
import { parseDeclare, parseSet } from './parser-set';
import { parseMvApply } from './parser-mv-apply';
import { parseScan } from './parser-scan';
import { parsePartition } from './parser-partition';
import { parseInvoke } from './parser-invoke';
import { parseTopHitters } from './parser-top-hitters';
import { parseEvaluate } from './parser-evaluate';
import { refusedEvaluateSource, refusedOperator } from './refusal-reasons';
import { parseFacet, parseFork } from './parser-fork';
import { parseConsume } from './parser-consume';
import { parseProjectReorder, parseSampleDistinct } from './parser-more';
import { parseJoin, parseMvExpand, parseParse, parseUnion, skipHint, type OperatorCursor } from './parser-operators';
import { atScopeFunction, parseScopedSource } from './parser-scope';
import { parseAs, tabularOperand } from './parser-subquery';
import { parseParseKv } from './parser-parse-kv';
import { parseSearch } from './parser-search';
import { parseFind } from './parser-find';
import { parseTopNested } from './parser-top-nested';
import { PatternScope } from './statements-pattern';
import { parseRestrict } from './statements-restrict';
import { parseAlias } from './statements-alias';
import { MacroScope } from './parser-macro-expand';
import { atFunctionDefinition, parseFunctionDef, parseUdfCall, parseUdfSource, type UdfCursor } from './parser-udf';
import { boolWord, type Span, type Token } from './tokens';

/**
 * A datetime literal's text with spaces around its date's dashes removed: the sliding_window_counts
 * page writes `datetime(2017 - 08 - 01)` and prints its result for that day.
 */
const datetimeLiteralText = (raw: string): string =>
  raw.replace(/^(\s*\d{4})\s*-\s*(\d{1,2})\s*-\s*(\d{1,2})(?!\d)/, '$1-$2-$3');

/** Functions whose argument may be a tabular expression (toscalar, column_names_of pages). */
const TABULAR_ARGUMENT = new Set(['toscalar', 'column_names_of']);

/** The aggregations whose arguments may be named, `arg_max(t, x = v)`: the returned column's name. */
const NAMED_ARGUMENTS: ReadonlySet<string> = new Set([
  'arg_max',
  'arg_min',
  'argmax',
  'argmin',
  'take_any',
  'any',
  'take_anyif',
  'anyif',
]);

/** Kusto tabular operators outside the subset: named in a QUERY_UNSUPPORTED error. */
const KNOWN_UNSUPPORTED_OPERATORS: ReadonlySet<string> = new Set([
  'sample-distinct',
  'find',
  'reduce',
  'project-smart',
  'externaldata',
  'materialize',
  'columnifexists',
  'extend-schema',
  'macro-expand',
]);
const UNSUPPORTED_SOURCES: ReadonlySet<string> = new Set([
  'externaldata',
  'evaluate',
  'materialize',
  'cluster',
  'database',
  'table',
  'view',
]);
const COMPARISON_OPS: ReadonlySet<string> = new Set(['==', '!=', '<>', '<', '<=', '>', '>=', '=~', '!~']);
const WORD_PREDICATES: ReadonlySet<string> = new Set([
  'has',
  'has_cs',
  'contains',
  'contains_cs',
  'startswith',
  'startswith_cs',
  'endswith',
  'endswith_cs',
  'hasprefix',
  'hassuffix',
  'hasprefix_cs',
  'hassuffix_cs',
  'has_any',
  'has_all',
  'like',
  'notlike',
  'notcontains',
  'notcontainscs',
  'containscs',
  'notbetween',
  'matches',
]);
/** A decimal is .NET's SqlDecimal (decimal page): fewer than 38 digits, as todecimal() converts. */
const DECIMAL_BOUND = 1e38;

const TYPED_NUMBER_FUNCS: ReadonlyMap<string, LiteralKind> = new Map([
  ['long', 'long'],
  ['int', 'int'],
  ['real', 'real'],
  ['double', 'real'],
  ['decimal', 'decimal'],
  ['bool', 'bool'],
  ['boolean', 'bool'],
]);

/** Kusto's bool literals: the lower-case, capitalised and upper-case spellings (Kusto.Language's lexer). */
/**
 * Deprecated function names Kusto still reads, as their pages list them ("Deprecated aliases:
 * notnull()" on isnotnull's page ...): read as the function each names, whose result names they
 * take too. A user-defined function of such a name is called as written.
 */
const DEPRECATED_ALIASES: ReadonlyMap<string, string> = new Map([
  ['notnull', 'isnotnull'],
  ['notempty', 'isnotempty'],
  ['parsejson', 'parse_json'],
  ['parseurl', 'parse_url'],
  ['arraylength', 'array_length'],
  ['array_strcat', 'strcat_array'],
  ['columnifexists', 'column_ifexists'],
  ['base64_encodestring', 'base64_encode_tostring'],
  ['base64_decodestring', 'base64_decode_tostring'],
  ['datepart', 'datetime_part'],
  // The deprecated aggregations makelist() and makeset() keep their names: their default maxSize is
  // 128 (lib/query/aggregates.ts).
]);

export function parse(source: string, ctx: CompileContext = compileContext(source)): Program {
  return new Parser(source, ctx).parseProgram();
}

/**
 * One scalar expression read as in a query, from a text of its own (a query parameter's value):
 * undefined when the text is not exactly one expression. Its spans are offsets in that text.
 */
export function parseExpressionText(text: string): Expr | undefined {
  const ctx = compileContext(text);
  try {
    const parser = new Parser(text, ctx);
    const expr = parser.expression();
    return parser.peek().kind === 'eof' ? expr : undefined;
  } catch (error) {
    if (error instanceof QueryError) return undefined;
    throw error;
  }
}

const TELEMETRY_TABLES: ReadonlySet<string> = new Set(TABLE_NAMES);

/** A token's text inside a message. */
const shown = (t: Token): string => clip(t.text) || 'end of query';

class Parser implements OperatorCursor, UdfCursor {
  private readonly tokens: Token[];
  private pos = 0;
  readonly errors: ErrorFactory;
  /**
   * Names of tables: the telemetry tables and the `let` tables so far. Shared with every parse until
   * a statement changes it (most queries have no `let`): no copy of the set per compile.
   */
  private tabularNames: ReadonlySet<string> = TELEMETRY_TABLES;
  /** The graphs kept in lets, and whether the value of a top-level let is being read. */
  private readonly graphLets = new GraphLets();
  private inGraphLet = false;
  /** Patterns declared so far (statements-pattern.ts); their invocations are read as scope functions. */
  readonly patterns = new PatternScope();
  /** Entity groups and the entity identifiers of macro-expand (parser-macro-expand.ts). */
  readonly macros = new MacroScope();
  /** User-defined functions declared so far: their call arguments may be tables (parser-udf.ts). */
  private readonly functions = new Set<string>();
  /** Levels of recursion into nested constructs while reading (parentheses count here too). */
  private nesting = 0;
  /** Terms of the expression being read (reset for each top-level expression). */
  private terms = 0;
  /** Inside a search predicate: `Column:"term"` is a comparison (parser-search.ts). */
  private columnTerms = false;
  /** Tree depth of each expression node: leaves 0, an `and`/`or` chain one level over its deepest operand. */
  // A Map, not a WeakMap: it lives for one parse, and a Map's set and get cost less.
  private readonly depths = new Map<Expr, number>();

  constructor(
    private readonly source: string,
    private readonly ctx: CompileContext,
  ) {
    this.errors = ctx.errors;
    this.tokens = tokenize(source, ctx);
  }

  parseProgram(): Program {
    const lets: LetStatement[] = [];
    const sets: SetStatement[] = [];
    const parameters: QueryParameterDecl[] = [];
    // Batches (batches docs): tabular statements separated by ';', each a result table; a let
    // applies to the statements after it only.
    const tabular: BatchStatement[] = [];
    let patterns = 0;
    for (;;) {
      while (this.acceptOp(';'));
      if (this.peek().kind === 'eof') break;
      if (this.macros.atGroupLet(this)) {
        this.macros.parseGroupLet(this);
        continue;
      }
      if (this.peekIdent('let')) {
        if (lets.length === this.ctx.limits.maxStatements) {
          this.ctx.exceeded(
            'QUERY_TOO_MANY_STATEMENTS',
            `more than ${lets.length} let statements`,
            this.ctx.limits.maxStatements,
            this.peek().span,
          );
        }
        const statement = this.parseLet(true);
        lets.push(...this.patterns.takeLets(), ...this.graphLets.bind(statement));
        // A let after the restrict statement is an entity of its own, visible after it: from its
        // end on (its own body and the statements before it still read the hidden entity).
        const restriction = this.ctx.restriction;
        if (restriction && !restriction.letsFrom.has(statement.name))
          restriction.letsFrom.set(statement.name, statement.span.end);
        continue;
      }
      // A statement unless a `let` made the word a table's name.
      if (this.peekIdent('set') && !this.startsTabular()) {
        this.countStatement(sets.length, 'set');
        sets.push(parseSet(this));
        continue;
      }
      if (this.peekIdent('declare') && this.peekAt(1)?.text === 'pattern' && !this.startsTabular()) {
        this.countStatement(patterns++, 'pattern');
        this.patterns.declare(this);
        continue;
      }
      if (this.peekIdent('declare') && !this.startsTabular()) {
        const at = this.peek().span;
        parameters.push(...parseDeclare(this));
        if (parameters.length > this.ctx.limits.maxStatements)
          this.ctx.exceeded(
            'QUERY_TOO_MANY_STATEMENTS',
            `more than ${this.ctx.limits.maxStatements} query parameters`,
            this.ctx.limits.maxStatements,
            at,
          );
        continue;
      }
      if (this.peekIdent('restrict') && this.peekAt(1)?.text === 'access' && !this.startsTabular()) {
        const declared = [...this.tabularNames, ...this.functions, ...this.patterns.names()];
        this.ctx.restriction = parseRestrict(
          this,
          { declared: declared.filter((n) => !TELEMETRY_TABLES.has(n)) },
          this.ctx,
        );
        const rest = this.peek();
        if (rest.kind !== 'eof' && !this.acceptOp(';'))
          throw this.errors.syntax(`expected ';' after the restrict statement, found '${shown(rest)}'`, rest.span);
        continue;
      }
      if (this.peekIdent('alias') && this.peekAt(1)?.text === 'database' && !this.startsTabular()) {
        const { alias, database } = parseAlias(this);
        this.ctx.databaseAliases.set(alias, database);
        if (!this.acceptOp(';')) throw this.errors.syntax("expected ';' after the alias statement", this.peek().span);
        continue;
      }
      // Each result table of a batch costs what a query does: their number is bounded as the lets'.
      this.countStatement(tabular.length, 'tabular');
      const query = this.parsePipeline();
      lets.push(...this.patterns.takeLets());
      tabular.push({ lets: [...lets], query });
      const rest = this.peek();
      if (rest.kind !== 'eof' && !this.acceptOp(';'))
        throw this.errors.syntax(`expected ';' before another statement, found '${shown(rest)}'`, rest.span);
    }
    const [first, ...batch] = tabular;
    if (!first) throw this.errors.syntax('the query has no tabular expression', this.peek().span);
    // Most queries have one tabular statement and neither sets nor parameters: their Program keeps its two fields.
    return {
      lets: first.lets,
      query: first.query,
      ...(batch.length > 0 ? { batch } : {}),
      ...(sets.length > 0 ? { sets } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
    };
  }

  /** @throws QueryError QUERY_TOO_MANY_STATEMENTS past the statement limit, at the next statement. */
  private countStatement(count: number, what: string): void {
    if (count < this.ctx.limits.maxStatements) return;
    this.ctx.exceeded('QUERY_TOO_MANY_STATEMENTS', `more than ${count} ${what} statements`, count, this.peek().span);
  }

  /** `topLevel`: a statement of the query (not of a function's body), whose value may be a graph. */
  parseLet(topLevel = false): LetStatement {
    const start = this.next().span.start;
    const nameToken = this.expectName('a name after let');
    this.expectOp('=');
    if (atFunctionDefinition(this)) {
      const value = parseFunctionDef(this);
      this.functions.add(nameToken.name);
      if (value.result.kind === 'pipeline') this.ownTabularNames().add(nameToken.name);
      else this.ownTabularNames().delete(nameToken.name);
      const end = this.prevEnd();
      if (!this.acceptOp(';')) throw this.errors.syntax("expected ';' after the let statement", this.peek().span);
      return { kind: 'let', name: nameToken.name, nameSpan: nameToken.span, value, span: { start, end } };
    }
    // materialize(T) caches T in Kusto: the SQL writes it once, and each use reads that (generator.ts).
    const materialized = this.peekIdent('materialize') && this.tokens[this.pos + 1]?.text === '(';
    if (materialized) {
      this.next();
      const open = this.expectOp('(');
      const pipeline = this.subPipeline(open.span);
      this.expectOp(')');
      this.ownTabularNames().add(nameToken.name);
      if (!this.acceptOp(';')) throw this.errors.syntax("expected ';' after the let statement", this.peek().span);
      return {
        kind: 'let',
        name: nameToken.name,
        nameSpan: nameToken.span,
        value: pipeline,
        span: { start, end: this.prevEnd() },
        materialized: true,
      };
    }
    // A tabular value, also in parentheses and piped on: `let t = (T | where ...) | count;` (parsePipeline).
    const value = this.startsTabular() ? this.letPipeline(topLevel) : this.expression();
    if (value.kind === 'pipeline') this.ownTabularNames().add(nameToken.name);
    const end = this.prevEnd();
    if (!this.acceptOp(';')) throw this.errors.syntax("expected ';' after the let statement", this.peek().span);
    return { kind: 'let', name: nameToken.name, nameSpan: nameToken.span, value, span: { start, end } };
  }

  /** A let's tabular value; a top-level let's may end in a graph (parser-graph-let.ts). */
  private letPipeline(topLevel: boolean): Pipeline {
    this.inGraphLet = topLevel;
    try {
      return this.parsePipeline();
    } finally {
      this.inGraphLet = false;
    }
  }

  graphLetValue(): boolean {
    return this.inGraphLet;
  }

  /** The set of tabular names of this parse, copied from the shared one at the first change. */
  private ownTabularNames(): Set<string> {
    if (this.tabularNames === TELEMETRY_TABLES) this.tabularNames = new Set(TELEMETRY_TABLES);
    return this.tabularNames as Set<string>;
  }

  isTabularName(name: string): boolean {
    return this.tabularNames.has(name);
  }
  /** The cursor's token index, and a return to one (macro-expand reads its subquery once per entity). */
  mark(): number {
    return this.pos;
  }
  rewind(mark: number): void {
    this.pos = mark;
  }

  addTabularName(name: string): boolean {
    if (this.tabularNames.has(name)) return false;
    this.ownTabularNames().add(name);
    return true;
  }
  removeTabularName(name: string): void {
    this.ownTabularNames().delete(name);
  }
  /** An argument of a user-defined function's call: a tabular expression or a scalar, one level deeper. */
  callArgument(at: Span): Expr {
    return this.nested(at, () => tabularOperand(this) ?? this.parseExpr());
  }

  startsTabular(offset = 0): boolean {
    // A tabular expression in parentheses, however deep: `((T | take 1))`, `(T) | count`.
    while (this.tokens[this.pos + offset]?.text === '(' && this.tokens[this.pos + offset]?.kind === 'op') offset++;
    const t = this.tokens[this.pos + offset];
    // A table or tabular let named in brackets, ['States'] (entity names page: quoting identifiers).
    if (this.isBracketName(this.pos + offset))
      return this.tabularNames.has(String(this.tokens[this.pos + offset + 1]!.value));
    if (t?.kind !== 'ident') return false;
    if (t.text === 'datatable' || t.text === 'print' || t.text === 'union' || t.text === 'search') return true;
    if (t.text === 'macro-expand') return true;
    if (t.text === 'find') return this.tokens[this.pos + offset + 1]?.text !== '(';
    if (t.text === 'range')
      return this.tokens[this.pos + offset + 1]?.kind === 'ident' || this.isBracketName(this.pos + offset + 1);
    if (UNSUPPORTED_SOURCES.has(t.text) && this.tokens[this.pos + offset + 1]?.text !== '(') return true;
    if (t.text === 'graph' && this.tokens[this.pos + offset + 1]?.text === '(') return true;
    if (atScopeFunction(this, offset)) return true;
    return this.tabularNames.has(t.text);
  }

  // ---------------------------------------------------------------- tabular
  private parsePipeline(): Pipeline {
    const start = this.peek().span.start;
    let { source, operators } = this.parenthesizedSource() ?? this.namedSource();
    while (this.acceptOp('|')) {
      if (this.acceptIdent('invoke')) {
        const input: Pipeline = { kind: 'pipeline', source, operators, span: { start, end: this.prevEnd() } };
        [source, operators] = [parseInvoke(this, this.functions, input), []];
      } else operators.push(this.parseOperator());
    }
    return { kind: 'pipeline', source, operators, span: { start, end: this.prevEnd() } };
  }

  /**
   * A tabular expression in parentheses as the source of a pipeline, `(T | where ...) | count`
   * (tabular expression statements page): the pipes compose, so its source and operators start the
   * outer pipeline's. Undefined when the cursor is not at one.
   */
  private parenthesizedSource(): { source: Source; operators: Operator[] } | undefined {
    if (!this.peekOp('(') || !this.startsTabular(1)) return undefined;
    const open = this.next();
    const inner = this.subPipeline(open.span);
    this.expectOp(')');
    return { source: inner.source, operators: [...inner.operators] };
  }

  /** The source at the cursor; a graph kept in a let gives the operators that build it. */
  private namedSource(): { source: Source; operators: Operator[] } {
    const source = this.parseSource();
    if (source.kind === 'table' && this.graphLets.isGraph(source.name)) return this.graphLets.use(this, source);
    return { source, operators: [] };
  }

  private parseSource(): Source {
    const t = this.peek();
    if (t.kind !== 'ident') {
      if (this.isBracketName(this.pos)) {
        const name = this.expectName('a table name');
        return { kind: 'table', name: name.name, span: name.span };
      }
      throw this.errors.syntax(`expected a table name, datatable, print or range, found '${shown(t)}'`, t.span);
    }
    if (atScopeFunction(this)) return parseScopedSource(this);
    if (t.text === 'evaluate') {
      const plugin = this.tokens[this.pos + 1]?.text;
      throw this.errors.unsupported(refusedEvaluateSource(plugin, clip(plugin ?? '')), t.span);
    }
    if (UNSUPPORTED_SOURCES.has(t.text)) throw this.errors.unsupported(`'${t.text}' is not supported`, t.span);
    if (t.text === 'graph' && this.tokens[this.pos + 1]?.text === '(')
      throw this.errors.unsupported(
        'graph("name") reads a persistent graph model, and there are none here: build the graph with make-graph',
        t.span,
      );
    this.next();
    if (this.functions.has(t.text) && this.peekOp('(')) return parseUdfSource(this, t);
    if (t.text === 'union') return { kind: 'union', union: parseUnion(this), span: this.spanFrom(t.span.start) };
    if (t.text === 'macro-expand') return this.macros.parse(this, t);
    if (t.text === 'search')
      return { kind: 'search', search: parseSearch(this, false), span: this.spanFrom(t.span.start) };
    if (t.text === 'find') return { kind: 'find', find: parseFind(this), span: this.spanFrom(t.span.start) };
    if (t.text === 'print') {
      const items = this.parseNamedList();
      return { kind: 'print', items, span: this.spanFrom(t.span.start) };
    }
    if (t.text === 'datatable') return this.parseDatatable(t);
    if (t.text === 'range' && (this.peek().kind === 'ident' || this.isBracketName(this.pos))) {
      const column = this.expectName('a column name after range');
      this.expectIdent('from');
      const from = this.expression();
      this.expectIdent('to');
      const to = this.expression();
      this.expectIdent('step');
      const step = this.expression();
      return {
        kind: 'range',
        column: column.name,
        columnSpan: column.span,
        from,
        to,
        step,
        span: this.spanFrom(t.span.start),
      };
    }
    return { kind: 'table', name: t.text, span: t.span };
  }

  private parseDatatable(t: Token): Source {
    this.expectOp('(');
    const columns: ColumnDecl[] = [];
    do {
      if (columns.length > 0 && this.peekOp(')')) break; // trailing comma (Kusto.Language accepts it)
      const name = this.expectName('a column name');
      this.expectOp(':');
      const type = this.next();
      if (type.kind !== 'ident') throw this.errors.syntax('expected a column type', type.span);
      columns.push({ name: name.name, type: type.text, span: { start: name.span.start, end: type.span.end } });
    } while (this.acceptOp(','));
    this.expectOp(')');
    this.expectOp('[');
    const values: Expr[] = [];
    if (!this.peekOp(']')) {
      do {
        if (this.peekOp(']')) break; // trailing comma
        values.push(this.expression());
      } while (this.acceptOp(','));
    }
    this.expectOp(']');
    return { kind: 'datatable', columns, values, span: this.spanFrom(t.span.start) };
  }

  private parseOperator(): Operator {
    const t = this.next();
    const start = t.span.start;
    if (t.kind !== 'ident') throw this.errors.syntax(`expected an operator after '|', found '${shown(t)}'`, t.span);
    switch (t.text) {
      case 'where':
      case 'filter':
        return { kind: 'where', predicate: this.expression(), span: this.spanFrom(start) };
      case 'project':
        return { kind: 'project', items: this.parseNamedList(true), span: this.spanFrom(start) };
      case 'extend':
        return { kind: 'extend', items: this.parseNamedList(true), span: this.spanFrom(start) };
      case 'project-away':
        return { kind: 'projectAway', names: this.parseNamePatterns(), span: this.spanFrom(start) };
      case 'project-rename':
        return this.parseProjectRename(start);
      case 'summarize':
        return this.parseSummarize(start);
      case 'take':
      case 'limit':
        return { kind: 'take', count: this.expression(), span: this.spanFrom(start) };
      case 'top': {
        const count = this.expression();
        this.expectIdent('by');
        return { kind: 'top', count, by: this.parseSortKeys(), span: this.spanFrom(start) };
      }
      case 'sort':
      case 'order':
        this.expectIdent('by');
        return { kind: 'sort', keys: this.parseSortKeys(), span: this.spanFrom(start) };
      case 'count':
        return { kind: 'count', span: t.span };
      case 'distinct':
        // hint.shufflekey and hint.strategy=shuffle only distribute the work (shuffle query page), as summarize's.
        this.skipHints();
        if (this.acceptOp('*')) return { kind: 'distinct', columns: '*', span: this.spanFrom(start) };
        return { kind: 'distinct', columns: this.parseNamedList(), span: this.spanFrom(start) };
      case 'render':
        return this.parseRender(start);
      case 'join':
      case 'lookup':
        return { kind: 'join', join: parseJoin(this, t.text === 'lookup', t), span: this.spanFrom(start) };
      case 'union':
        return { kind: 'union', union: parseUnion(this), span: this.spanFrom(start) };
      case 'parse':
      case 'parse-where':
        return { kind: 'parse', parse: parseParse(this, t.text === 'parse-where'), span: this.spanFrom(start) };
      case 'getschema':
        return { kind: 'getschema', span: t.span };
      case 'sample':
        return { kind: 'sample', count: this.expression(), span: this.spanFrom(start) };
      case 'project-keep':
        return { kind: 'projectKeep', names: this.parseNamePatterns(), span: this.spanFrom(start) };
      case 'project-reorder':
        return parseProjectReorder(this, () => this.parseNamePattern(), start);
      case 'sample-distinct':
        return parseSampleDistinct(this, start);
      case 'mv-expand':
      case 'mvexpand':
        return { kind: 'mvExpand', mvExpand: parseMvExpand(this, t.text === 'mvexpand'), span: this.spanFrom(start) };
      case 'search':
        return { kind: 'search', search: parseSearch(this, true), span: this.spanFrom(start) };
      case 'parse-kv':
        return parseParseKv(this, start);
      case 'top-nested':
        return { kind: 'topNested', clauses: parseTopNested(this), span: this.spanFrom(start) };
      case 'as': {
        const name = parseAs(this);
        this.ownTabularNames().add(name.name);
        const op = { kind: 'as', name: name.name, nameSpan: name.span, span: this.spanFrom(start) } as const;
        return name.materialized ? { ...op, materialized: true } : op;
      }
      case 'scan':
        return { kind: 'scan', scan: parseScan(this), span: this.spanFrom(start) };
      case 'evaluate':
        return { kind: 'evaluate', evaluate: parseEvaluate(this), span: this.spanFrom(start) };
      case 'fork':
        return parseFork(this, start);
      case 'consume':
        return parseConsume(this, start);
      case 'facet':
        return parseFacet(this, start);
      case 'top-hitters':
        return { kind: 'topHitters', topHitters: parseTopHitters(this), span: this.spanFrom(start) };
      case 'partition':
        return { kind: 'partition', partition: parsePartition(this), span: this.spanFrom(start) };
      case 'mv-apply':
      case 'mvapply': // the grammar's spelling without the hyphen
        return { kind: 'mvApply', mvApply: parseMvApply(this), span: this.spanFrom(start) };
      case 'make-series':
        return { kind: 'makeSeries', makeSeries: parseMakeSeries(this), span: this.spanFrom(start) };
      case 'serialize': {
        const items =
          this.peek().kind === 'eof' || this.peekOp('|') || this.peekOp(';') || this.peekOp(')')
            ? []
            : this.parseNamedList();
        return { kind: 'serialize', items, span: this.spanFrom(start) };
      }
      case 'make-graph':
        return { kind: 'graph', graph: parseGraph(this, t), span: this.spanFrom(start) };
      default:
        if (GRAPH_OPERATORS.has(t.text)) throw graphOperatorWithoutGraph(this, t);
        if (KNOWN_UNSUPPORTED_OPERATORS.has(t.text)) throw this.errors.unsupported(refusedOperator(t.text), t.span);
        throw this.errors.syntax(`unknown operator '${shown(t)}'`, t.span);
    }
  }

  private parseProjectRename(start: number): Operator {
    const items: { newName: string; oldName: string; span: Span; oldSpan: Span }[] = [];
    do {
      const n = this.expectName('a new column name');
      this.expectOp('=');
      const o = this.expectName('an existing column name');
      items.push({ newName: n.name, oldName: o.name, span: { start: n.span.start, end: o.span.end }, oldSpan: o.span });
    } while (this.acceptOp(','));
    return { kind: 'projectRename', items, span: this.spanFrom(start) };
  }

  private parseSummarize(start: number): Operator {
    // hint.shufflekey, hint.strategy and hint.num_partitions only distribute the work (summarize
    // operator docs): read and ignored, as join's. A column named hint... is no hint.
    this.skipHints();
    const aggregates = this.peekIdent('by') ? [] : this.parseNamedList(true);
    const by = this.acceptIdent('by') ? this.parseNamedList() : [];
    if (aggregates.length === 0 && by.length === 0)
      throw this.errors.syntax('summarize needs an aggregation or a by clause', this.peek().span);
    return { kind: 'summarize', aggregates, by, span: this.spanFrom(start) };
  }

  private skipHints(): void {
    while (this.peek().kind === 'ident' && this.peek().text === 'hint' && this.peekAt(1)?.text === '.') skipHint(this);
  }

  /** Whether `name =` (or `['name'] =`) starts `offset` tokens ahead: the next render property. */
  private atRenderProperty(offset: number): boolean {
    const i = this.pos + offset;
    if (this.tokens[i]?.kind === 'ident') return this.tokens[i + 1]?.text === '=';
    return this.isBracketName(i) && this.tokens[i + 3]?.text === '=';
  }

  private parseRender(start: number): Operator {
    const vis = this.next();
    if (vis.kind !== 'ident') throw this.errors.syntax('expected a visualization after render', vis.span);
    const properties: Record<string, string> = {};
    // The older form `render areachart kind=stacked title="t"`: space-separated properties before
    // any with (...). Kusto.Language still reads it; render only hints the client.
    while (this.atRenderProperty(0)) {
      const key = this.expectName('a render property');
      this.expectOp('=');
      const value = this.expression();
      properties[key.name] = this.source.slice(value.span.start, value.span.end);
    }
    if (this.acceptIdent('with')) {
      this.expectOp('(');
      while (!this.peekOp(')')) {
        const key = this.expectName('a render property');
        this.expectOp('=');
        const value = this.expression();
        let end = value.span.end;
        // ycolumns, series and anomalycolumns take comma-delimited column lists (render page):
        // a comma not followed by `name =` continues the value.
        while (this.peekOp(',') && !this.atRenderProperty(1) && this.tokens[this.pos + 1]?.text !== ')') {
          this.next();
          end = this.expression().span.end;
        }
        properties[key.name] = this.source.slice(value.span.start, end);
        if (!this.acceptOp(',')) break;
      }
      this.expectOp(')');
    }
    // After with (...) no property may follow (Kusto.Language: "Expected: ;"): name where it goes.
    const after = this.peek();
    if (after.kind === 'ident' && this.peekAt(1)?.text === '=')
      throw this.errors.syntax(
        `render properties go inside with (...): render ${vis.text} with (${after.text}=...)`,
        after.span,
      );
    return { kind: 'render', visualization: vis.text, properties, span: this.spanFrom(start) };
  }

  private parseSortKeys(): SortKey[] {
    const keys: SortKey[] = [];
    do {
      const expr = this.expression();
      let direction: 'asc' | 'desc' | undefined;
      let nulls: 'first' | 'last' | undefined;
      if (this.acceptIdent('asc')) direction = 'asc';
      else if (this.acceptIdent('desc')) direction = 'desc';
      if (this.acceptIdent('nulls')) {
        if (this.acceptIdent('first')) nulls = 'first';
        else if (this.acceptIdent('last')) nulls = 'last';
        else throw this.errors.syntax("expected 'first' or 'last' after nulls", this.peek().span);
      }
      keys.push({ expr, direction, nulls, span: this.spanFrom(expr.span.start) });
    } while (this.acceptOp(','));
    return keys;
  }

  /**
   * Column names or wildcard patterns (`a*`, `*Id`, `*x*`): adjacent names and `*` with no space
   * between. After a `*` digits go too (`project-away *1` drops a join's renamed right columns, as
   * Kusto.Language reads it); they lex as a number.
   */
  private parseNamePatterns(): NamePattern[] {
    const names: NamePattern[] = [];
    do names.push(this.parseNamePattern());
    while (this.acceptOp(','));
    return names;
  }

  private parseNamePattern(): NamePattern {
    const start = this.peek().span.start;
    let end = start;
    let pattern = '';
    while (pattern === '' || this.peek().span.start === end) {
      if (this.peekOp('*')) pattern += '*';
      else if (pattern === '' || (pattern.endsWith('*') && this.peek().kind === 'ident'))
        pattern += this.expectName('a column name').name;
      else if (pattern.endsWith('*') && this.peek().kind === 'long' && /^\d+$/.test(this.peek().text))
        pattern += this.next().text;
      else break;
      if (pattern.endsWith('*')) this.next();
      end = this.prevEnd();
    }
    return { name: pattern, wildcard: pattern.includes('*'), span: { start, end } };
  }

  /** tuple: the items may name several columns with `(a, b) = ...` (summarize, extend, project). */
  parseNamedList(tuple = false): NamedExpr[] {
    const items: NamedExpr[] = [];
    do items.push(this.parseNamedExpr(tuple));
    while (this.acceptOp(','));
    return items;
  }

  parseNamedExpr(tuple = false): NamedExpr {
    const start = this.peek().span.start;
    if (this.atTupleNames()) {
      if (!tuple)
        throw this.errors.unsupported(
          'naming several columns with (a, b) = ... is not supported here',
          this.peek().span,
        );
      const names = this.parseTupleNames();
      const expr = this.expression();
      return { names, expr, span: this.spanFrom(start) };
    }
    const name = this.tryNameThenAssign();
    const expr = this.expression();
    return name
      ? { name: name.name, nameSpan: name.span, expr, span: this.spanFrom(start) }
      : { expr, span: this.spanFrom(start) };
  }

  /** `(a, b) =` or `(a) =` starts at the cursor (not `(a) == ...`, an expression). */
  private atTupleNames(): boolean {
    if (!this.peekOp('(')) return false;
    // The first name: an identifier, or a bracketed name (three tokens: `[`, the text, `]`).
    const width = this.tokens[this.pos + 1]?.kind === 'ident' ? 1 : this.isBracketName(this.pos + 1) ? 3 : 0;
    if (width === 0) return false;
    const after = this.tokens[this.pos + 1 + width];
    return after?.text === ',' || (after?.text === ')' && this.tokens[this.pos + 2 + width]?.text === '=');
  }

  /** `(a, b, ...) =` at the cursor (after atTupleNames). */
  private parseTupleNames(): { name: string; span: Span }[] {
    this.next();
    const names: { name: string; span: Span }[] = [];
    do names.push(this.expectName('a column name'));
    while (this.acceptOp(','));
    if (!this.acceptOp(')')) throw this.errors.syntax("expected ')' after the column names", this.peek().span);
    if (!this.acceptOp('=')) throw this.errors.syntax("expected '=' after (Name, ...)", this.peek().span);
    return names;
  }

  /** `Name =` (not `==`) at the cursor: consumes it and returns the name. */
  private tryNameThenAssign(): { name: string; span: Span } | undefined {
    const t = this.peek();
    if (t.kind === 'ident' && this.tokens[this.pos + 1]?.text === '=') {
      this.pos += 2;
      return { name: t.text, span: t.span };
    }
    if (this.isBracketName(this.pos) && this.tokens[this.pos + 3]?.text === '=') {
      const n = this.expectName('a column name');
      this.pos++;
      return n;
    }
    return undefined;
  }

  // ---------------------------------------------------------------- scalar
  /** A top-level scalar expression: its terms are counted from zero. */
  expression(): Expr {
    this.terms = 0;
    return this.parseExpr();
  }

  private parseExpr(): Expr {
    return this.parseOr();
  }

  /** A search predicate: an expression in which `Column:"term"` may stand wherever a comparison does. */
  searchPredicate(): Expr {
    this.columnTerms = true;
    try {
      return this.expression();
    } finally {
      this.columnTerms = false;
    }
  }

  /** Reads `inner` one level deeper. @throws QueryError QUERY_TOO_DEEP at `at` beyond the limit. */
  private nested<T>(at: Span, inner: () => T): T {
    this.nesting++;
    if (this.nesting > this.ctx.limits.maxDepth) {
      this.ctx.exceeded(
        'QUERY_TOO_DEEP',
        `an expression nested more than ${this.ctx.limits.maxDepth} levels deep`,
        this.ctx.limits.maxDepth,
        at,
      );
    }
    try {
      return inner();
    } finally {
      this.nesting--;
    }
  }

  /**
   * Registers a new node: its tree depth, one more term of the expression, a tick of the budget.
   * @throws QueryError QUERY_TOO_DEEP or QUERY_TOO_MANY_TERMS at `at` (the node's operator or start).
   */
  private node<T extends Expr>(expr: T, depth: number, at: Span): T {
    const limits = this.ctx.limits;
    if (depth > limits.maxDepth)
      this.ctx.exceeded('QUERY_TOO_DEEP', `an expression ${depth} levels deep`, limits.maxDepth, at);
    if (++this.terms > limits.maxTerms)
      this.ctx.exceeded(
        'QUERY_TOO_MANY_TERMS',
        `an expression of more than ${limits.maxTerms.toLocaleString('en-US')} terms`,
        limits.maxTerms,
        at,
      );
    this.ctx.budget.tick(at.start);
    if (depth > 0) this.depths.set(expr, depth);
    return expr;
  }

  private depthOf(expr: Expr): number {
    return this.depths.get(expr) ?? 0;
  }

  /** A left-associative chain of one operator class, built as a left-deep tree of binary nodes. */
  private binary(op: string, left: Expr, right: Expr, opSpan: Span, depth: number): Expr {
    return this.node(
      { kind: 'binary', op, left, right, opSpan, span: { start: left.span.start, end: right.span.end } },
      depth,
      opSpan,
    );
  }

  /** `Column:"term"` of a search predicate. @throws QueryError QUERY_SYNTAX without a string after the colon. */
  private columnTerm(left: Expr & { kind: 'name' }, colon: Token): Expr {
    this.next();
    const term = this.next();
    if (term.kind !== 'string') throw this.errors.syntax('expected a string after Column:', term.span);
    const right: Expr = { kind: 'literal', type: 'string', value: term.value as string, span: term.span };
    return this.binary(':', left, right, colon.span, 1);
  }

  // `and` and `or` chains count one level, whatever their length: engines read them as one list.
  private parseOr(): Expr {
    let left = this.parseAnd();
    let deepest = this.depthOf(left);
    while (this.peekIdent('or')) {
      const op = this.next();
      const right = this.parseAnd();
      deepest = Math.max(deepest, this.depthOf(right));
      left = this.binary('or', left, right, op.span, deepest + 1);
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseComparison();
    let deepest = this.depthOf(left);
    while (this.peekIdent('and')) {
      const op = this.next();
      const right = this.parseComparison();
      deepest = Math.max(deepest, this.depthOf(right));
      left = this.binary('and', left, right, op.span, deepest + 1);
    }
    return left;
  }

  private parseComparison(): Expr {
    const left = this.parseAdditive();
    const t = this.peek();
    if (this.columnTerms && t.text === ':' && left.kind === 'name') return this.columnTerm(left, t);
    if (t.kind === 'op' && COMPARISON_OPS.has(t.text)) {
      this.next();
      const right = this.parseAdditive();
      return this.binary(
        t.text === '<>' ? '!=' : t.text,
        left,
        right,
        t.span,
        1 + Math.max(this.depthOf(left), this.depthOf(right)),
      );
    }
    const word =
      t.kind === 'ident' || (t.kind === 'op' && t.text.startsWith('!') && t.text.length > 2) || t.text === 'in~'
        ? t.text
        : undefined;
    if (word === undefined) return left;
    const base = word.replace(/^!/, '');
    const list =
      base === 'in' || base === 'in~' || ((base === 'has_any' || base === 'has_all') && this.peekAt(1)?.text === '(');
    if (list) {
      this.next();
      const open = this.expectOp('(');
      const values: Expr[] = [];
      if (!this.peekOp(')')) {
        this.nested(open.span, () => {
          do values.push(tabularOperand(this) ?? this.parseExpr());
          while (this.acceptOp(','));
        });
      }
      this.expectOp(')');
      const depth = 1 + Math.max(this.depthOf(left), ...values.map((v) => this.depthOf(v)));
      return this.node(
        { kind: 'in', op: word, left, values, opSpan: t.span, span: this.spanFrom(left.span.start) },
        depth,
        t.span,
      );
    }
    if (base === 'between') {
      this.next();
      const open = this.expectOp('(');
      const [low, high] = this.nested(open.span, () => {
        const l = this.parseAdditive();
        this.expectOp('..');
        return [l, this.parseAdditive()] as const;
      });
      this.expectOp(')');
      const depth = 1 + Math.max(this.depthOf(left), this.depthOf(low), this.depthOf(high));
      return this.node(
        { kind: 'between', negated: word.startsWith('!'), left, low, high, span: this.spanFrom(left.span.start) },
        depth,
        t.span,
      );
    }
    if (base === 'matches') {
      this.next();
      if (word.startsWith('!')) throw this.errors.syntax("'!matches' is not an operator", t.span);
      this.expectIdent('regex');
      const right = this.parseAdditive();
      const opSpan = { start: t.span.start, end: this.tokens[this.pos - 1]!.span.end };
      return this.node(
        {
          kind: 'binary',
          op: 'matches regex',
          left,
          right,
          opSpan,
          span: { start: left.span.start, end: right.span.end },
        },
        1 + Math.max(this.depthOf(left), this.depthOf(right)),
        opSpan,
      );
    }
    if (WORD_PREDICATES.has(base)) {
      this.next();
      const right = this.parseAdditive();
      return this.binary(word, left, right, t.span, 1 + Math.max(this.depthOf(left), this.depthOf(right)));
    }
    return left;
  }

  private parseAdditive(): Expr {
    let left = this.parseMultiplicative();
    while (this.peekOp('+') || this.peekOp('-')) {
      const op = this.next();
      const right = this.parseMultiplicative();
      left = this.binary(op.text, left, right, op.span, 1 + Math.max(this.depthOf(left), this.depthOf(right)));
    }
    return left;
  }

  private parseMultiplicative(): Expr {
    let left = this.parseUnary();
    while (this.peekOp('*') || this.peekOp('/') || this.peekOp('%')) {
      const op = this.next();
      const right = this.parseUnary();
      left = this.binary(op.text, left, right, op.span, 1 + Math.max(this.depthOf(left), this.depthOf(right)));
    }
    return left;
  }

  private parseUnary(): Expr {
    if (this.peekOp('-') || this.peekOp('+')) {
      const op = this.next();
      const t = this.peek();
      // -9223372036854775808: the one integer literal that only exists negated.
      if (op.text === '-' && t.kind === 'long' && t.value === MAX_LONG + 1n) {
        this.next();
        return this.node(this.literal('long', MIN_LONG, { start: op.span.start, end: t.span.end }), 0, op.span);
      }
      const operand = this.nested(op.span, () => this.parseUnary());
      return this.node(
        { kind: 'unary', op: op.text as '-' | '+', operand, span: { start: op.span.start, end: operand.span.end } },
        1 + this.depthOf(operand),
        op.span,
      );
    }
    return this.parsePostfix();
  }

  private parsePostfix(): Expr {
    let expr = this.parsePrimary();
    for (;;) {
      if (this.peekOp('.') && (this.tokens[this.pos + 1]?.kind === 'ident' || this.isBracketName(this.pos + 1))) {
        const dot = this.next();
        const name = this.expectName('a property name');
        expr = this.node(
          { kind: 'member', target: expr, name: name.name, span: { start: expr.span.start, end: name.span.end } },
          1 + this.depthOf(expr),
          dot.span,
        );
        continue;
      }
      // `.[expr]` is the element access `[expr]` (the parse_urlquery page writes
      // params["Query Parameters"].[param]); `.['name']` was read as a member just above.
      const dotted = this.peekOp('.') && this.tokens[this.pos + 1]?.text === '[';
      if (dotted || this.peekOp('[')) {
        if (dotted) this.next();
        const open = this.next();
        const index = this.nested(open.span, () => this.parseExpr());
        const close = this.expectOp(']');
        const depth = 1 + Math.max(this.depthOf(expr), this.depthOf(index));
        expr = this.node(
          { kind: 'index', target: expr, index, span: { start: expr.span.start, end: close.span.end } },
          depth,
          open.span,
        );
        continue;
      }
      return expr;
    }
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'string': {
        // Adjacent string literals are one string ("a" 'b' is "ab").
        this.next();
        let value = t.value as string;
        while (this.peek().kind === 'string') value += this.next().value as string;
        return this.node(this.literal('string', value, { start: t.span.start, end: this.prevEnd() }), 0, t.span);
      }
      case 'long':
        this.next();
        if ((t.value as bigint) > MAX_LONG)
          throw this.errors.syntax('the integer literal is out of the range of long', t.span);
        return this.node(this.literal('long', t.value as bigint, t.span), 0, t.span);
      case 'real':
        this.next();
        return this.node(this.literal('real', t.value as number, t.span), 0, t.span);
      case 'timespan':
        this.next();
        return this.node(this.literal('timespan', t.value as bigint, t.span), 0, t.span);
      case 'typedLiteral':
        this.next();
        return this.node(this.typedLiteral(t), 0, t.span);
      case 'ident':
        return this.parseIdentifierExpr();
      case 'op':
        if (t.text === '(') {
          this.next();
          const inner = this.nested(t.span, () => this.parseExpr());
          this.expectOp(')');
          return inner;
        }
        if (this.isBracketName(this.pos)) {
          const n = this.expectName('a name');
          return this.node({ kind: 'name', name: n.name, span: n.span }, 0, n.span);
        }
        if (t.text === '*') {
          this.next();
          return this.node({ kind: 'star', span: t.span }, 0, t.span);
        }
        break;
      default:
        break;
    }
    throw this.errors.syntax(t.kind === 'eof' ? 'unexpected end of query' : `unexpected '${shown(t)}'`, t.span);
  }

  private parseIdentifierExpr(): Expr {
    const t = this.next();
    const bool = boolWord(t);
    if (bool !== undefined) return this.node(this.literal('bool', bool, t.span), 0, t.span);
    if (!this.peekOp('(')) return this.node({ kind: 'name', name: t.text, span: t.span }, 0, t.span);
    const typed = TYPED_NUMBER_FUNCS.get(t.text);
    if (typed) return this.node(this.typedNumber(t, typed), 0, t.span);
    if (this.functions.has(t.text)) {
      const call = parseUdfCall(this, t);
      return this.node(call, 1 + Math.max(0, ...call.args.map((a) => this.depthOf(a))), t.span);
    }
    const open = this.next();
    const args: Expr[] = [];
    const names: (string | undefined)[] = [];
    if (!this.peekOp(')')) {
      this.nested(open.span, () => {
        do {
          names.push(this.argumentName(t));
          args.push((TABULAR_ARGUMENT.has(t.text) ? tabularOperand(this) : undefined) ?? this.parseExpr());
        } while (this.acceptOp(','));
      });
    }
    const close = this.expectOp(')');
    const depth = 1 + Math.max(0, ...args.map((a) => this.depthOf(a)));
    return this.node(
      {
        kind: 'call',
        name: DEPRECATED_ALIASES.get(t.text) ?? t.text,
        nameSpan: t.span,
        args,
        ...(names.some((n) => n !== undefined) ? { argNames: names } : {}),
        span: { start: t.span.start, end: close.span.end },
      },
      depth,
      t.span,
    );
  }

  /**
   * `name =` before an argument of fn: the name of a column arg_max, arg_min, take_any or take_anyif
   * returns (Kusto.Language: arg_min(a, x = b) returns b as x). No other built-in function takes a
   * named argument: refused at the name (a user-defined function's call is parsed in parser-udf.ts).
   */
  private argumentName(fn: Token): string | undefined {
    const name = this.peek();
    if (name.kind !== 'ident' || this.peekAt(1)?.text !== '=') return undefined;
    if (!NAMED_ARGUMENTS.has(fn.text)) {
      throw this.errors.semantic(
        `${fn.text}() takes no named argument ('${name.text} = ...'); only arg_max, arg_min, take_any and take_anyif name a returned column that way`,
        name.span,
      );
    }
    this.next();
    this.expectOp('=');
    return name.text;
  }

  /** long(5), int(null), real(nan), real(-inf), bool(true). */
  private typedNumber(t: Token, type: LiteralKind): Expr {
    this.expectOp('(');
    const negative = this.acceptOp('-') !== undefined;
    if (!negative) this.acceptOp('+');
    const v = this.next();
    const close = this.expectOp(')');
    const span = { start: t.span.start, end: close.span.end };
    if (v.text === 'null' && !negative) return this.literal(type, null, span);
    const word = type === 'bool' ? boolWord(v) : undefined;
    if (word !== undefined) return this.literal('bool', word, span);
    // decimal(1.5) (decimal data type docs): held as a real, as todecimal() is on both engines.
    if (type === 'decimal' && (v.kind === 'long' || v.kind === 'real')) {
      const value = (negative ? -1 : 1) * Number(v.kind === 'long' ? (v.value as bigint) : (v.value as number));
      // decimal(1e400) is no decimal (it was an infinite one).
      if (!(Math.abs(value) < DECIMAL_BOUND))
        throw this.errors.syntax(`the ${t.text} literal is out of the range of decimal`, span);
      return this.literal('decimal', value, span);
    }
    if (type === 'real') {
      if (v.text === 'nan') return this.literal('real', NaN, span);
      if (v.text === 'inf') return this.literal('real', negative ? -Infinity : Infinity, span);
      if (v.kind === 'long' || v.kind === 'real')
        return this.literal(
          'real',
          (negative ? -1 : 1) * Number(v.kind === 'long' ? (v.value as bigint) : (v.value as number)),
          span,
        );
    }
    if ((type === 'long' || type === 'int') && v.kind === 'long') {
      const value = (negative ? -1n : 1n) * (v.value as bigint);
      const [min, max] = type === 'long' ? [MIN_LONG, MAX_LONG] : [MIN_INT, MAX_INT];
      if (value < min || value > max)
        throw this.errors.syntax(`the ${t.text} literal is out of the range of ${type}`, span);
      return this.literal(type, value, span);
    }
    if (type === 'bool' && v.kind === 'long') return this.literal('bool', (v.value as bigint) !== 0n, span);
    throw this.errors.syntax(`invalid ${t.text} literal`, span);
  }

  private typedLiteral(t: Token): Expr {
    const raw = String(t.value);
    const type = t.typeName as LiteralKind;
    if (raw === 'null') return this.literal(type, null, t.span);
    // The datetime page's `datetime()`: the current time, as now().
    if (type === 'datetime' && raw.trim() === '')
      return { kind: 'call', name: 'now', nameSpan: t.span, args: [], span: t.span };
    if (type === 'datetime') {
      const ticks = parseDatetimeTicks(datetimeLiteralText(raw));
      if (ticks === undefined) {
        // Kusto's datetimes end at 0001-01-01 and 9999-12-31T23:59:59.9999999: a literal past them is no datetime.
        const outside = parseDatetimeTicksUnbounded(raw) !== undefined;
        throw this.errors.syntax(
          `invalid datetime literal '${clip(raw)}'${outside ? '; datetimes range from 0001-01-01 to 9999-12-31' : ''}`,
          t.span,
        );
      }
      return this.literal('datetime', ticks, t.span);
    }
    if (type === 'timespan') {
      const ticks = parseTimespanTicks(raw);
      if (ticks === undefined) throw this.errors.syntax(`invalid timespan literal '${clip(raw)}'`, t.span);
      return this.literal('timespan', ticks, t.span);
    }
    if (type === 'dynamic') {
      try {
        return this.literal('dynamic', minifiedJson(dynamicLiteralJson(raw)), t.span);
      } catch (error) {
        if (error instanceof DynamicScalarError)
          throw this.errors.syntax(`invalid dynamic literal: ${error.message}`, t.span);
        throw this.errors.unsupported(
          'dynamic(...) holds JSON and scalar literals (1h, datetime(...), guid(...), long(...), real(...))',
          t.span,
        );
      }
    }
    const guid = raw.replace(/^['"]|['"]$/g, '');
    if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(guid)) {
      throw this.errors.syntax(`invalid guid literal '${clip(raw)}'`, t.span);
    }
    return this.literal('guid', guid.toLowerCase(), t.span);
  }

  private literal(type: LiteralKind, value: string | number | bigint | boolean | null, span: Span): Expr {
    return { kind: 'literal', type, value, span };
  }

  // ---------------------------------------------------------------- helpers
  peekAt(offset: number): Token | undefined {
    return this.tokens[this.pos + offset];
  }
  functionSource(): Source | undefined {
    const t = this.peek();
    if (t.kind !== 'ident' || !this.functions.has(t.text) || this.tokens[this.pos + 1]?.text !== '(') return undefined;
    this.next();
    return parseUdfSource(this, t);
  }
  subOperators(at: Span): Operator[] {
    return this.nested(at, () => {
      const operators = [this.parseOperator()];
      while (this.acceptOp('|')) operators.push(this.parseOperator());
      return operators;
    });
  }
  /** A parenthesized tabular expression's inside: a nesting level deeper, its own expression terms. */
  subPipeline(at: Span): Pipeline {
    return this.nested(at, () => this.parsePipeline());
  }
  peek(): Token {
    return this.tokens[this.pos]!;
  }
  next(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind !== 'eof') this.pos++;
    this.ctx.budget.tick(t.span.start);
    return t;
  }
  prevEnd(): number {
    return this.tokens[Math.max(0, this.pos - 1)]!.span.end;
  }
  spanFrom(start: number): Span {
    return { start, end: Math.max(start, this.prevEnd()) };
  }
  peekOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }
  acceptOp(text: string): Token | undefined {
    return this.peekOp(text) ? this.next() : undefined;
  }
  expectOp(text: string): Token {
    const t = this.peek();
    if (!this.peekOp(text)) throw this.errors.syntax(`expected '${text}', found '${shown(t)}'`, t.span);
    return this.next();
  }
  peekIdent(text: string): boolean {
    const t = this.peek();
    return t.kind === 'ident' && t.text === text;
  }
  acceptIdent(text: string): boolean {
    if (!this.peekIdent(text)) return false;
    this.next();
    return true;
  }
  expectIdent(text: string): void {
    const t = this.peek();
    if (!this.acceptIdent(text)) throw this.errors.syntax(`expected '${text}', found '${shown(t)}'`, t.span);
  }
  private isBracketName(i: number): boolean {
    return this.tokens[i]?.text === '[' && this.tokens[i + 1]?.kind === 'string' && this.tokens[i + 2]?.text === ']';
  }
  /** An identifier or a bracketed name ['...']. */
  expectName(what: string): { name: string; span: Span } {
    const t = this.peek();
    if (t.kind === 'ident') {
      this.next();
      return { name: t.text, span: t.span };
    }
    if (this.isBracketName(this.pos)) {
      const open = this.next();
      const str = this.next();
      const close = this.next();
      const name = str.value as string;
      if (name.length === 0) throw this.errors.syntax('a column name cannot be empty', str.span);
      const span = { start: open.span.start, end: close.span.end };
      checkNameLength(this.ctx, name, span);
      return { name, span };
    }
    throw this.errors.syntax(`expected ${what}, found '${shown(t)}'`, t.span);
  }
}
