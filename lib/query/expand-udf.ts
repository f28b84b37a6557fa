// Expansion of user-defined functions (user-defined functions docs) before analysis: each call is
// replaced by the function's body, its parameters bound like `let` values to the call's arguments
// (or their defaults), tabular parameters to the argument's tabular expression. Body nodes keep
// their spans, so an error inside a body points at the body; argument errors point at the call.
// The expansion is a macro expansion, so its size is bounded here: the terms it writes count
// against limits.maxQueryTerms and every node ticks the compile budget (a chain of functions each
// calling the previous twice would otherwise write 2^n nodes). Throws QueryError: QUERY_SEMANTIC
// for a wrong argument count or type, QUERY_UNSUPPORTED for recursion, QUERY_TOO_MANY_TERMS.
import type {
  ColumnDecl,
  Expr,
  FunctionDef,
  FunctionParam,
  GraphMatchSpec,
  LetStatement,
  Operator,
  Pipeline,
  Program,
  SearchSpec,
  Source,
  UnionLeg,
  UnionSpec,
} from './ast';
import { TABLE_NAMES } from '../telemetry/tables';
import { checkAccess } from './statements-restrict';
import { QueryLets, seenName, seenTable, type LetsSeen } from './expand-udf-lets';
import { matchesWildcard } from './naming';
import { clip } from './errors';
import type { CompileContext } from './limits';
import type { Span } from './tokens';
import { typeNamed } from './types';

type Binding =
  | {
      readonly kind: 'scalar';
      readonly expr: Expr;
      readonly size: number;
      /** A name of the value that is no let of the query: a column of the row the call reads. */
      readonly rowName?: Expr & { kind: 'name' };
      /** How many tabular expressions enclose the binding (tabularDepth when it was made). */
      readonly depth: number;
    }
  | { readonly kind: 'tabular'; readonly pipeline: Pipeline; readonly size: number }
  | {
      readonly kind: 'function';
      readonly name: string;
      readonly def: FunctionDef;
      scope: Scope;
      /** The query's lets its body sees: those before its definition. */
      readonly lets: LetsSeen;
    };
type Scope = ReadonlyMap<string, Binding>;
type CallSite = Pick<Expr & { kind: 'call' }, 'args' | 'argNames' | 'nameSpan' | 'span'>;

/** The program with every call of a user-defined function replaced by its body; the same object when it defines none. */
export function expandFunctions(program: Program, ctx: CompileContext): Program {
  if (!program.lets.some((l) => l.value.kind === 'function')) return program;
  return new Expander(ctx).program(program);
}

/** Keys holding spans or plain text: never expanded. */
const SKIPPED_KEYS: ReadonlySet<string> = new Set(['span', 'nameSpan', 'opSpan', 'kindSpan', 'columnSpan', 'name']);

class Expander {
  /** Terms written by expansions so far (a body's nodes, each bound argument at each use). */
  private terms = 0;
  /** Functions being expanded: a call of one of them is recursion. */
  private readonly active = new Set<FunctionDef>();
  /** Tree size of a bound value, shared sub-trees counted at each use. */
  private readonly sizes = new WeakMap<object, number>();
  /** The call being expanded: where the limit is reported. */
  private at: Span = { start: 0, end: 0 };
  /** Inside a function body (its nodes are new terms of the query). */
  private inBody = 0;
  /** Tabular expressions (toscalar(T), x in (T), a pipeline) enclosing the node being walked. */
  private tabularDepth = 0;
  /** The query's own scalar and tabular lets: a name of an argument that is none of them is a column. */
  private readonly letNames = new Set<string>();
  private readonly queryLets = new QueryLets();
  /** The query's lets the body being walked sees; undefined outside bodies (the analyzer reads them in order). */
  private lexical: LetsSeen | undefined;
  /** Lets written for bound values read inside a tabular expression, put before the statement being expanded. */
  private hoisted: LetStatement[] = [];
  /** The let written for a binding, so each binding has one. */
  private readonly hoistedNames = new WeakMap<Binding, string>();
  private hoistedCount = 0;

  constructor(private readonly ctx: CompileContext) {}

