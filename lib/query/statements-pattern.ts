// The pattern statement (https://learn.microsoft.com/kusto/query/pattern-statement): `declare pattern
// Name [= (Arg:string, ...) [[Path:string]] { (v, ...)[.[pv]] = { tabular expression }; ... }];` maps
// tuples of string literals to tabular expressions, and an invocation `Name(v, ...)[.pv | .['pv']]`
// stands for the mapped expression. Resolved while parsing: each invoked mapping becomes a tabular
// let named by the invocation's normalized text (the page's `app('ApplicationX').['StartEvents']`),
// placed before the statement that invokes it (Parser.parseProgram takes them), so the rest of the
// compiler sees lets and table names only. Mappings never invoked are not compiled.
// Throws QueryError QUERY_SYNTAX for malformed text, QUERY_SEMANTIC for an invocation without a
// mapping (the page's "One or more pattern references were not declared" error, at the invocation).
import type { LetStatement, Pipeline, Source } from './ast';
import type { ErrorFactory } from './errors';
import type { Span, Token } from './tokens';

/** The part of the Parser read here (no import of the parser, no cycle). */
export interface PatternCursor {
  readonly errors: ErrorFactory;
  peek(): Token;
  peekAt(offset: number): Token | undefined;
  next(): Token;
  peekOp(text: string): boolean;
  acceptOp(text: string): Token | undefined;
  expectOp(text: string): Token;
  expectName(what: string): { name: string; span: Span };
  subPipeline(at: Span): Pipeline;
  spanFrom(start: number): Span;
}

/** What an invocation reads: the scope functions' cursor has it too (parser-scope.ts). */
export type InvokeCursor = Pick<
  PatternCursor,
  'errors' | 'peekAt' | 'next' | 'acceptOp' | 'expectOp' | 'expectName' | 'spanFrom'
>;

interface Pattern {
  /** Number of arguments; 0 for an empty pattern (declared without mappings). */
  readonly arity: number;
  readonly hasPath: boolean;
  /** The mapped expressions by normalized reference text. */
  readonly mappings: ReadonlyMap<string, Pipeline>;
}

/** Kusto's normalized reference: arguments and path as single-quoted strings (the page's error text). */
function reference(name: string, args: readonly string[], path: string | undefined): string {
  const quote = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return `${name}(${args.map(quote).join(', ')})${path === undefined ? '' : `.[${quote(path)}]`}`;
}

/** The patterns of one query: declared ones, and the lets of invoked mappings not yet placed. */
export class PatternScope {
  private readonly patterns = new Map<string, Pattern>();
  private readonly placed = new Set<string>();
  private pending: LetStatement[] = [];

  /** The names of the patterns declared so far. */
  names(): string[] {
    return [...this.patterns.keys()];
  }

  /** Whether the cursor is at an invocation: a declared pattern's name followed by `(`. */
  at(p: Pick<PatternCursor, 'peekAt'>, offset = 0): boolean {
    const t = p.peekAt(offset);
    return t?.kind === 'ident' && this.patterns.has(t.text) && p.peekAt(offset + 1)?.text === '(';
  }

  /** The lets of the mappings invoked since the last call: they go before the statement being read. */
  takeLets(): LetStatement[] {
    const lets = this.pending;
    this.pending = [];
    return lets;
  }

