// The one SQL visitor: turns the relational IR into nested SELECTs for any dialect. Row order from
// sort/top is carried outward as hidden columns and re-applied at the outermost SELECT, because
// engines (Trino/Timestream) may drop an ORDER BY inside a subquery.
// Throws QueryError QUERY_TOO_LARGE when the SQL would pass limits.maxSqlLength (dialects repeat
// some arguments, so text can grow faster than the query), QUERY_TOO_MANY_TERMS when the query's
// terms in all pass limits.maxQueryTerms, and QUERY_TOO_COMPLEX past the budget.
import { isRandom } from '../analyze-random';
import type { Assigned, IrAgg, IrColumn, IrExpr, IrWindow, Rel, ScopeRestriction, SubqueryExpr } from '../ir';
import { countQueryTerms, type CompileContext, type ExpressionRecords } from '../limits';
import type { Span } from '../tokens';
import { QueryError } from '../errors';
import type { SqlDialect } from './dialect';
import { ExpressionWriter } from './expressions';
import { topNestedSql } from './top-nested';
import { makeSeriesSql } from './make-series';
import { sessionSql } from './window-session';
import { scanSql } from './scan';
import { graphComponentsSql } from './graph-components';
import { termsAggregate } from './has-terms';
import type { SerialWriter } from './serial-writer';
import { engineRegex } from '../regex-groups';
import { readsStoredTable } from '../ir-reads';

/** A materialized relation's CTE: its name, its SELECT, and the hidden columns and order its readers carry on. */
interface Cte {
  readonly name: string;
  readonly sql: string;
  readonly carried: readonly string[];
  readonly order: readonly OrderKey[];
}

interface Item {
  readonly sql: string;
  readonly ref: string;
}

interface Select {
  /**
   * The FROM's columns all pass through as `*`, before `items`: a level that only filters, sorts or
   * adds columns does not repeat its input's column list (every consumer names the columns it reads).
   */
  star: boolean;
  items: Item[];
  from: string;
  where: string[];
  groupBy: string[];
  orderBy: string[];
  limit: bigint | null;
  distinct: boolean;
}

interface OrderKey {
  readonly ref: string;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
  /** A real or decimal key, whose NaN values sort next to its nulls (orderTerm). */
  readonly real?: boolean;
}

/**
 * One ORDER BY term. Kusto sorts a real's NaN next to its nulls, between them and the numbers
 * (sort page, "Using special floating-point values"); the engines sort NaN above +inf, which is that
 * place for ascending with nulls last and descending with nulls first. For the other two the key is
 * negated and its direction flipped: the numbers keep their order and NaN (its own negation, still
 * the largest) moves to the nulls' side.
 */
function orderTerm(name: string, k: OrderKey): string {
  const flip = k.real === true && k.desc !== k.nullsFirst;
  const desc = flip ? !k.desc : k.desc;
  return `${flip ? `-${name}` : name} ${desc ? 'DESC' : 'ASC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`;
}

interface State {
  sel: Select;
  /** Visible columns, in order. */
  cols: readonly IrColumn[];
  /** Refs of hidden columns kept for ordering. */
  carried: string[];
  order: OrderKey[];
}

export interface GenerateOptions {
  readonly scope: ScopeRestriction;
  /** The outermost SELECT returns at most rowLimit + 1 rows, so the caller can report truncation. */
  readonly rowLimit: number;
  readonly ctx: CompileContext;
  /** The analyzer's records: the span of each expression, where a size limit is reported. */
  readonly records: ExpressionRecords;
  /** Relations written once as a CTE that every use reads (`materialize()` lets). */
  readonly materialized?: ReadonlySet<Rel>;
  /** Materialized relations read from tables the caller stores once per request (DuckDB only). */
  readonly stored?: StoredValues;
}

/** A table the caller stores before running the query: `sql` gives its rows, columns c0, c1, ... */
export interface StoredValue {
  readonly name: string;
  readonly sql: string;
}

export interface StoredValues {
  /** The table of each stored relation. */
  readonly names: ReadonlyMap<Rel, string>;
  /** Filled by the generator: the tables the query reads, each after those its rows read. */
  readonly written: StoredValue[];
}

export function generateSql(rel: Rel, dialect: SqlDialect, options: GenerateOptions): string {
  return new Generator(dialect, options).root(rel);
}

/**
 * The aggregations whose answer follows the order of their input rows: the lists ("If the input to
 * the summarize operator is sorted, the order of elements in the resulting array tracks that of the
 * input", make_list page). make_set promises no order; take_any and arg_max/arg_min give "a row".
 */
const ROW_ORDER_AGGREGATIONS: ReadonlySet<string> = new Set(['make_list', 'make_list_if', 'make_list_with_nulls']);

function readsRowOrder(a: IrAgg): boolean {
  return ROW_ORDER_AGGREGATIONS.has(a.fn === 'catalog' ? a.ref!.name : a.fn);
}

const SET_AGGREGATIONS: ReadonlySet<string> = new Set(['make_set', 'make_set_if']);

const isSet = (a: Assigned<IrAgg>): boolean =>
  SET_AGGREGATIONS.has(a.value.fn === 'catalog' ? a.value.ref!.name : a.value.fn);

class Generator {
  private readonly w: ExpressionWriter;
  private aliasCounter = 0;
  private hiddenCounter = 0;
  /** Characters of expression SQL written so far. */
  private written = 0;
  /** Spans of the relations being written, innermost last: where a whole-query limit is reported. */
  private readonly at: (Span | undefined)[] = [];
  /** The CTEs of materialized relations, in the order written (a later one may read an earlier one). */
  private readonly ctes = new Map<Rel, Cte>();
  /** The hidden columns and order of each stored materialized value this query reads, by its table. */
  private readonly storedOrders = new Map<string, Pick<Cte, 'carried' | 'order'>>();

  constructor(
    private readonly d: SqlDialect,
    private readonly options: GenerateOptions,
  ) {
    this.w = new ExpressionWriter(d, {
      ctx: options.ctx,
      spans: options.records.spans,
      subquery: this.subquery.bind(this),
    });
  }

