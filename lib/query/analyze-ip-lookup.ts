// evaluate ipv4_lookup(LookupTable, SourceIPv4Key, IPv4LookupKey [, ExtraKey ...] [, return_unmatched])
// and ipv6_lookup(LookupTable, SourceIPv6Key, IPv6LookupKey [, return_unmatched]) (ipv4-lookup-plugin,
// ipv6-lookup-plugin docs): each input row joined with the lookup rows whose key (an address or a
// CIDR range) contains the row's address, on equal extra keys; with return_unmatched the rows that
// match none are kept once each, the lookup columns null (empty). Schema as the lookup operator's (input columns,
// then the lookup's, a taken name getting a number suffix, extra keys once); ipv6_lookup puts the
// lookup's columns first, as its page prints them. Lookup keys that are no address match nothing.
// A source written as a range matches the lookup ranges that contain all of it.
// Written as equality joins, not a comparison of every row with every range: each input row is
// repeated once per distinct prefix length of the lookup keys (at most 33, or 129 for IPv6), its
// address masked to that length, then looked up on (length, masked address, extra keys).
// Throws QUERY_SEMANTIC at the argument for a missing column, a non-string key, a non-constant flag.
import type { Expr, Operator, Pipeline } from './ast';
import { asc, binary, call, long, name, numbering } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { clip } from './errors';
import type { IrColumn, Rel } from './ir';
import { projected, runOver, withUnmatchedRows } from './plugin-rewrite';
import { analyzeScalar } from './scalars';
import { readsStoredTable } from './ir-reads';
import type { Span } from './tokens';

interface Family {
  readonly plugin: 'ipv4_lookup' | 'ipv6_lookup';
  /** The key masked to its own prefix; null or "" when it is no address. */
  readonly parse: (e: Expr, at: Span) => Expr;
  /** Whether a parsed key is an address. */
  readonly valid: (parsed: Expr, at: Span) => Expr;
  /** The address (text `e`, parsed `parsed`) masked to `bits` (which never exceed its own prefix here). */
  readonly mask: (e: Expr, parsed: Expr, bits: Expr, at: Span) => Expr;
  /** The prefix length a key is written with (a bare address: all bits). */
  readonly prefix: (e: Expr, at: Span) => Expr;
  readonly lookupFirst: boolean;
}

/**
 * The number after '/' in text `e`, else `whole` (offset by `v4Offset` for IPv4 text in IPv6 lookups).
 * A regular expression, not indexof and substring: those wrote 6-15k characters of SQL per use.
 */
function writtenPrefix(e: Expr, whole: bigint, at: Span, v4Offset?: bigint): Expr {
  const written = call('tolong', [call('extract', [str('/([0-9]+)', at), long(1n, at), e], at)], at);
  const colon = call('isnotempty', [call('extract', [str('(:)', at), long(1n, at), e], at)], at);
  const scaled =
    v4Offset === undefined
      ? written
      : binary('+', written, call('iff', [colon, long(0n, at), long(v4Offset, at)], at), at);
  return call('coalesce', [scaled, long(whole, at)], at);
}
const str = (s: string, at: Span): Expr => ({ kind: 'literal', type: 'string', value: s, span: at });

const FAMILIES: Readonly<Record<Family['plugin'], Family>> = {
  ipv4_lookup: {
    plugin: 'ipv4_lookup',
    parse: (e, at) => call('parse_ipv4', [e], at),
    valid: (v, at) => call('isnotnull', [v], at),
    // The parsed long rounded down to a multiple of the block size: a few characters of SQL, where
    // parse_ipv4_mask parses the text again.
    mask: (_, parsed, bits, at) =>
      call('bin', [parsed, call('tolong', [call('exp2', [binary('-', long(32n, at), bits, at)], at)], at)], at),
    prefix: (e, at) => writtenPrefix(e, 32n, at),
    lookupFirst: false,
  },
  ipv6_lookup: {
    plugin: 'ipv6_lookup',
    parse: (e, at) => call('parse_ipv6', [e], at),
    valid: (v, at) => call('isnotempty', [v], at),
    mask: (e, _, bits, at) => call('parse_ipv6_mask', [e, bits], at),
    // An IPv4 text's prefix counts from bit 96 (parse_ipv6 reads it as ::ffff:a.b.c.d).
    prefix: (e, at) => writtenPrefix(e, 128n, at, 96n),
    lookupFirst: true,
  },
};