  /** `declare pattern ...;` with the cursor at `declare`. */
  declare(p: PatternCursor): void {
    p.next();
    p.next();
    const name = p.expectName('a pattern name');
    if (p.acceptOp(';')) {
      this.patterns.set(name.name, { arity: 0, hasPath: false, mappings: new Map() });
      return;
    }
    p.expectOp('=');
    p.expectOp('(');
    let arity = 0;
    do {
      p.expectName('an argument name');
      stringType(p);
      arity++;
    } while (p.acceptOp(','));
    p.expectOp(')');
    let hasPath = false;
    if (p.acceptOp('[')) {
      p.expectName('a path argument name');
      stringType(p);
      p.expectOp(']');
      hasPath = true;
    }
    p.expectOp('{');
    const mappings = new Map<string, Pipeline>();
    while (!p.acceptOp('}')) {
      const at = p.peek().span;
      const { args, path } = tuple(p, arity, hasPath);
      p.expectOp('=');
      const body = p.expectOp('{');
      const pipeline = p.subPipeline(body.span);
      p.expectOp('}');
      if (!p.acceptOp(';')) throw p.errors.syntax("expected ';' after the pattern's mapping", p.peek().span);
      const key = reference(name.name, args, path);
      if (mappings.has(key)) throw p.errors.semantic(`${key} is defined twice`, p.spanFrom(at.start));
      mappings.set(key, pipeline);
    }
    if (!p.acceptOp(';')) throw p.errors.syntax("expected ';' after the pattern statement", p.peek().span);
    this.patterns.set(name.name, { arity, hasPath, mappings });
  }

  /** The invocation at the cursor, which at() accepted, as the table its mapping's let names. */
  invoke(p: InvokeCursor): Source {
    const word = p.next();
    const pattern = this.patterns.get(word.text)!;
    const args: string[] = [];
    p.expectOp('(');
    if (p.peekAt(0)?.text !== ')') {
      do args.push(literal(p, 'an argument'));
      while (p.acceptOp(','));
    }
    p.expectOp(')');
    // `.Name` or `.['Name']`: a path; a `.` of anything else is not this invocation's.
    const dot = p.peekAt(0)?.text === '.';
    const dotted = dot && p.peekAt(1)?.kind === 'ident';
    const bracketed = dot && p.peekAt(1)?.text === '[' && p.peekAt(2)?.kind === 'string';
    const path = dotted || bracketed ? (p.next(), p.expectName('a path value').name) : undefined;
    const span = p.spanFrom(word.span.start);
    const key = reference(word.text, args, path);
    const pipeline = pattern.mappings.get(key);
    if (pipeline === undefined)
      throw p.errors.semantic(
        `One or more pattern references were not declared. Detected pattern references: ${JSON.stringify([key])}`,
        span,
      );
    if (!this.placed.has(key)) {
      this.placed.add(key);
      this.pending.push({ kind: 'let', name: key, nameSpan: span, value: pipeline, span: pipeline.span });
    }
    return { kind: 'table', name: key, span };
  }
}

/** `:string`, the one type of a pattern's arguments (the page: "Possible values: string"). */
function stringType(p: PatternCursor): void {
  p.expectOp(':');
  const t = p.next();
  if (t.text !== 'string') throw p.errors.semantic(`a pattern's arguments are strings, not '${t.text}'`, t.span);
}

/** A mapping's `(v, ...)[.[pv]]`. */
function tuple(p: PatternCursor, arity: number, hasPath: boolean): { args: string[]; path: string | undefined } {
  const open = p.expectOp('(');
  const args: string[] = [];
  do args.push(literal(p, 'a mapped value'));
  while (p.acceptOp(','));
  p.expectOp(')');
  if (args.length !== arity)
    throw p.errors.semantic(
      `the pattern declares ${arity} argument(s), this mapping gives ${args.length}`,
      p.spanFrom(open.span.start),
    );
  if (!hasPath) return { args, path: undefined };
  if (!p.peekOp('.'))
    throw p.errors.syntax(
      "expected .['value'] after the mapping's arguments (the pattern declares a path)",
      p.peek().span,
    );
  p.next();
  return { args, path: p.expectName('a path value').name };
}

/** A string literal (the page: an argument's value is a string; Kusto.Language: "must be a literal"). */
function literal(p: Pick<PatternCursor, 'next' | 'errors'>, what: string): string {
  const t = p.next();
  if (t.kind !== 'string') throw p.errors.semantic(`${what} of a pattern must be a string literal`, t.span);
  return String(t.value);
}