  /**
   * One expression's SQL, counted against the size limit at the expression's position. The
   * analyzer counted its terms; a bare column the generator passes on counts here.
   */
  private expr(e: IrExpr): string {
    const span = this.options.records.spans.get(e);
    if (e.kind === 'col') this.countTerms(1, span);
    return this.counted(this.w.expr(e), span);
  }

  /** An aggregation of the summarize; a string one over no rows (max, min, arg_max ...) is "", never null. */
  private stringNeverNull(a: IrAgg): string {
    const sql = this.aggregate(a);
    return a.type === 'string' ? `coalesce(${sql}, '')` : sql;
  }

  private aggregate(a: IrAgg): string {
    const first = a.args[0];
    return this.counted(this.w.aggregate(a), first ? this.options.records.spans.get(first) : undefined);
  }

  private countTerms(n: number, span: Span | undefined): void {
    const { ctx, records } = this.options;
    // The position is only looked for when the limit is passed.
    if (records.queryTerms + n <= ctx.limits.maxQueryTerms) records.queryTerms += n;
    else countQueryTerms(ctx, records, n, span ?? this.position());
  }

  /** The term of a column passed through by `*` instead of written: counted as if written. */
  private passTerm(e: IrExpr): void {
    const { ctx, records } = this.options;
    if (records.queryTerms < ctx.limits.maxQueryTerms) records.queryTerms++;
    else this.countTerms(1, records.spans.get(e));
  }

  /** The innermost relation with a known span, else the whole query. */
  private position(): Span {
    for (let i = this.at.length - 1; i >= 0; i--) {
      const span = this.at[i];
      if (span) return span;
    }
    return { start: 0, end: this.options.ctx.source.length };
  }

  private counted(sql: string, span: Span | undefined): string {
    this.written += sql.length;
    this.checkSize(this.written, span);
    return sql;
  }

  private checkSize(length: number, span: Span | undefined): void {
    const { ctx } = this.options;
    if (length > ctx.limits.maxSqlLength) {
      ctx.exceeded(
        'QUERY_TOO_LARGE',
        `the SQL for this query grows past ${ctx.limits.maxSqlLength.toLocaleString('en-US')} characters`,
        ctx.limits.maxSqlLength,
        span ?? this.position(),
      );
    }
  }

  root(rel: Rel): string {
    return this.withCtes(this.rootSelect(rel));
  }

  /** The SQL with the CTEs written so far before it. */
  private withCtes(sql: string): string {
    if (this.ctes.size === 0) return sql;
    const ctes = [...this.ctes.values()].map((c) => `${c.name} AS MATERIALIZED (${c.sql})`);
    return `WITH ${ctes.join(', ')} ${sql}`;
  }

  private rootSelect(rel: Rel): string {
    const state = this.rel(rel);
    const folded = this.foldRoot(state);
    if (folded !== undefined) return folded;
    const alias = this.alias();
    const outer = this.wrap(state, alias);
    // Output aliases are the KQL names (quoted); a name with control characters keeps its private ref.
    outer.sel.star = false;
    outer.sel.items = state.cols.map((c) => ({
      sql: this.q(c.ref),
      ref: hasControlCharacter(c.name) ? c.ref : c.name,
    }));
    // ORDER BY binds a bare name to an output alias first: a KQL name spelled like another column's
    // private ref (`project _c1 = b, x = a | sort by x`) would sort by the wrong column. Such a key
    // is qualified with the input's alias.
    const shadowed = new Set(outer.sel.items.filter((i) => i.sql !== this.q(i.ref)).map((i) => i.ref));
    outer.sel.orderBy = state.order.some((k) => shadowed.has(k.ref))
      ? this.orderBy(state.order).map((key, i) => (shadowed.has(state.order[i]!.ref) ? `${alias}.${key}` : key))
      : this.orderBy(state.order);
    outer.sel.limit = BigInt(this.options.rowLimit) + 1n;
    return this.render(outer.sel);
  }