  program(program: Program): Program {
    let scope = new Map<string, Binding>();
    const lets: LetStatement[] = [];
    for (const stmt of program.lets) if (stmt.value.kind !== 'function') this.letNames.add(stmt.name);
    for (const stmt of program.lets) {
      if (stmt.value.kind === 'function') {
        scope = this.defineFunction(scope, stmt.name, stmt.value, this.queryLets.defineFunction());
        continue;
      }
      const value = this.walk(stmt.value, scope) as Expr | Pipeline;
      const expanded = value === stmt.value ? stmt : { ...stmt, value };
      lets.push(...this.takeHoisted(), ...this.queryLets.declare(expanded), expanded);
      // A later let of the same name hides the function from here on.
      if (scope.has(stmt.name)) {
        scope = new Map(scope);
        scope.delete(stmt.name);
      }
    }
    const query = this.walk(program.query, scope) as Pipeline;
    return { lets: [...lets, ...this.takeHoisted()], query };
  }

  private takeHoisted(): LetStatement[] {
    const out = this.hoisted;
    this.hoisted = [];
    return out;
  }

  /** A new scope with the function: its body sees itself (a call of itself is refused as recursion). */
  private defineFunction(scope: Scope, name: string, def: FunctionDef, lets: LetsSeen): Map<string, Binding> {
    const next = new Map(scope);
    const binding: Binding = { kind: 'function', name, def, scope: next, lets };
    next.set(name, binding);
    return next;
  }

