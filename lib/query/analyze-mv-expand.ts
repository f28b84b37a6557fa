// Semantic analysis of mv-expand (mv-expand operator docs): each expanded dynamic value gives one
// row per array element or bag property (all of them in parallel, the shorter padded with null),
// null gives one row, an empty array or bag none. An expanded expression named like an input column
// replaces it in place; others are appended, then the with_itemindex column. `to typeof(T)` converts
// the dynamic elements in a projection above, cast-only (a text "2" is not parsed into a long). Throws QueryError QUERY_SEMANTIC for a non-dynamic
// value, an unknown type, a bad limit.
import type { Expr, MvExpandSpec } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { Assigned, IrColumn, IrExpr, KqlType, Rel } from './ir';
import { derivedName, NameAllocator, type ColumnNumbers } from './naming';
import { analyzeScalar, convert, type ScalarEnv } from './scalars';
import { typeNamed } from './types';

export interface MvExpandHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[]): ScalarEnv;
  /** The constant non-negative row count of `e`. */
  constantCount(e: Expr): bigint;
  /** The query's numbering of unnamed columns at a position (Analyzer.columnNumbers). */
  columnNumbers(at: number): ColumnNumbers;
}

/** `origin`: the operator the expansion serves, named where an engine refuses it. */
export function analyzeMvExpand(h: MvExpandHost, input: Rel, spec: MvExpandSpec, origin?: 'mv-apply'): Rel {
  const env = h.env(input.columns);
  const out: IrColumn[] = [...input.columns];
  const position = new Map<string, number>();
  out.forEach((c, i) => {
    if (!position.has(c.name)) position.set(c.name, i);
  });
  const names = new NameAllocator(position.keys());
  const items: Assigned<IrExpr>[] = [];
  const typed: { column: IrColumn; type: KqlType }[] = [];
  for (const item of spec.items) {
    const value = analyzeScalar(item.expr, env);
    if (value.type !== 'dynamic') {
      throw h.errors.semantic(
        `mv-expand expands dynamic arrays and bags; '${clip(item.name ?? derivedName(item.expr) ?? 'this expression')}' is a ${value.type}`,
        item.expr.span,
      );
    }
    // A name (given or derived) that exists is replaced in place: mv-expand b expands b itself.
    // An unnamed expression takes the query's next ColumnN, as extend's does (Kusto.Language numbers
    // them across the query: `print a=1 | mv-expand pack_array(1) | project 2` gives Column1, Column2).
    const name = item.name ?? derivedName(item.expr) ?? names.nextColumnN(h.columnNumbers(item.expr.span.start));
    names.add(name);
    const column: IrColumn = { name, type: 'dynamic', ref: h.newRef() };
    const at = position.get(name);
    if (at === undefined) {
      position.set(name, out.length);
      out.push(column);
    } else out[at] = column;
    items.push({ column, value });
    if (item.toType) {
      const type = typeNamed(item.toType.name, true);
      if (!type)
        throw h.errors.semantic(`unknown type '${clip(item.toType.name)}' in to typeof(...)`, item.toType.span);
      if (type !== 'dynamic') typed.push({ column, type });
    }
  }
  let index: IrColumn | undefined;
  if (spec.itemIndex) {
    if (names.has(spec.itemIndex.name))
      throw h.errors.semantic(`a column named '${clip(spec.itemIndex.name)}' already exists`, spec.itemIndex.span);
    index = { name: spec.itemIndex.name, type: 'long', ref: h.newRef() };
    out.push(index);
  }
  const limit = spec.limit ? h.constantCount(spec.limit) : undefined;
  const rel: Rel = {
    kind: 'mvExpand',
    input,
    items,
    bagKind: spec.bagKind,
    columns: out,
    ...(index ? { index } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(origin ? { origin } : {}),
  };
  if (typed.length === 0) return rel;
  const conversions = new Map(typed.map((t) => [t.column.ref, t.type]));
  const projected = out.map((c) => {
    const type = conversions.get(c.ref);
    const col: IrExpr = { kind: 'col', ref: c.ref, type: c.type };
    return type
      ? { column: { name: c.name, type, ref: h.newRef() }, value: castElement(col, type) }
      : { column: c, value: col };
  });
  return { kind: 'project', input: rel, items: projected, columns: projected.map((p) => p.column) };
}

/**
 * The JSON kinds (as gettype() names them) that `to typeof(T)` casts without parsing or type
 * conversion: "Array elements that don't conform with the declared type become null values"
 * (mv-expand page). Datetimes, timespans and guids are held as text in a dynamic value here, so
 * their text is read; strings keep tostring() of any element.
 */
const CONFORMING: Partial<Record<KqlType, readonly string[]>> = {
  long: ['int', 'long'],
  int: ['int', 'long'],
  real: ['int', 'long', 'real'],
  decimal: ['int', 'long', 'real'],
  bool: ['bool'],
  // A number is no timespan (totimespan(2) would make it two days); a timespan is text here.
  timespan: ['string'],
};

function castElement(col: IrExpr, type: KqlType): IrExpr {
  const kinds = CONFORMING[type];
  if (!kinds) return convert(col, type);
  const kind: IrExpr = {
    kind: 'call',
    fn: 'catalog',
    ref: { catalog: 'scalar', name: 'gettype' },
    args: [col],
    type: 'string',
  };
  const literals = kinds.map((k): IrExpr => ({ kind: 'lit', type: 'string', value: k }));
  const typed: IrExpr = { kind: 'call', fn: 'in', args: [kind, ...literals], type: 'bool' };
  const conforms = kinds.includes('real') ? or(typed, heldNonFinite(col)) : typed;
  return { kind: 'call', fn: 'iff', args: [conforms, convert(col, type), { kind: 'lit', type, value: null }], type };
}

/** The strings a real NaN or infinity is held as inside a dynamic value (docs/query-api.md). */
const NON_FINITE_TEXTS = ['NaN', 'Infinity', '-Infinity'] as const;

/**
 * Whether a dynamic element is a real NaN or infinity: JSON has no such number, so pack_array(),
 * make_list() ... hold them as these strings, and todouble() reads them back; a real conforms.
 */
function heldNonFinite(col: IrExpr): IrExpr {
  const text: IrExpr = { kind: 'call', fn: 'tostring', args: [col], type: 'string' };
  const spellings = NON_FINITE_TEXTS.map((t): IrExpr => ({ kind: 'lit', type: 'string', value: t }));
  return { kind: 'call', fn: 'in', args: [text, ...spellings], type: 'bool' };
}

function or(a: IrExpr, b: IrExpr): IrExpr {
  return { kind: 'call', fn: 'or', args: [a, b], type: 'bool' };
}