  /**
   * The output written by the last level itself instead of a SELECT around it (one subquery less to
   * write and for the engine to plan): its columns under their KQL names, the order re-applied, at
   * most rowLimit + 1 rows. Undefined when that level cannot take it: a LIMIT whose rows were picked
   * in another order, or an order key that is neither an output column nor an input column the
   * level passes unchanged and no output name shadows (ORDER BY binds a bare name to an output alias
   * first; WHERE and GROUP BY bind input columns first in DuckDB and only them in Trino).
   */
  private foldRoot(state: State): string | undefined {
    const sel = state.sel;
    const cap = BigInt(this.options.rowLimit) + 1n;
    const order = state.order;
    if (sel.limit !== null && order.length > 0 && sel.orderBy.join() !== this.orderBy(order).join()) return undefined;
    const cols = state.cols;
    const items = sel.items;
    // The items by ref, built only when one is not at its column's position or a key is carried:
    // the usual output has none of either, and a Map per compile was a tenth of its allocation.
    let byRef: Map<string, Item> | undefined;
    const out: Item[] = [];
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      const ref = hasControlCharacter(c.name) ? c.ref : c.name;
      const at = items[i];
      const item =
        at !== undefined && at.ref === c.ref
          ? at
          : items.length > 0
            ? (byRef ??= itemsByRef(items)).get(c.ref)
            : undefined;
      if (item !== undefined) out.push({ sql: item.sql, ref });
      else if (sel.star) out.push({ sql: this.q(c.ref), ref });
      else return undefined;
    }
    let orderBy = sel.orderBy;
    if (order.length > 0) {
      // Output names by column ref (the last column of a ref wins, as in a Map built from the list):
      // a search for the usual few keys, a Map for many.
      const names = order.length > 8 ? new Map(cols.map((c, i) => [c.ref, out[i]!.ref])) : undefined;
      orderBy = [];
      for (const k of order) {
        const name = names ? names.get(k.ref) : outputNameOf(cols, out, k.ref);
        if (name === undefined) {
          // A carried key: an input column passed unchanged, not hidden by an output alias.
          const item = items.length > 0 ? (byRef ??= itemsByRef(items)).get(k.ref) : undefined;
          if ((item !== undefined && item.sql !== this.q(k.ref)) || out.some((o) => o.ref === k.ref)) return undefined;
          if (item === undefined && !sel.star) return undefined;
        }
        orderBy.push(orderTerm(this.q(name ?? k.ref), k));
      }
    }
    this.countTerms(cols.length, undefined);
    sel.star = false;
    sel.items = out;
    sel.orderBy = orderBy;
    sel.limit = sel.limit !== null && sel.limit < cap ? sel.limit : cap;
    return this.render(sel);
  }

  /**
   * toscalar(T): `(SELECT first column ... LIMIT 1)` in T's order; the list of `x in (T)`: a SELECT
   * of the first column's non-null values (so that !in is not null when T holds a null).
   */
  private subquery(e: SubqueryExpr): string {
    const state = this.rel(e.rel);
    const outer = this.wrap(state);
    const first = this.q(state.cols[0]!.ref);
    const value = e.lower ? `lower(${first})` : first;
    outer.sel.star = false;
    outer.sel.items = [{ sql: value, ref: '_v' }];
    if (e.mode === 'scalar') {
      outer.sel.orderBy = this.orderBy(state.order);
      outer.sel.limit = 1n;
      return `(${this.render(outer.sel)})`;
    }
    outer.sel.where.push(`${first} IS NOT NULL`);
    if (e.mode === 'terms') {
      outer.sel.items = [{ sql: termsAggregate(this.d, first), ref: '_v' }];
      return `(${this.render(outer.sel)})`;
    }
    return this.render(outer.sel);
  }

  private q(name: string): string {
    return this.d.quoteIdent(name);
  }

  private rel(rel: Rel): State {
    this.at.push(this.options.records.spans.get(rel));
    try {
      this.options.ctx.budget.tick(this.position().start);
      if (this.options.materialized?.has(rel)) return this.materializedRel(rel);
      return this.relation(rel);
    } catch (e) {
      throw this.servedPlugin(rel, e);
    } finally {
      this.at.pop();
    }
  }

  /** An engine's refusal inside a plugin's rewrite (at the plugin) names the plugin, not only the function it needs. */
  private servedPlugin(rel: Rel, e: unknown): unknown {
    const origin = this.options.records.origins.get(rel);
    const at = this.position();
    if (!origin || !(e instanceof QueryError) || e.code !== 'QUERY_UNSUPPORTED') return e;
    if (e.span.start < at.start || e.span.end > at.end || e.detail.startsWith(origin)) return e;
    return new QueryError('QUERY_UNSUPPORTED', `${origin}: ${e.detail}`, at, this.options.ctx.source);
  }

  private relation(rel: Rel): State {
    switch (rel.kind) {
      case 'scan':
        return this.fromSubquery(this.d.scan(rel.table, this.options.scope), rel.columns);
      case 'values': {
        if (rel.rows.length === 0) {
          const s = this.fromSubquery(
            `SELECT ${rel.columns.map((c) => `${this.d.nullOf(c.type)} AS ${this.q(c.ref)}`).join(', ')}`,
            rel.columns,
          );
          s.sel.where.push('FALSE');
          return s;
        }
        // The first row's casts fix the column types; later rows write plain numbers and strings,
        // which the engine coerces to them: a 10,000-row datatable's SQL is a third as long and
        // parses that much faster (bench/query-duckdb.bench.ts, the join case).
        const rows = rel.rows
          .map(
            (r, i) =>
              `(${r.map((v) => (i > 0 ? this.plainValue(v) : undefined) ?? this.castValue(v.type, this.expr(v))).join(', ')})`,
          )
          .join(', ');
        const alias = this.alias();
        return this.state(
          `(VALUES ${rows}) AS ${alias}(${rel.columns.map((c) => this.q(c.ref)).join(', ')})`,
          rel.columns,
        );
      }
      case 'print':
        return this.fromSubquery(
          `SELECT ${rel.exprs.map((e, i) => `${this.expr(e)} AS ${this.q(rel.columns[i]!.ref)}`).join(', ')}`,
          rel.columns,
        );
      case 'range': {
        const c = rel.columns[0]!;
        return this.state(
          `${this.d.series(this.expr(rel.from), this.expr(rel.to), this.expr(rel.step), c.type, c.ref)} AS ${this.alias()}`,
          rel.columns,
        );
      }
      case 'filter': {
        const s = this.pureOrWrap(this.rel(rel.input));
        s.sel.where.push(this.expr(rel.predicate));
        return s;
      }
      case 'project': {
        const s = this.pureOrWrap(this.rel(rel.input));
        const visible = new Set(rel.columns.map((c) => c.ref));
        const carried = s.order.map((o) => o.ref).filter((r) => !visible.has(r));
        if (s.sel.star) {
          // A column kept under its own ref already comes through `*` (dropped ones may too: every
          // consumer names what it reads); only new and renamed columns are written. Refs of new
          // columns are fresh, so none repeats a name of the FROM.
          for (const i of rel.items) {
            if (i.value.kind === 'col' && i.value.ref === i.column.ref) this.passTerm(i.value);
            else s.sel.items.push({ sql: this.expr(i.value), ref: i.column.ref });
          }
        } else {
          s.sel.items = [
            ...rel.items.map((i) => ({ sql: this.expr(i.value), ref: i.column.ref })),
            ...carried.map((r) => ({ sql: this.q(r), ref: r })),
          ];
        }
        s.cols = rel.columns;
        s.carried = carried;
        return s;
      }
      case 'sort': {
        let s = this.pureOrWrap(this.rel(rel.input));
        // Rows the query writes itself keep their order where the keys tie (a stable sort), as the
        // pages print them (row_rank_min's LH, UA, EL of 3 departures each); the engine's sort is not
        // stable. A stored table's ties are left in any order (no numbering of its rows).
        const tie = readsStoredTable(rel.input) ? undefined : `_r${++this.hiddenCounter}`;
        if (tie) {
          s.sel.items = [...s.sel.items, { sql: this.rowNumber(s), ref: tie }];
          s.carried = [...s.carried, tie];
          s = this.wrap(s);
        }
        const keys: OrderKey[] = rel.keys.map((k) => {
          const real = k.expr.type === 'real' || k.expr.type === 'decimal';
          if (k.expr.kind === 'col') return { ref: k.expr.ref, desc: k.desc, nullsFirst: k.nullsFirst, real };
          this.hiddenCounter++;
          const ref = `_s${this.hiddenCounter}`;
          s.sel.items.push({ sql: this.expr(k.expr), ref });
          s.carried.push(ref);
          return { ref, desc: k.desc, nullsFirst: k.nullsFirst, real };
        });
        if (tie) keys.push({ ref: tie, desc: false, nullsFirst: false });
        s.order = keys;
        s.sel.orderBy = this.orderBy(keys);
        return s;
      }
      case 'limit': {
        const s = this.rel(rel.input);
        if (s.sel.limit !== null) {
          s.sel.limit = s.sel.limit < rel.count ? s.sel.limit : rel.count;
          return s;
        }
        if (s.sel.orderBy.length === 0 && s.order.length > 0) s.sel.orderBy = this.orderBy(s.order);
        s.sel.limit = rel.count;
        return s;
      }
      case 'aggregate': {
        const input = this.rel(rel.input);
        // Serialized rows whose order is only in their keys (a scan's or a session's walk, a numbering)
        // are sorted here, so make_list and the like read them in that order, as after a sort; only
        // then: the sort is a cost no other aggregation needs.
        if (input.order.length > 0 && input.sel.orderBy.length === 0 && rel.aggs.some((a) => readsRowOrder(a.value)))
          input.sel.orderBy = this.orderBy(input.order);
        let s = this.pureOrWrap(input);
        const inline = (rel.keys.length > 0 || rel.aggs.some(isSet)) && !readsStoredTable(rel.input);
        // Groups of rows the query writes itself come out in the order of their first row, as Kusto
        // gives them (the make_set page's groups, the arg_max page's fruits): the rows are numbered
        // in their order and each group carries its first number as its order.
        const numbered = inline && rel.keys.length > 0 ? `_r${++this.hiddenCounter}` : undefined;
        const computed = rel.keys.filter((k) => !(k.value.kind === 'col' && k.value.ref === k.column.ref));
        if (computed.length > 0 || numbered) {
          s.sel.items = [
            ...s.sel.items,
            ...computed.map((k) => ({ sql: this.expr(k.value), ref: k.column.ref })),
            ...(numbered ? [{ sql: this.rowNumber(s), ref: numbered }] : []),
          ];
          s = this.wrap(s);
        }
        const sel = s.sel;
        sel.star = false;
        // make_set keeps the order of first appearance where the rows have one (the page's [1,5,7]).
        this.w.setsInOrder = inline;
        const first = numbered ? `_f${++this.hiddenCounter}` : undefined;
        sel.items = [
          ...rel.keys.map((k) => ({ sql: this.q(k.column.ref), ref: k.column.ref })),
          ...rel.aggs.map((a) => ({ sql: this.stringNeverNull(a.value), ref: a.column.ref })),
          ...(first ? [{ sql: `min(${this.q(numbered!)})`, ref: first }] : []),
        ];
        this.w.setsInOrder = false;
        sel.groupBy = rel.keys.map((k) => this.q(k.column.ref));
        if (!first) return { sel, cols: rel.columns, carried: [], order: [] };
        const order: OrderKey[] = [{ ref: first, desc: false, nullsFirst: false }];
        return { sel, cols: rel.columns, carried: [first], order };
      }
      case 'distinct': {
        if (!readsStoredTable(rel.input)) return this.distinctRowsInOrder(rel.input, rel.columns);
        const s = this.wrap(this.rel(rel.input));
        s.sel.star = false;
        s.sel.items = rel.columns.map((c) => ({ sql: this.q(c.ref), ref: c.ref }));
        s.sel.distinct = true;
        return { sel: s.sel, cols: rel.columns, carried: [], order: [] };
      }
      case 'join':
        return this.join(rel);
      case 'window':
        return this.window(rel);
      case 'session':
        return this.session(rel);
      case 'sequenceScan':
        return this.sequenceScan(rel);
      case 'graphComponents':
        return this.graphComponents(rel);
      case 'mvExpand':
        return this.mvExpand(rel);
      case 'topNested': {
        const input = this.wrap(this.rel(rel.input));
        // Rows the query writes are numbered in their order: tied values rank by their first row.
        const numbered = readsStoredTable(rel.input) ? undefined : `_r${++this.hiddenCounter}`;
        if (numbered) input.sel.items.push({ sql: this.rowNumber(input), ref: numbered });
        const sql = topNestedSql(
          {
            q: (n) => this.q(n),
            alias: () => this.alias(),
            expr: (e) => this.expr(e),
            aggregate: (a) => this.aggregate(a),
            cast: (t, x) => this.castValue(t, x),
            nullOf: (t) => this.d.nullOf(t),
            isNan: (x) => this.d.isNan(x),
            ...(numbered ? { numbered } : {}),
          },
          this.render(input.sel),
          rel.levels,
        );
        this.checkSize(sql.length, undefined);
        return this.fromSubquery(sql, rel.columns);
      }
      case 'makeSeries':
        return this.makeSeries(rel);
      case 'sample': {
        // Rows picked at random (sample operator docs): both engines have random().
        const s = this.wrap(this.rel(rel.input));
        s.sel.orderBy = ['random()'];
        s.sel.limit = rel.count;
        return { sel: s.sel, cols: s.cols, carried: [], order: [] };
      }
      case 'parse': {
        // The source once, one SELECT below, then one regexp_extract per capture group.
        let s = this.pureOrWrap(this.rel(rel.input));
        const source = `_p${++this.hiddenCounter}`;
        s.sel.items.push({ sql: this.expr(rel.source), ref: source });
        s.carried.push(source);
        s = this.wrap(s);
        // kind=regex text may name groups (?<name>...): spelled as this engine reads them.
        const pattern = this.d.string(engineRegex(rel.pattern, this.d.name));
        const captured = new Map(
          rel.captures.map((c) => [c.column.ref, `regexp_extract(${this.q(source)}, ${pattern}, ${c.value})`]),
        );
        const visible = new Set(rel.columns.map((c) => c.ref));
        // A sort key the parse replaces (`sort by s | parse s with s:long`) is carried, as project
        // carries it: the rows keep the sort's order.
        const carried = [...new Set([...s.carried.filter((r) => r !== source), ...s.order.map((o) => o.ref)])].filter(
          (r) => !visible.has(r),
        );
        s.sel.star = false;
        s.sel.items = [
          ...rel.columns.map((c) => ({ sql: captured.get(c.ref) ?? this.q(c.ref), ref: c.ref })),
          ...carried.map((r) => ({ sql: this.q(r), ref: r })),
        ];
        s.cols = rel.columns;
        s.carried = carried;
        this.countTerms(rel.captures.length, undefined);
        return s;
      }
      case 'union': {
        const legs = rel.legs.map((leg) => {
          const s = this.rel(leg.rel);
          const items = leg.values.map(
            (v, i) =>
              `${v.kind === 'col' ? this.q(v.ref) : this.castValue(v.type, this.expr(v))} AS ${this.q(rel.columns[i]!.ref)}`,
          );
          this.countTerms(items.length, undefined);
          return `SELECT ${items.join(', ')} FROM (${this.render(s.sel)}) AS ${this.alias()}`;
        });
        return this.fromSubquery(legs.join(' UNION ALL '), rel.columns);
      }
    }
  }

  /**
   * Joins read both inputs as subqueries. Semi and anti joins are EXISTS tests (one side's columns
   * only); innerunique keeps one left row per key first (join-innerunique docs), by row_number().
   */
  private join(rel: Rel & { kind: 'join' }): State {
    const left = this.rel(rel.left);
    const right = this.rel(rel.right);
    const la = this.alias();
    const ra = this.alias();
    // Rows the query writes itself (no stored table on either side) come out in the left side's
    // order, each left row's matches in the right side's order (the join pages' leftouter and inner
    // examples print them so), and innerunique keeps each key's first left row: both sides are numbered.
    const inline = !readsStoredTable(rel.left) && !readsStoredTable(rel.right);
    const ln = inline ? `_l${++this.hiddenCounter}` : undefined;
    const rn = inline ? `_r${++this.hiddenCounter}` : undefined;
    const numbered = (s: State, ref: string | undefined): string => {
      const sql = this.render(s.sel);
      if (!ref) return sql;
      return `SELECT *, ${this.rowNumber(s)} AS ${this.q(ref)} FROM (${sql}) AS ${this.alias()}`;
    };
    let leftSql = numbered(left, ln);
    if (rel.joinKind === 'innerunique') {
      const refs = [...left.cols.map((c) => c.ref), ...left.carried, ...(ln ? [ln] : [])]
        .map((r) => this.q(r))
        .join(', ');
      const keys = rel.on.map((k) => this.q(k.left)).join(', ');
      const u = this.q(`_u${++this.hiddenCounter}`);
      const first = ln ? ` ORDER BY ${this.q(ln)}` : '';
      leftSql = `SELECT ${refs} FROM (SELECT ${refs}, row_number() OVER (PARTITION BY ${keys}${first}) AS ${u} FROM (${leftSql}) AS ${this.alias()}) AS ${this.alias()} WHERE ${u} = 1`;
    }
    const rightSql = numbered(right, rn);
    const cond = rel.on.map((k) => `${la}.${this.q(k.left)} = ${ra}.${this.q(k.right)}`).join(' AND ');
    // An outer join's side without a match gives null, but a Kusto string is never null: "" (as a
    // union's missing column), so isempty(), isnull() and comparisons read it as Kusto does.
    const padded = { leftouter: ['right'], rightouter: ['left'], fullouter: ['left', 'right'] }[rel.joinKind as string];
    const items = rel.output.map((o) => {
      const sql = `${o.side === 'left' ? la : ra}.${this.q(o.from)}`;
      const empty = o.column.type === 'string' && padded?.includes(o.side);
      return { sql: empty ? `coalesce(${sql}, '')` : sql, ref: o.column.ref };
    });
    this.countTerms(items.length + rel.on.length, undefined);
    const sel: Select = {
      star: false,
      items,
      from: '',
      where: [],
      groupBy: [],
      orderBy: [],
      limit: null,
      distinct: false,
    };
    switch (rel.joinKind) {
      case 'leftsemi':
      case 'leftanti':
        sel.from = `(${leftSql}) AS ${la}`;
        sel.where.push(
          `${rel.joinKind === 'leftanti' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM (${rightSql}) AS ${ra} WHERE ${cond})`,
        );
        break;
      case 'rightsemi':
      case 'rightanti':
        sel.from = `(${rightSql}) AS ${ra}`;
        sel.where.push(
          `${rel.joinKind === 'rightanti' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM (${leftSql}) AS ${la} WHERE ${cond})`,
        );
        break;
      default: {
        const how = { innerunique: 'INNER', inner: 'INNER', leftouter: 'LEFT', rightouter: 'RIGHT', fullouter: 'FULL' }[
          rel.joinKind
        ];
        sel.from = `(${leftSql}) AS ${la} ${how} JOIN (${rightSql}) AS ${ra} ON ${cond}`;
      }
    }
    this.checkSize(sel.from.length, undefined);
    if (!ln || !rn) return { sel, cols: rel.columns, carried: [], order: [] };
    const sides = rel.joinKind === 'rightsemi' || rel.joinKind === 'rightanti' ? [[ra, rn]] : [[la, ln]];
    if (!['leftsemi', 'leftanti', 'rightsemi', 'rightanti'].includes(rel.joinKind)) sides.push([ra, rn]);
    const order: OrderKey[] = [];
    for (const [alias, ref] of sides) {
      sel.items.push({ sql: `${alias!}.${this.q(ref!)}`, ref: ref! });
      order.push({ ref: ref!, desc: false, nullsFirst: false });
    }
    return { sel, cols: rel.columns, carried: order.map((o) => o.ref), order };
  }

  /**
   * mv-expand in three SELECTs: the expanded values; one row per index (unnest of a range as long as
   * the longest value, capped by limit); the elements at that index. Refused on engines without it.
   */
  private mvExpand(rel: Rel & { kind: 'mvExpand' }): State {
    const { expandCount, expandElement } = this.d;
    if (!expandCount || !expandElement)
      throw this.options.ctx.errors.unsupported(
        `${rel.origin ?? 'mv-expand'} is not supported on the ${this.d.name} engine`,
        this.position(),
      );
    let s = this.pureOrWrap(this.rel(rel.input));
    const values = rel.items.map((item) => {
      const ref = `_v${++this.hiddenCounter}`;
      s.sel.items.push({ sql: this.expr(item.value), ref });
      s.carried.push(ref);
      return ref;
    });
    s = this.wrap(s);
    const counts = values.map((v) => expandCount.call(this.d, this.q(v)));
    let count = counts.length === 1 ? counts[0]! : `greatest(${counts.join(', ')})`;
    if (rel.limit !== undefined) count = `least(${count}, ${rel.limit.toString()})`;
    const index = `_i${++this.hiddenCounter}`;
    s.sel.items.push({ sql: `unnest(range(CAST(${count} AS BIGINT)))`, ref: index });
    s.carried.push(index);
    s = this.wrap(s);
    const element = new Map(
      rel.items.map((item, i) => [
        item.column.ref,
        expandElement.call(this.d, this.q(values[i]!), this.q(index), rel.bagKind),
      ]),
    );
    s.sel.star = false;
    s.sel.items = rel.columns.map((c) => ({
      sql: c === rel.index ? this.q(index) : (element.get(c.ref) ?? this.q(c.ref)),
      ref: c.ref,
    }));
    this.countTerms(s.sel.items.length, undefined);
    return { sel: s.sel, cols: rel.columns, carried: [], order: [] };
  }

  /** make-series (sql/make-series.ts); refused on engines without ordered string_agg over a generated grid. */
  private makeSeries(rel: Rel & { kind: 'makeSeries' }): State {
    if (this.d.name !== 'duckdb')
      throw this.options.ctx.errors.unsupported(
        `make-series is not supported on the ${this.d.name} engine`,
        this.position(),
      );
    // Series of rows the query writes itself come in the order of their first row, as a summarize's
    // groups do (the make-series page's a before b); a stored table's in the engine's order.
    const first = rel.series.keys.length > 0 && !readsStoredTable(rel.input) ? `_f${++this.hiddenCounter}` : undefined;
    const refs = {
      keys: rel.series.keys.map((k) => k.column.ref),
      aggs: rel.series.aggs.map((a) => a.column.ref),
      axis: rel.series.axis.column.ref,
      ...(first ? { first } : {}),
    };
    const sql = makeSeriesSql(
      {
        d: this.d,
        q: (name) => this.q(name),
        hidden: (prefix) => `${prefix}${++this.hiddenCounter}`,
        expr: (e) => this.expr(e),
        aggregate: (a) => this.aggregate(a),
        json: (type, sql) => this.w.jsonOf({ kind: 'col', ref: '', type }, sql),
        input: (items, numbered) => {
          const s = this.pureOrWrap(this.rel(rel.input));
          s.sel.items.push(...items);
          if (numbered) s.sel.items.push({ sql: this.rowNumber(s), ref: numbered });
          return this.render(s.sel);
        },
      },
      rel.series,
      refs,
    );
    this.countTerms(rel.columns.length + rel.series.keys.length * 2, undefined);
    const out = this.fromSubquery(sql, rel.columns);
    if (!first) return out;
    out.carried = [first];
    out.order = [{ ref: first, desc: false, nullsFirst: false }];
    return out;
  }

  /**
   * Window functions over the input's order (sort keys carried from sort/top); input in no defined
   * order (serialize of a datatable, range) is numbered as it comes first. A restart argument splits
   * the rows into groups at each row where it is true: a running count of those rows, one SELECT below.
   */
  private window(rel: Rel & { kind: 'window' }): State {
    let s = this.serialOrder(this.rel(rel.input));
    const order = `ORDER BY ${this.orderBy(s.order).join(', ')}`;
    const running = `${order} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`;
    // A sub-table's key (partition, mv-apply) is a window of its own; so is each restart's group within it.
    const within = (w: IrWindow): string => (w.group ? `PARTITION BY ${this.expr(w.group)} ` : '');
    const groups = new Map<IrWindow, string>();
    const restarting = rel.items.filter((i) => i.value.restart !== undefined);
    if (restarting.length > 0) {
      s = this.pureOrWrap(s);
      for (const item of restarting) {
        const ref = `_g${++this.hiddenCounter}`;
        s.sel.items.push({
          sql: `sum(CASE WHEN ${this.expr(item.value.restart!)} THEN 1 ELSE 0 END) OVER (${within(item.value)}${running})`,
          ref,
        });
        s.carried.push(ref);
        groups.set(item.value, ref);
      }
      s = this.wrap(s);
    } else s = this.pureOrWrap(s);
    for (const item of rel.items) {
      const group = groups.get(item.value);
      const keys = [...(item.value.group ? [this.expr(item.value.group)] : []), ...(group ? [this.q(group)] : [])];
      const over = (frame: string): string =>
        `OVER (${keys.length > 0 ? `PARTITION BY ${keys.join(', ')} ` : ''}${frame})`;
      s.sel.items.push({ sql: this.windowCall(item.value, over, order, running), ref: item.column.ref });
    }
    s.cols = rel.columns;
    s.carried = s.carried.filter((r) => ![...groups.values()].includes(r));
    return s;
  }

  /** The input with an order: a row number in arrival order when it has none (serialize of a datatable, range). */
  private serialOrder(input: State): State {
    if (input.order.length > 0) return input;
    const s = this.pureOrWrap(input);
    const ref = `_s${++this.hiddenCounter}`;
    s.sel.items.push({ sql: 'row_number() OVER ()', ref });
    s.carried.push(ref);
    s.order = [{ ref, desc: false, nullsFirst: false }];
    return this.wrap(s);
  }

  /** row_window_session (sql/window-session.ts): the input's columns and order keys pass through. */
  private session(rel: Rel & { kind: 'session' }): State {
    return this.serialWalk('row_window_session', rel.input, rel.columns, (w) => sessionSql(w, rel.session));
  }

  /** graph-mark-components (sql/graph-components.ts): a node id and its component per row. */
  private graphComponents(rel: Rel & { kind: 'graphComponents' }): State {
    const s = this.rel(rel.input);
    const [from, to] = s.cols;
    const [node, component] = rel.columns;
    const sql = graphComponentsSql(
      {
        q: (n) => this.q(n),
        hidden: (prefix) => `${prefix}${++this.hiddenCounter}`,
        input: this.render(s.sel),
        from: from!.ref,
        to: to!.ref,
        node: node!.ref,
        component: component!.ref,
      },
      rel.strong,
    );
    this.checkSize(sql.length, undefined);
    return this.fromSubquery(sql, rel.columns);
  }

  /** scan (sql/scan.ts): the input's columns and order keys pass through, then the declared columns. */
  private sequenceScan(rel: Rel & { kind: 'sequenceScan' }): State {
    return this.serialWalk('scan', rel.input, rel.columns, (w) => scanSql(w, rel.scan));
  }

  /**
   * An operator whose SQL walks the input in its serialized order with a recursive CTE (DuckDB
   * only): `write` gets the input and the generator's writers; carried refs and the order pass on.
   */
  private serialWalk(
    construct: string,
    input: Rel,
    columns: readonly IrColumn[],
    write: (w: SerialWriter) => string,
  ): State {
    if (this.d.name !== 'duckdb')
      throw this.options.ctx.errors.unsupported(
        `${construct} is not supported on the ${this.d.name} engine`,
        this.position(),
      );
    const s = this.serialOrder(this.rel(input));
    const sql = this.withoutLongGuards(write)({
      d: this.d,
      q: (n) => this.q(n),
      hidden: (prefix) => `${prefix}${++this.hiddenCounter}`,
      expr: (e) => this.expr(e),
      peek: (e) => this.w.expr(e),
      refuse: (detail, e) =>
        this.options.ctx.errors.unsupported(detail, this.options.records.spans.get(e) ?? this.position()),
      input: this.render(s.sel),
      refs: [...s.cols.map((c) => c.ref), ...s.carried],
      orderBy: this.orderBy(s.order).join(', '),
    });
    this.checkSize(sql.length, undefined);
    const out = this.fromSubquery(sql, columns);
    out.sel.items.push(...s.carried.map((r) => ({ sql: this.q(r), ref: r })));
    out.carried = [...s.carried];
    out.order = [...s.order];
    return out;
  }

  /**
   * A row walk's writer with long arithmetic wrapped only: the walks repeat each step's expressions
   * dozens of times over few rows, where a range-tested BIGINT form (sql/long-wrap.ts) costs more
   * planning than it saves.
   */
  private withoutLongGuards(write: (w: SerialWriter) => string): (w: SerialWriter) => string {
    return (w) => {
      this.w.longs.guardsColumns = false;
      try {
        return write(w);
      } finally {
        this.w.longs.guardsColumns = true;
      }
    };
  }

  private windowCall(w: IrWindow, over: (frame: string) => string, order: string, running: string): string {
    switch (w.fn) {
      case 'row_number':
        return `(row_number() ${over(order)}${w.start !== undefined && w.start !== 1n ? ` + ${this.d.long(w.start - 1n)}` : ''})`;
      case 'prev':
      case 'next': {
        const fallback = w.fallback ? `, ${this.castValue(w.type, this.expr(w.fallback))}` : '';
        const call = `${w.fn === 'prev' ? 'lag' : 'lead'}(${this.expr(w.value!)}, ${(w.offset ?? 1n).toString()}${fallback}) ${over(order)}`;
        // A string is never null (past the edge it is "", which isempty() and == "" see as such).
        return w.type === 'string' ? `coalesce(${call}, '')` : call;
      }
      case 'row_cumsum':
        // The sum starts at 0 and a null term does not change it (row_cumsum page, as Microsoft's
        // earlier copy says: "Null Term values do not affect the sum"): 0 before the first number.
        return this.castValue(w.type, `coalesce(sum(${this.expr(w.value!)}) ${over(running)}, 0)`);
    }
  }

  /** A non-null long, int, real or string literal as SQL without a cast, else undefined. */
  private plainValue(v: IrExpr): string | undefined {
    if (v.kind !== 'lit' || v.value === null) return undefined;
    if ((v.type === 'long' || v.type === 'int') && typeof v.value === 'bigint')
      return this.counted(v.value.toString(), undefined);
    if (v.type === 'string' && typeof v.value === 'string') return this.counted(this.d.string(v.value), undefined);
    if (v.type === 'real' && typeof v.value === 'number' && Number.isFinite(v.value))
      return this.counted(this.d.real(v.value), undefined);
    return undefined;
  }

  private castValue(type: IrColumn['type'], sql: string): string {
    return `CAST(${sql} AS ${this.d.sqlType(type)})`;
  }

  private alias(): string {
    this.aliasCounter++;
    return this.q(`_t${this.aliasCounter}`);
  }

  private state(from: string, cols: readonly IrColumn[]): State {
    this.countTerms(cols.length, undefined);
    return {
      sel: {
        star: true,
        items: [],
        from,
        where: [],
        groupBy: [],
        orderBy: [],
        limit: null,
        distinct: false,
      },
      cols,
      carried: [],
      order: [],
    };
  }

  /**
   * A `materialize()` let: on DuckDB a CTE written once (AS MATERIALIZED: evaluated once, so a sample
   * or rand() in it is the same at every use); each use selects from it. Timestream's SQL has no
   * such guarantee: its text is written at each use, which gives the same rows unless it picks rows
   * or values at random, and then it is refused. @throws QueryError QUERY_UNSUPPORTED
   */
  private materializedRel(rel: Rel): State {
    if (this.d.name !== 'duckdb') {
      if (isRandom(rel))
        throw this.options.ctx.errors.unsupported(
          `materialize() of random rows or values is not supported on the ${this.d.name} engine`,
          this.position(),
        );
      return this.relation(rel);
    }
    const stored = this.options.stored?.names.get(rel);
    if (stored !== undefined) return this.storedRel(rel, stored);
    let cte = this.ctes.get(rel);
    if (!cte) {
      const state = this.relation(rel);
      const refs = [...state.cols.map((c) => c.ref), ...state.carried];
      const outer = this.wrap(state);
      outer.sel.star = false;
      outer.sel.items = refs.map((r) => ({ sql: this.q(r), ref: r }));
      const name = this.q(`_m${++this.hiddenCounter}`);
      cte = { name, sql: this.render(outer.sel), carried: state.carried, order: state.order };
      this.ctes.set(rel, cte);
    }
    // The columns a reference passes on are its reader's terms: counted at the reader (a
    // graph-match pattern reading the graph's tables), not at the operator that made the CTE.
    const own = this.at.pop();
    try {
      // Each use reads the rows in the relation's order (a sort's, a scan's walk): its keys are among
      // the CTE's columns, and a CTE's rows come in no defined order (a scan of two steps is a UNION
      // ALL ordered only outside it).
      const s = this.state(`${cte.name} AS ${this.alias()}`, rel.columns);
      s.carried = [...cte.carried];
      s.order = [...cte.order];
      return s;
    } finally {
      this.at.push(own);
    }
  }

  /**
   * A materialized relation the caller stores once per request (a batch's shared value): its rows'
   * SQL is written for the caller (positional columns, so that every table's compile reads them
   * under its own refs), and each use selects from the stored table.
   */
  private storedRel(rel: Rel, name: string): State {
    const { written } = this.options.stored!;
    if (!written.some((v) => v.name === name)) {
      // Its rows' SQL stands alone: the CTEs it reads (a graph's tables) are written into it, not
      // into the query's, which reads only the stored table.
      const outside = new Map(this.ctes);
      this.ctes.clear();
      const state = this.relation(rel);
      const outer = this.wrap(state);
      outer.sel.star = false;
      // Its order keys too (k0, k1, ...): each use reads the rows in their order, as a CTE's use does.
      outer.sel.items = [
        ...rel.columns.map((c, i) => ({ sql: this.q(c.ref), ref: `c${i}` })),
        ...state.carried.map((r, i) => ({ sql: this.q(r), ref: `k${i}` })),
      ];
      written.push({ name, sql: this.withCtes(this.render(outer.sel)) });
      this.storedOrders.set(name, { carried: state.carried, order: state.order });
      this.ctes.clear();
      for (const [r, cte] of outside) this.ctes.set(r, cte);
    }
    const kept = this.storedOrders.get(name)!;
    const items = [
      ...rel.columns.map((c, i) => `${this.q(`c${i}`)} AS ${this.q(c.ref)}`),
      ...kept.carried.map((r, i) => `${this.q(`k${i}`)} AS ${this.q(r)}`),
    ];
    const s = this.fromSubquery(`SELECT ${items.join(', ')} FROM ${this.q(name)}`, rel.columns);
    s.carried = [...kept.carried];
    s.order = [...kept.order];
    return s;
  }

  private fromSubquery(sql: string, cols: readonly IrColumn[]): State {
    return this.state(`(${sql}) AS ${this.alias()}`, cols);
  }

  /** A SELECT that only passes its input's columns through can take more WHERE/items in place. */
  private pureOrWrap(s: State): State {
    const sel = s.sel;
    const pure =
      sel.groupBy.length === 0 &&
      sel.orderBy.length === 0 &&
      sel.limit === null &&
      !sel.distinct &&
      sel.items.every((i) => i.sql === this.q(i.ref));
    return pure ? s : this.wrap(s);
  }

  /** The rows' numbers in the order they come: a serialized input's order, else their arrival. */
  private rowNumber(s: State): string {
    return `row_number() OVER (${s.order.length > 0 ? `ORDER BY ${this.orderBy(s.order).join(', ')}` : ''})`;
  }

  /**
   * distinct over rows the query writes itself: each row where it first comes (as the summarize of
   * such rows keeps its groups' order), by grouping on every column and carrying the first number.
   */
  private distinctRowsInOrder(input: Rel, columns: readonly IrColumn[]): State {
    const s = this.pureOrWrap(this.rel(input));
    const numbered = `_r${++this.hiddenCounter}`;
    s.sel.items = [...s.sel.items, { sql: this.rowNumber(s), ref: numbered }];
    const sel = this.wrap(s).sel;
    const first = `_f${++this.hiddenCounter}`;
    sel.star = false;
    sel.items = [
      ...columns.map((c) => ({ sql: this.q(c.ref), ref: c.ref })),
      { sql: `min(${this.q(numbered)})`, ref: first },
    ];
    sel.groupBy = columns.map((c) => this.q(c.ref));
    return { sel, cols: columns, carried: [first], order: [{ ref: first, desc: false, nullsFirst: false }] };
  }

  private wrap(s: State, alias = this.alias()): State {
    const refs = [...s.cols.map((c) => c.ref), ...s.carried];
    this.countTerms(refs.length, undefined);
    const from = `(${this.render(s.sel)}) AS ${alias}`;
    return {
      sel: {
        star: true,
        items: [],
        from,
        where: [],
        groupBy: [],
        orderBy: [],
        limit: null,
        distinct: false,
      },
      cols: s.cols,
      carried: [...s.carried],
      order: [...s.order],
    };
  }

  private orderBy(keys: readonly OrderKey[]): string[] {
    return keys.map((k) => orderTerm(this.q(k.ref), k));
  }

  private render(sel: Select): string {
    // Appended in a loop: no array of item texts per SELECT.
    let items = sel.star ? '*' : '';
    for (const i of sel.items) {
      const q = this.q(i.ref);
      items += `${items ? ', ' : ''}${i.sql === q ? i.sql : `${i.sql} AS ${q}`}`;
    }
    let sql = `SELECT ${sel.distinct ? 'DISTINCT ' : ''}${items} FROM ${sel.from}`;
    if (sel.where.length > 0) sql += ` WHERE ${sel.where.join(' AND ')}`;
    if (sel.groupBy.length > 0) sql += ` GROUP BY ${sel.groupBy.join(', ')}`;
    if (sel.orderBy.length > 0) sql += ` ORDER BY ${sel.orderBy.join(', ')}`;
    if (sel.limit !== null) sql += ` LIMIT ${sel.limit.toString()}`;
    // Column lists repeat at each subquery: the whole text is checked, not only the expressions.
    this.checkSize(sql.length, undefined);
    return sql;
  }
}

function itemsByRef(items: readonly Item[]): Map<string, Item> {
  return new Map(items.map((i) => [i.ref, i]));
}

/** The output name of the last column whose ref is `ref`, if any (`out` is parallel to `cols`). */
function outputNameOf(cols: readonly IrColumn[], out: readonly Item[], ref: string): string | undefined {
  for (let i = cols.length - 1; i >= 0; i--) if (cols[i]!.ref === ref) return out[i]!.ref;
  return undefined;
}

function hasControlCharacter(name: string): boolean {
  // By UTF-16 unit, not by code point: the control characters are all below U+0080, and a
  // surrogate is never one of them. No string iterator (an object per character) per output column.
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