export function analyzeIpLookup(
  h: MvApplyHost,
  input: Rel,
  plugin: Family['plugin'],
  args: readonly Expr[],
  argsSpan: Span,
  span: Span,
): Rel {
  const f = FAMILIES[plugin];
  if (args.length < 3)
    throw h.errors.semantic(`${plugin}() takes LookupTable, the source key and the lookup key`, argsSpan);
  const [tableArg, sourceArg, keyArg, ...rest] = args as [Expr, Expr, Expr, ...Expr[]];
  const table = lookupTable(h, plugin, tableArg);
  const tablePipe = (ops: readonly Operator[] = []): Pipeline => ({
    ...table,
    operators: [...table.operators, ...ops],
  });
  const lookup = h.subquery(tablePipe());
  const source = stringColumn(h, plugin, sourceArg, input.columns, 'source key', 'the input');
  const key = stringColumn(h, plugin, keyArg, lookup.columns, 'lookup key', 'the lookup table');
  const { extra, unmatched } = trailing(h, f, input, lookup, rest);

  const at = span;
  const prefix = `\u0000${plugin} ${h.newRef()} `;
  const [pk, net, one, ps, sv] = ['pk', 'net', 'one', 'ps', 'sv'].map((n) => prefix + n) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const extend = (items: readonly [string, Expr][]): Operator => ({
    kind: 'extend',
    items: items.map(([n, e]) => ({ name: n, expr: e, span: at })),
    span: at,
  });
  const keyRef = name(key, at);
  const keyed = [
    extend([
      [pk, f.prefix(keyRef, at)],
      [net, f.parse(keyRef, at)],
    ]),
    { kind: 'where', predicate: f.valid(name(net, at), at), span: at } as Operator,
  ];
  const lengths = tablePipe([
    ...keyed,
    { kind: 'distinct', columns: [{ expr: name(pk, at), span: at }], span: at },
    extend([[one, long(1n, at)]]),
  ]);
  const on = (n: string, s: Span = at) => ({ left: n, right: n, leftSpan: s, rightSpan: s, span: s });
  const lookupOp = (right: Pipeline, keys: readonly ReturnType<typeof on>[]): Operator => ({
    kind: 'join',
    join: { lookup: true, joinKind: 'inner', kindSpan: at, right, on: keys },
    span: at,
  });
  const sourceRef = name(source, at);
  const matching: Operator[] = [
    extend([
      [ps, f.prefix(sourceRef, at)],
      [sv, f.parse(sourceRef, at)],
      [one, long(1n, at)],
    ]),
    { kind: 'where', predicate: f.valid(name(sv, at), at), span: at },
    lookupOp(lengths, [on(one)]),
    { kind: 'where', predicate: binary('<=', name(pk, at), name(ps, at), at), span: at },
    extend([[net, f.mask(sourceRef, name(sv, at), name(pk, at), at)]]),
    lookupOp(tablePipe(keyed), [on(pk), on(net), ...extra.map((e) => on(e.name, e.span))]),
  ];
  let rel: Rel;
  if (!unmatched) rel = runOver(h, input, matching, at);
  else {
    // The rows matching no range, once each: those whose address and extra keys are not among the matched ones.
    const keys = [source, ...extra.map((e) => e.name)];
    // Over rows the query writes, matched and unmatched rows come in the input's order, as the page
    // prints them (the union would put the matched ones first, in the order of their CTE's read).
    const nth = `${prefix}nth`;
    const inOrder = !readsStoredTable(input);
    const numbered = inOrder ? runOver(h, input, [numbering(nth, at)], at) : input;
    rel = withUnmatchedRows(h, numbered, matching, keys, `${prefix}input`, at);
    if (inOrder) rel = runOver(h, rel, [{ kind: 'sort', keys: [asc(name(nth, at))], span: at }], at);
  }
  const visible = (cols: readonly IrColumn[]) => cols.filter((c) => !c.name.startsWith('\u0000')).map((c) => c.name);
  const inputNames = new Set(visible(input.columns));
  const out = visible(rel.columns);
  const order = f.lookupFirst
    ? [...out.filter((n) => !inputNames.has(n)), ...out.filter((n) => inputNames.has(n))]
    : out;
  return projected(h, rel, order, at);
}

/** LookupTable: a table or tabular let's name, or a tabular expression. */
export function lookupTable(h: MvApplyHost, plugin: string, e: Expr): Pipeline {
  if (e.kind === 'tabular') return e.pipeline;
  if (e.kind !== 'name')
    throw h.errors.semantic(`${plugin}() takes the lookup table (a name or a tabular expression) first`, e.span);
  return { kind: 'pipeline', source: { kind: 'table', name: e.name, span: e.span }, operators: [], span: e.span };
}

/** A string column of `columns` named by `e`. */
function stringColumn(
  h: MvApplyHost,
  plugin: string,
  e: Expr,
  columns: readonly IrColumn[],
  what: string,
  where: string,
): string {
  if (e.kind !== 'name') throw h.errors.semantic(`${plugin}() takes the ${what} as a column name of ${where}`, e.span);
  const c = columns.find((x) => x.name === e.name);
  if (!c) throw h.unknownColumn(e.name, columns, e.span, `in ${where}`);
  if (c.type !== 'string')
    throw h.errors.semantic(`${plugin}()'s ${what} '${clip(e.name)}' must be a string column, not ${c.type}`, e.span);
  return e.name;
}

/** The extra keys (columns of both sides; ipv4_lookup only) and the return_unmatched flag (a constant bool, last). */
function trailing(
  h: MvApplyHost,
  f: Family,
  input: Rel,
  lookup: Rel,
  rest: readonly Expr[],
): { extra: { name: string; span: Span }[]; unmatched: boolean } {
  const extra: { name: string; span: Span }[] = [];
  let unmatched = false;
  rest.forEach((e, i) => {
    const isColumn = e.kind === 'name' && input.columns.some((c) => c.name === e.name);
    if (i === rest.length - 1 && !isColumn) {
      const ir = analyzeScalar(e, h.env(input.columns));
      if (ir.kind !== 'lit' || ir.type !== 'bool')
        throw h.errors.semantic(`${f.plugin}()'s return_unmatched must be a constant bool`, e.span);
      unmatched = ir.value === true;
      return;
    }
    if (f.plugin === 'ipv6_lookup')
      throw h.errors.semantic(
        'ipv6_lookup() takes no extra keys: only return_unmatched may follow the lookup key',
        e.span,
      );
    if (e.kind !== 'name') throw h.errors.semantic(`${f.plugin}() takes each extra key as a column name`, e.span);
    if (!isColumn) throw h.unknownColumn(e.name, input.columns, e.span, 'in the input');
    if (!lookup.columns.some((c) => c.name === e.name))
      throw h.unknownColumn(e.name, lookup.columns, e.span, 'in the lookup table');
    extra.push({ name: e.name, span: e.span });
  });
  return { extra, unmatched };
}