  /** Any AST value, copied only where something inside it was expanded. */
  private walk(node: unknown, scope: Scope): unknown {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) {
      let out: unknown[] | undefined;
      node.forEach((item, i) => {
        const v = this.walk(item, scope);
        if (v !== item) (out ??= [...node])[i] = v;
      });
      return out ?? node;
    }
    const rec = node as Record<string, unknown>;
    const kind = rec['kind'];
    if (typeof kind === 'string') {
      const span = rec['span'] as Span | undefined;
      if (span) this.ctx.budget.tick(span.start);
      if (this.inBody > 0) this.count(1);
      if ((kind === 'union' || kind === 'search' || kind === 'find') && span) {
        const withViews = this.withViews(node as Source & { kind: 'union' | 'search' | 'find' }, scope);
        if (withViews !== node) return this.children(withViews as unknown as Record<string, unknown>, scope);
      }
      // A union leg is { kind: 'pipeline', pipeline }: only a Pipeline has a source.
      if (kind === 'pipeline' && rec['source'] !== undefined)
        return this.nested(() => this.pipeline(node as Pipeline, scope));
      if (kind === 'tabular') return this.nested(() => this.children(rec, scope));
      // graph-match's node and edge names are its own in its where and project (graph-match page).
      if (kind === 'match' && Array.isArray(rec['patterns']))
        return this.children(rec, without(scope, patternNames(node as GraphMatchSpec)));
      if (kind === 'name' && span) {
        const b = scope.get(rec['name'] as string);
        if (b?.kind === 'scalar') return this.use(this.inRowContext(b, node as Expr & { kind: 'name' }), b.size);
        if (b?.kind === 'tabular') return { kind: 'tabular', pipeline: this.use(b.pipeline, b.size), span };
        // A scalar function is invoked by its name alone as by `name()` (user-defined functions docs:
        // `x * a` and `x * a()`); its missing arguments are then reported at the name.
        if (b?.kind === 'function' && b.def.result.kind !== 'pipeline')
          return this.call(b, { args: [], nameSpan: span, span }, scope);
        if (!b && this.lexical) return seenName(this.lexical, this.letNames, node as Expr & { kind: 'name' });
        return node;
      }
      if (kind === 'call' && span) {
        const call = node as Expr & { kind: 'call' };
        const b = scope.get(call.name);
        if (b?.kind === 'function') {
          const body = this.call(b, call, scope);
          if (body.kind === 'pipeline')
            throw this.ctx.errors.semantic(
              `'${clip(call.name)}' is a tabular function: use it where a table goes, e.g. toscalar(${clip(call.name)}())`,
              call.nameSpan,
            );
          return body;
        }
      }
    }
    return this.children(rec, scope);
  }

  /** A node with its children walked, copied only where something inside it was expanded. */
  private children(rec: Record<string, unknown>, scope: Scope): unknown {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(rec)) {
      if (SKIPPED_KEYS.has(key)) continue;
      const v = rec[key];
      const w = this.walk(v, scope);
      if (w !== v) (out ??= { ...rec })[key] = w;
    }
    return out ?? rec;
  }

  /**
   * union with name patterns, or search over all tables, with the views in scope that the patterns
   * match added as legs named after them (let statement docs: views take part in `union *` and
   * `search *`); a pattern then matching only views is dropped (no table matches it). The same
   * node when no view matches.
   */
  private withViews<T extends { kind: 'union' | 'search' | 'find'; span: Span }>(node: T, scope: Scope): T {
    // find's tables are read as search's (find operator docs: views take part in its default scope too).
    const key = node.kind === 'find' ? 'find' : 'search';
    const views = [...scope.values()].filter(
      (b): b is Binding & { kind: 'function' } =>
        b.kind === 'function' && b.def.view === true && b.def.params.length === 0 && b.def.result.kind === 'pipeline',
    );
    if (views.length === 0) return node;
    const spec: UnionSpec =
      node.kind === 'union'
        ? (node as unknown as { union: UnionSpec }).union
        : ((node as unknown as Record<string, SearchSpec>)[key]!.tables ?? {
            unionKind: 'outer',
            legs: [{ kind: 'pattern', pattern: '*', span: node.span }],
          });
    let added = false;
    const legs = spec.legs.flatMap((leg): UnionLeg[] => {
      if (leg.kind !== 'pattern') return [leg];
      const matched = views.filter((v) => matchesWildcard(leg.pattern, v.name));
      if (matched.length === 0) return [leg];
      added = true;
      const tables = TABLE_NAMES.some((t) => matchesWildcard(leg.pattern, t)) ? [leg] : [];
      return [
        ...tables,
        ...matched.map((v): UnionLeg => ({
          kind: 'pipeline',
          pipeline: {
            kind: 'pipeline',
            source: { kind: 'table', name: v.name, span: leg.span },
            operators: [],
            span: leg.span,
          },
          name: v.name,
        })),
      ];
    });
    if (!added) return node;
    const union = { ...spec, legs };
    if (node.kind === 'union') return { ...node, union };
    const search = (node as unknown as Record<string, SearchSpec>)[key]!;
    return { ...node, [key]: { ...search, tables: union } };
  }

  private pipeline(p: Pipeline, scope: Scope): Pipeline {
    const base = this.tabularSource(this.namedByTable(p.source, scope), scope);
    const operators = this.operators(p.operators, scope);
    if (base)
      return { kind: 'pipeline', source: base.source, operators: [...base.operators, ...operators], span: p.span };
    const source = this.walk(p.source, scope) as Source;
    return source === p.source && operators === p.operators ? p : { ...p, source, operators };
  }

  /** Operators walked in order: after `as N`, N names that table, not a parameter or body let (as operator page). */
  private operators(ops: Pipeline['operators'], scope: Scope): Pipeline['operators'] {
    let out: Operator[] | undefined;
    let inScope = scope;
    ops.forEach((op, i) => {
      const walked = this.walk(op, inScope) as Operator;
      if (walked !== op) (out ??= [...ops])[i] = walked;
      if (op.kind === 'as' && inScope.has(op.name)) inScope = without(inScope, [op.name]);
    });
    return out ?? ops;
  }

  /**
   * table('Name') as the bare Name when Name is bound here (a local let, a tabular parameter, a
   * function: table() page, "data returned by function T"), once its argument is bound to a
   * literal; otherwise the source as it is, for the analyzer (analyze-scope.ts).
   */
  private namedByTable(s: Source, scope: Scope): Source {
    if (s.kind !== 'tableRef' || s.database !== undefined) return s;
    // No row is in scope at a source: a parameter named there is its value.
    const bound = s.table.kind === 'name' ? scope.get(s.table.name) : undefined;
    const table = bound?.kind === 'scalar' ? bound.expr : (this.walk(s.table, scope) as Expr);
    if (table.kind !== 'literal' || typeof table.value !== 'string' || !scope.has(table.value)) return s;
    return { kind: 'table', name: table.value, span: table.span };
  }

  /** The pipeline a source stands for: a tabular parameter or local let, or a tabular function's call. */
  private tabularSource(s: Source, scope: Scope): Pipeline | undefined {
    if (s.kind !== 'table' && s.kind !== 'udf') return undefined;
    const b = scope.get(s.name);
    if (!b)
      return this.lexical && s.kind === 'table'
        ? seenTable(this.ctx.errors, this.lexical, this.letNames, s)
        : undefined;
    const nameSpan = s.kind === 'udf' ? s.nameSpan : s.span;
    checkAccess(this.ctx, s.name, nameSpan);
    if (b.kind === 'tabular') return this.use(b.pipeline, b.size);
    if (b.kind === 'scalar') throw this.ctx.errors.semantic(`'${clip(s.name)}' is a scalar, not a table`, nameSpan);
    const body = this.call(b, s.kind === 'udf' ? s : { args: [], nameSpan, span: s.span }, scope);
    if (body.kind !== 'pipeline')
      throw this.ctx.errors.semantic(`'${clip(s.name)}' is a scalar function, not a table`, nameSpan);
    return body;
  }

  /** The body of `f` with its parameters bound to the arguments (walked in the caller's scope). */
  private call(f: Binding & { kind: 'function' }, site: CallSite, scope: Scope): Expr | Pipeline {
    const { def, name } = f;
    const { nameSpan, span } = site;
    const args = this.positional(name, def, site);
    if (this.active.has(def))
      throw this.ctx.errors.unsupported(
        `'${clip(name)}' calls itself: recursive functions are not supported`,
        nameSpan,
      );
    const required = def.params.filter((p) => p.default === undefined).length;
    const missing = def.params.find((p, i) => p.default === undefined && args[i] === undefined);
    if (args.length > def.params.length || (missing && !site.argNames)) {
      const wanted = required === def.params.length ? `${required}` : `${required} to ${def.params.length}`;
      throw this.ctx.errors.semantic(
        `'${clip(name)}' takes ${wanted} argument${def.params.length === 1 ? '' : 's'}, got ${args.length}`,
        span,
      );
    }
    if (missing) throw this.ctx.errors.semantic(`'${clip(name)}' needs its parameter '${missing.name}'`, span);
    const outer = this.at;
    this.at = span;
    const bodyScope = new Map(f.scope);
    def.params.forEach((param, i) => {
      const arg = args[i];
      bodyScope.set(param.name, arg ? this.bindArgument(name, param, i, arg, scope) : this.bindDefault(param, f));
    });
    this.active.add(def);
    this.inBody++;
    const caller = this.lexical;
    this.lexical = f.lets;
    try {
      let local: Map<string, Binding> = bodyScope;
      for (const stmt of def.lets) {
        if (stmt.value.kind === 'function') {
          local = this.defineFunction(local, stmt.name, stmt.value, f.lets);
          continue;
        }
        const value = this.walk(stmt.value, local) as Expr | Pipeline;
        local.set(
          stmt.name,
          this.bind(stmt.materialized && value.kind === 'pipeline' ? this.materialized(stmt, value) : value),
        );
      }
      return this.walk(def.result, local) as Expr | Pipeline;
    } finally {
      this.lexical = caller;
      this.inBody--;
      this.active.delete(def);
      this.at = outer;
    }
  }

  /** The arguments in parameter order: `name = value` ones moved to their parameter's place. */
  private positional(fn: string, def: FunctionDef, site: CallSite): readonly (Expr | undefined)[] {
    if (!site.argNames) return site.args;
    const out: (Expr | undefined)[] = [];
    site.args.forEach((arg, i) => {
      const name = site.argNames![i];
      const at = name === undefined ? i : def.params.findIndex((p) => p.name === name);
      if (at < 0) throw this.ctx.errors.semantic(`'${clip(fn)}' has no parameter '${clip(name!)}'`, arg.span);
      if (out[at] !== undefined)
        throw this.ctx.errors.semantic(`parameter '${def.params[at]?.name ?? at}' is given twice`, arg.span);
      out[at] = arg;
    });
    return out;
  }

  private bindArgument(fn: string, param: FunctionParam, i: number, arg: Expr, scope: Scope): Binding {
    const value = this.walk(arg, scope) as Expr;
    if (typeof param.type !== 'string') {
      const table: Pipeline | undefined =
        value.kind === 'tabular'
          ? value.pipeline
          : value.kind === 'name'
            ? {
                kind: 'pipeline',
                source: { kind: 'table', name: value.name, span: value.span },
                operators: [],
                span: value.span,
              }
            : undefined;
      if (!table)
        throw this.ctx.errors.semantic(`argument ${i + 1} of '${clip(fn)}' (${param.name}) must be a table`, arg.span);
      return this.bind(this.withDeclaredColumns(fn, param.name, param.type.columns, table, arg.span));
    }
    if (value.kind === 'tabular')
      throw this.ctx.errors.semantic(
        `argument ${i + 1} of '${clip(fn)}' (${param.name}) must be a ${param.type} value, not a table`,
        arg.span,
      );
    return this.bind(this.typed(fn, param, i, value));
  }

  /**
   * A tabular argument followed by the check of the columns its parameter declares (the analyzer
   * refuses it at the argument without them, analyze-udf-columns.ts); `(T:(*))` declares none.
   */
  private withDeclaredColumns(
    fn: string,
    parameter: string,
    columns: readonly ColumnDecl[],
    table: Pipeline,
    span: Span,
  ): Pipeline {
    if (columns.length === 0) return table;
    const check: Operator = { kind: 'requireColumns', columns, function: fn, parameter, span };
    return { ...table, operators: [...table.operators, check] };
  }

  /** A default, read where the function is defined. */
  private bindDefault(param: FunctionParam, f: Binding & { kind: 'function' }): Binding {
    const caller = this.lexical;
    this.lexical = f.lets;
    try {
      return this.bind(this.walk(param.default!, f.scope) as Expr);
    } finally {
      this.lexical = caller;
    }
  }

  /**
   * An argument as the parameter's type: a literal of another type is refused at the argument; a
   * number for a real parameter becomes real, so `x / 2` in the body divides as Kusto does.
   */
  private typed(fn: string, param: FunctionParam, i: number, value: Expr): Expr {
    const wanted = typeNamed(param.type as string, true) ?? param.type;
    const literal = value.kind === 'unary' ? value.operand : value;
    if (literal.kind === 'literal' && literal.value !== null && wanted !== 'dynamic') {
      const got = literal.type;
      const numeric = (t: string): boolean => t === 'int' || t === 'long' || t === 'real' || t === 'decimal';
      const fits =
        got === wanted ||
        (numeric(got) && numeric(wanted as string) && !(got === 'real' && wanted !== 'real' && wanted !== 'decimal'));
      if (!fits)
        throw this.ctx.errors.semantic(
          `argument ${i + 1} of '${clip(fn)}' (${param.name}) must be ${wanted}, got ${got}`,
          value.span,
        );
    }
    if (wanted === 'real' && !(literal.kind === 'literal' && literal.type === 'real')) {
      // An integer literal becomes a real literal, not todouble(literal): it stays a constant where
      // the body needs one (percentiles(x, p), bin sizes; the invoke operator docs' clipped_average
      // called with 5 and 99).
      if (literal.kind === 'literal' && (literal.type === 'int' || literal.type === 'long')) {
        const real: Expr = { ...literal, type: 'real', value: Number(literal.value) };
        return value.kind === 'unary' ? { ...value, operand: real } : real;
      }
      return { kind: 'call', name: 'todouble', nameSpan: value.span, args: [value], span: value.span };
    }
    return value;
  }

  private bind(value: Expr | Pipeline): Binding {
    const size = this.treeSize(value);
    if (value.kind === 'pipeline') return { kind: 'tabular', pipeline: value, size };
    const rowName = this.rowNameOf(value);
    return {
      kind: 'scalar',
      expr: value,
      size,
      depth: this.tabularDepth,
      ...(rowName ? { rowName } : {}),
    };
  }

  private nested<T>(walk: () => T): T {
    this.tabularDepth++;
    try {
      return walk();
    } finally {
      this.tabularDepth--;
    }
  }

  /**
   * A scalar parameter (or a body's let) used inside a tabular expression of the body that the
   * binding is outside of, where a row is in scope: the row's column of that name wins, else the
   * value (Kusto.Language binds `let f = (a:string) { datatable(a:long)[1] | extend b = a }` to the
   * column). So the value becomes a let of its own, read through the name (Expr orLet) as the
   * analyzer reads a query's lets: a column first, and a constant where the operator needs one
   * (take n, bin sizes, percentiles). Its value must not read the calling row: substituted there,
   * a column name would be read as a column of the inner table (`toscalar(T | where x == x_)`
   * called as `f(x)` compared T's x with itself). Kusto refuses such a call ("can't use 'x' as it is
   * defined outside its row-context scope", toscalar page); so does this, at the argument's column.
   */
  private inRowContext(b: Binding & { kind: 'scalar' }, use: Expr & { kind: 'name' }): Expr {
    if (this.tabularDepth <= b.depth) return b.expr;
    if (b.rowName)
      throw this.ctx.errors.semantic(
        `can't use '${clip(b.rowName.name)}' inside a tabular expression of a function body (toscalar(), in (T)): it is defined outside that expression's row context; pass a constant or a let value`,
        b.rowName.span,
      );
    return { kind: 'name', name: use.name, span: use.span, orLet: this.hoistedName(b) };
  }

  /**
   * The let written for a binding's value, put before the statement being expanded (one per
   * binding). Its NUL-led name is no column's, so a value naming a query's let
   * (`f(DeviceId)` for `declare query_parameters(DeviceId:string)`) keeps reading that let.
   */
  private hoistedName(b: Binding & { kind: 'scalar' }): string {
    let name = this.hoistedNames.get(b);
    if (name === undefined) {
      name = `\u0000udf_arg_${this.hoistedCount++}`;
      this.hoistedNames.set(b, name);
      // A let of the query: passed on to another function, it is read as one, not as a column.
      this.letNames.add(name);
      const span = b.expr.span;
      this.hoisted.push({ kind: 'let', name, nameSpan: span, value: b.expr, span });
    }
    return name;
  }

  /** The first name in a value that is not a let of the query (so a column), if any. */
  private rowNameOf(node: unknown): (Expr & { kind: 'name' }) | undefined {
    if (typeof node !== 'object' || node === null) return undefined;
    const rec = node as Record<string, unknown>;
    // A tabular expression inside the value reads its own rows, not the calling one.
    if (rec['kind'] === 'tabular') return undefined;
    // A name read through a let (orLet) is that let's value where no column of its name is in scope.
    if (rec['kind'] === 'name' && typeof rec['name'] === 'string' && !this.letNames.has(rec['name']) && !rec['orLet'])
      return node as Expr & { kind: 'name' };
    for (const [key, v] of Object.entries(rec)) {
      if (SKIPPED_KEYS.has(key)) continue;
      const found = this.rowNameOf(v);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * A body's `let T = materialize(...)` as a materialized let of the query (one per expansion), put
   * before the statement being expanded: substituted at each use, it was computed at each (the
   * materialize page: every use reads one evaluation). The pipeline that reads it.
   */
  private materialized(stmt: LetStatement, value: Pipeline): Pipeline {
    const name = `\u0000udf_let_${this.hoistedCount++}`;
    this.letNames.add(name);
    this.hoisted.push({ ...stmt, name, value, materialized: true });
    const span = stmt.nameSpan;
    return { kind: 'pipeline', source: { kind: 'table', name, span }, operators: [], span };
  }

  /** A bound value at one more place: its terms count again there. */
  private use<T>(value: T, size: number): T {
    if (this.inBody > 0) this.count(size);
    return value;
  }

  private count(n: number): void {
    this.terms += n;
    const max = this.ctx.limits.maxQueryTerms;
    if (this.terms > max)
      this.ctx.exceeded(
        'QUERY_TOO_MANY_TERMS',
        `function calls that expand to more than ${max.toLocaleString('en-US')} terms`,
        max,
        this.at,
      );
  }

  /** Nodes of a value as a tree (a shared sub-tree once per place), memoized so it costs one pass. */
  private treeSize(node: unknown): number {
    if (typeof node !== 'object' || node === null) return 0;
    const known = this.sizes.get(node);
    if (known !== undefined) return known;
    let n = !Array.isArray(node) && typeof (node as { kind?: unknown }).kind === 'string' ? 1 : 0;
    for (const [key, v] of Object.entries(node)) if (!SKIPPED_KEYS.has(key)) n += this.treeSize(v);
    this.sizes.set(node, n);
    return n;
  }
}

/** The scope without some names (they name something else where they are read). */
function without(scope: Scope, names: readonly string[]): Scope {
  if (!names.some((n) => scope.has(n))) return scope;
  const out = new Map(scope);
  for (const n of names) out.delete(n);
  return out;
}

function patternNames(match: GraphMatchSpec): string[] {
  return match.patterns.flatMap((p) => [...p.nodes, ...p.edges].flatMap((x) => (x.name ? [x.name.name] : [])));
}
