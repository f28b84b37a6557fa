// The grammar-aware fuzzer of the KQL compiler: fast-check arbitraries for tokens, names, literals,
// expressions, operators, pipelines and lets (near and past every limit), token soup, and mutations
// of the golden and conformance queries. The property: compile() in both dialects returns a result
// or throws a QueryError (positioned), never anything else. It always ends: the compile budget
// (limits.compileBudgetMs) stops any input, so the property needs no clock of its own.
// Run by test/unit/query/fuzz.test.ts (fixed seed, in `npm test`) and fuzz-run.ts (`npm run fuzz`).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';
import { loadCases } from '../../conformance/cases';

const DIALECTS = ['duckdb', 'timestream'] as const;

const base: Omit<CompileOptions, 'dialect'> = {
  scope: {
    customerId: 'cust-a',
    plantIds: ['plant-1'],
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
};

/** What one input gave in one dialect: compiled, or refused with a code. */
export type Outcome =
  | { readonly dialect: string; readonly ok: true }
  | { readonly dialect: string; readonly ok: false; readonly code: string };

/**
 * The property for one query text: every dialect compiles it or throws a positioned QueryError.
 * @throws Error describing the first thing that is not (a crash, a non-QueryError, a bad position).
 */
export function compilesOrRefuses(query: string): Outcome[] {
  return DIALECTS.map((dialect) => {
    try {
      compile(query, { ...base, dialect });
      return { dialect, ok: true } as const;
    } catch (error) {
      if (!(error instanceof QueryError)) {
        const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new Error(`${dialect}: compile threw ${what}, not a QueryError`, { cause: error });
      }
      if (!/^\d+:\d+: /.test(error.message))
        throw new Error(`${dialect}: a QueryError without line:col: ${error.message}`);
      if (error.span.start < 0 || error.span.end < error.span.start || error.span.end > query.length) {
        throw new Error(
          `${dialect}: a QueryError span ${JSON.stringify(error.span)} outside the query of ${query.length} characters`,
        );
      }
      return { dialect, ok: false, code: error.code } as const;
    }
  });
}

// ------------------------------------------------------------------ vocabulary
const KEYWORDS = [
  'let',
  'print',
  'range',
  'from',
  'to',
  'step',
  'datatable',
  'where',
  'filter',
  'project',
  'extend',
  'summarize',
  'by',
  'take',
  'limit',
  'top',
  'sort',
  'order',
  'asc',
  'desc',
  'nulls',
  'first',
  'last',
  'count',
  'distinct',
  'render',
  'with',
  'project-away',
  'project-rename',
  'and',
  'or',
  'not',
  'in',
  'has',
  'contains',
  'startswith',
  'endswith',
  'between',
  'matches',
  'regex',
  'true',
  'false',
  'null',
  'join',
  'union',
  'mv-expand',
  'set',
  'declare',
  'hint.strategy',
  'timechart',
  'lookup',
  'kind',
  'on',
  '$left',
  '$right',
  'inner',
  'innerunique',
  'leftouter',
  'rightanti',
  'serialize',
  'toscalar',
  'as',
  'top-nested',
  'of',
  'others',
  'has_any',
  'has_all',
  'search',
  'parse-kv',
  'pair_delimiter',
  'withsource',
  'with_itemindex',
  'typeof',
  'limit',
  'row_number',
  'prev',
  'next',
  'row_cumsum',
  'make-series',
  'default',
  'step',
  'nonempty',
  'series_stats',
];
const OPERATORS = [
  '|',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  '.',
  '=',
  '==',
  '!=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  '=~',
  '!~',
  '+',
  '-',
  '*',
  '/',
  '%',
  ':',
  '..',
  '~',
  '@',
  '=>',
  '!',
  '!in',
  '!in~',
  'in~',
  '!has',
  '!contains',
  '!between',
  '$',
  '#',
  '?',
  '\\',
  '`',
];
const COLUMNS = [
  'Timestamp',
  'Value',
  'Name',
  'DeviceId',
  'PlantId',
  'Uid',
  'Unit',
  'Metadata',
  'Text',
  'Severity',
  'Active',
  'x',
  'y',
];
const FUNCTIONS = [
  'tostring',
  'todouble',
  'tolong',
  'toint',
  'tobool',
  'todatetime',
  'totimespan',
  'parse_json',
  'now',
  'ago',
  'bin',
  'floor',
  'iff',
  'case',
  'coalesce',
  'isnull',
  'isnotnull',
  'isempty',
  'strcat',
  'strlen',
  'substring',
  'tolower',
  'toupper',
  'round',
  'abs',
  'startofday',
  'not',
  'parse_url',
  'series_fill_linear',
  'series_fill_forward',
  'series_add',
  'series_stats_dynamic',
  'f',
];
const AGGREGATES = [
  'count',
  'countif',
  'sum',
  'sumif',
  'avg',
  'min',
  'max',
  'dcount',
  'percentile',
  'percentiles',
  'arg_max',
  'arg_min',
  'make_list',
  'make_set',
  'stdev',
  'take_any',
  'variance',
];
const UNITS = [
  'd',
  'day',
  'days',
  'h',
  'hr',
  'hrs',
  'hour',
  'hours',
  'm',
  'min',
  'minute',
  'minutes',
  's',
  'sec',
  'second',
  'seconds',
  'ms',
  'milli',
  'millis',
  'millisecond',
  'milliseconds',
  'microsecond',
  'microseconds',
  'tick',
  'ticks',
  'parsecs',
];

const oneOf = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

export const name: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: oneOf(COLUMNS) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/) },
  { weight: 1, arbitrary: oneOf(['$left', '$right', '$', '$1', '$$', 'é', 'nom_é', '中文', '😀', '\u0000', '\u200b']) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 1100 }).map((n) => 'n'.repeat(n)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `['${s.replace(/'/g, "\\'")}']`) },
);

const bigDigits = fc.integer({ min: 19, max: 40 }).map((n) => '9'.repeat(n));

export const literal: fc.Arbitrary<string> = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  oneOf([
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '0x',
    '0xFF',
    '0x7FFFFFFFFFFFFFFF',
    '0x8000000000000000',
    '0xFFFFFFFFFFFFFFFFFF',
    '00',
    '1.',
    '.5',
    '1e',
    '1e+',
    '1e308',
    '1e400',
    '-0.0',
  ]),
  bigDigits,
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : 'real(nan)')),
  fc
    .tuple(
      fc.oneof(
        fc.integer({ min: 0, max: 20_000_000 }).map(String),
        bigDigits,
        fc.double({ min: 0, max: 1e25, noNaN: true }).map(String),
      ),
      oneOf(UNITS),
    )
    .map(([n, u]) => `${n}${u}`),
  fc.string({ maxLength: 30 }).map((s) => JSON.stringify(s)),
  oneOf([
    '"abc',
    "'it''s'",
    '@"C:\\path"',
    'h"hidden"',
    '```multi\nline```',
    '```open',
    '"\\u12"',
    '"a\\"b"',
    "'\\'",
    '"line\nbreak"',
  ]),
  oneOf([
    'datetime(2024-03-01)',
    'datetime(0001-01-01)',
    'datetime(0000-12-31)',
    'datetime(9999-12-31 23:59:59.9999999)',
    'datetime(10000-01-01)',
    'datetime(2024-13-01)',
    'datetime(2024-02-30)',
    'datetime(0001-01-01T00:00:00+01:00)',
    'datetime(9999-12-31T23:59:59-01:00)',
    'datetime(null)',
    'datetime(',
    'datetime("2024-03-01")',
    'time(1h)',
    'timespan(2)',
    'timespan(10675200)',
    'timespan(1.00:00:00)',
    'timespan(-99999999999999999999.00:00:00)',
    'dynamic([1, 2, {"a": null}])',
    'dynamic({"a": {"b": [1]}})',
    'dynamic(null)',
    'dynamic(not json)',
    'dynamic([)',
    'guid(00000000-0000-0000-0000-000000000000)',
    'guid(x)',
    'long(null)',
    'long(-9223372036854775808)',
    'long(9223372036854775808)',
    'int(2147483648)',
    'int(-2147483648)',
    'real(nan)',
    'real(-inf)',
    'real(+inf)',
    'bool(1)',
    'bool(x)',
  ]),
  fc.integer({ min: 0, max: 90 }).map((n) => `dynamic(${'['.repeat(n)}${']'.repeat(n)})`),
);

const comparison = oneOf([
  '==',
  '!=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  '=~',
  '!~',
  'has',
  '!has',
  'contains',
  '!contains',
  'startswith',
  'endswith',
  'has_cs',
  'matches regex',
  'like',
]);
const arithmetic = oneOf(['+', '-', '*', '/', '%']);

/** Scalar expressions, depth-bounded by fast-check's depth size, plus deliberately deep ones. */
export const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: literal },
    { weight: 4, arbitrary: name },
    {
      weight: 3,
      arbitrary: fc
        .tuple(tie('e'), fc.oneof(arithmetic, comparison, oneOf(['and', 'or'])), tie('e'))
        .map(([a, op, b]) => `${a} ${op} ${b}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(oneOf(['-', '+', '- -', 'not']), tie('e'))
        .map(([op, a]) => (op === 'not' ? `not(${a})` : `${op}${a}`)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(oneOf(FUNCTIONS), fc.array(tie('e'), { maxLength: 4 }))
        .map(([f, args]) => `${f}(${args.join(', ')})`),
    },
    { weight: 1, arbitrary: tie('e').map((a) => `(${a})`) },
    { weight: 1, arbitrary: fc.tuple(tie('e'), name).map(([a, n]) => `${a}.${n}`) },
    { weight: 1, arbitrary: fc.tuple(tie('e'), tie('e')).map(([a, i]) => `${a}[${i}]`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(tie('e'), oneOf(['in', '!in', 'in~', '!in~']), fc.array(tie('e'), { maxLength: 5 }))
        .map(([a, op, vs]) => `${a} ${op} (${vs.join(', ')})`),
    },
    { weight: 1, arbitrary: fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, l, h]) => `${a} between (${l} .. ${h})`) },
    { weight: 1, arbitrary: deepExpr() },
  ),
})).e;

/** Expressions around the depth and terms limits: chains, nesting, unary runs, doubling. */
function deepExpr(): fc.Arbitrary<string> {
  const n = fc.integer({ min: 55, max: 75 });
  return fc.oneof(
    n.map((k) =>
      Array(k + 1)
        .fill('1')
        .join(' + '),
    ),
    n.map((k) => `${'('.repeat(k)}1${')'.repeat(k)}`),
    n.map((k) => `${'-'.repeat(k)}1`),
    n.map((k) => `${'abs('.repeat(k)}1${')'.repeat(k)}`),
    n.map((k) => `dynamic({})${'.a'.repeat(k)}`),
    fc.integer({ min: 1990, max: 2010 }).map((k) => `x in (${Array.from({ length: k }, (_, i) => i).join(',')})`),
    fc.integer({ min: 495, max: 505 }).map((k) => Array.from({ length: k }, (_, i) => `x == ${i}`).join(' or ')),
    fc.integer({ min: 1, max: 20 }).map((k) => `${'tostring(parse_json('.repeat(k)}x${'))'.repeat(k)}`),
  );
}

const namedList = fc
  .array(fc.tuple(fc.option(name, { nil: undefined }), expr), { minLength: 1, maxLength: 4 })
  .map((items) => items.map(([n, e]) => (n ? `${n} = ${e}` : e)).join(', '));
const aggregate = fc
  .tuple(
    fc.option(name, { nil: undefined }),
    oneOf(AGGREGATES),
    fc.array(fc.oneof(expr, fc.constant('*')), { maxLength: 3 }),
  )
  .map(([n, f, args]) => `${n ? `${n} = ` : ''}${f}(${args.join(', ')})`);

export const operator: fc.Arbitrary<string> = fc.oneof(
  expr.map((e) => `where ${e}`),
  namedList.map((l) => `extend ${l}`),
  namedList.map((l) => `project ${l}`),
  fc
    .tuple(fc.array(aggregate, { minLength: 1, maxLength: 3 }), fc.option(namedList, { nil: undefined }))
    .map(([a, by]) => `summarize ${a.join(', ')}${by ? ` by ${by}` : ''}`),
  fc.oneof(literal, expr).map((n) => `take ${n}`),
  fc
    .tuple(literal, expr, oneOf(['', ' asc', ' desc', ' asc nulls first', ' desc nulls last']))
    .map(([n, e, d]) => `top ${n} by ${e}${d}`),
  fc.tuple(expr, oneOf(['', ' asc', ' desc nulls first'])).map(([e, d]) => `sort by ${e}${d}`),
  fc.constantFrom(
    'count',
    'distinct *',
    'render timechart',
    'render barchart with (title = "t")',
    'join (Events) on DeviceId',
    'mv-expand Value',
    'frobnicate',
  ),
  fc
    .array(fc.oneof(name, fc.constantFrom('Message*', '*Id', '*', 'a*b*c')), { minLength: 1, maxLength: 3 })
    .map((ns) => `project-away ${ns.join(', ')}`),
  fc.tuple(name, name).map(([a, b]) => `project-rename ${a} = ${b}`),
  fc.array(name, { minLength: 1, maxLength: 3 }).map((ns) => `distinct ${ns.join(', ')}`),
);

const JOIN_KINDS = [
  '',
  'kind=inner ',
  'kind=innerunique ',
  'kind=leftouter ',
  'kind=rightouter ',
  'kind=fullouter ',
  'kind=leftanti ',
  'kind=rightsemi ',
  'kind=anti ',
  'kind=outer ',
  'hint.strategy=broadcast ',
];
const joinCondition = fc.oneof(
  name,
  fc.tuple(name, name).map(([a, b]) => `$left.${a} == $right.${b}`),
  fc.tuple(name, name).map(([a, b]) => `$right.${a} == $left.${b}`),
  fc.constant('$left.x == $left.y'),
);
const smallSource = fc.oneof(
  oneOf(['States', 'Events', 'T']),
  fc
    .tuple(
      fc.array(fc.tuple(name, oneOf(['long', 'string', 'dynamic'])), { minLength: 1, maxLength: 2 }),
      fc.array(literal, { maxLength: 4 }),
    )
    .map(([cols, vals]) => `datatable(${cols.map(([n, t]) => `${n}:${t}`).join(', ')})[${vals.join(', ')}]`),
);
const rightSide = fc.oneof(
  smallSource.map((src) => `(${src})`),
  fc.tuple(smallSource, operator).map(([src, op]) => `(${src} | ${op})`),
  oneOf(['States', 'Events', 'T']),
);
const windowCall = fc.oneof(
  fc.constantFrom('row_number()', 'row_number(7)'),
  fc.tuple(literal, expr).map(([a, b]) => `row_number(${a}, ${b})`),
  fc
    .tuple(oneOf(['prev', 'next']), name, fc.option(literal, { nil: undefined }), fc.option(expr, { nil: undefined }))
    .map(
      ([f, c, o, d]) => `${f}(${[c, o, o === undefined ? undefined : d].filter((x) => x !== undefined).join(', ')})`,
    ),
  fc
    .tuple(expr, fc.option(expr, { nil: undefined }))
    .map(([a, r]) => `row_cumsum(${a}${r === undefined ? '' : `, ${r}`})`),
  fc.constant('row_window_session(Timestamp, 1h, 5m)'),
);

/** Issue 15's operators: join, lookup, union, serialize and window functions, mv-expand. */
const tabularOperator: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      oneOf(['join', 'lookup']),
      oneOf(JOIN_KINDS),
      rightSide,
      fc.array(joinCondition, { minLength: 1, maxLength: 2 }),
    )
    .map(([op, k, r, on]) => `${op} ${k}${r} on ${on.join(', ')}`),
  fc
    .tuple(
      oneOf(['', 'kind=inner ', 'withsource=Src ', 'isfuzzy=true ']),
      fc.array(fc.oneof(rightSide, oneOf(['S*', '*s', 'Nothing*'])), { minLength: 1, maxLength: 2 }),
    )
    .map(([p, legs]) => `union ${p}${legs.join(', ')}`),
  fc
    .tuple(oneOf(['serialize', 'extend', 'project', 'where']), windowCall)
    .map(([op, w]) => (op === 'where' ? `where ${w} > 1` : `${op} w = ${w}`)),
  fc.constantFrom(
    'serialize',
    'sort by Timestamp asc | extend d = Timestamp - prev(Timestamp)',
    'order by x | extend c = row_cumsum(x, x != prev(x))',
    'getschema',
    'sample 3',
    'sample -1',
    'sample x',
  ),
  fc
    .tuple(
      oneOf(['parse', 'parse-where', 'parse kind=regex', 'parse kind=relaxed']),
      name,
      fc.array(
        fc.oneof(
          literal,
          fc.constant('*'),
          name,
          fc.tuple(name, oneOf(['long', 'real', 'string', 'date', 'frob'])).map(([n, t]) => `${n}:${t}`),
        ),
        { minLength: 1, maxLength: 5 },
      ),
    )
    .map(([op, src, parts]) => `${op} ${src} with ${parts.join(' ')}`),
  fc
    .tuple(
      oneOf(['project-keep', 'project-reorder']),
      fc.array(fc.oneof(name, fc.constantFrom('Message*', '*Id', '*')), { minLength: 1, maxLength: 3 }),
      oneOf(['', ' asc']),
    )
    .map(([op, ns, o]) => `${op} ${ns.join(', ')}${o}`),
  fc
    .tuple(
      oneOf(['', 'kind=array ', 'with_itemindex=i ', 'bagexpansion=bag ']),
      fc.array(
        fc.oneof(
          name,
          fc.tuple(name, expr).map(([n, e]) => `${n} = ${e}`),
        ),
        { minLength: 1, maxLength: 2 },
      ),
      oneOf(['', ' to typeof(long)', ' to typeof(string)', ' to typeof(x)']),
      oneOf(['', ' limit 2', ' limit -1']),
    )
    .map(([k, items, t, l]) => `mv-expand ${k}${items.join(', ')}${t}${l}`),
  // toscalar, tabular in / has_any, as, top-nested (kql-ops).
  fc
    .tuple(oneOf(['where', 'extend v =']), expr, rightSide, oneOf(['in', '!in', 'in~', 'has_any', '<']))
    .map(([op, e, r, how]) =>
      how === '<' ? `${op} ${e} < toscalar(${r} | count)` : `${op} ${e} ${how} (${r.startsWith('(') ? r : `(${r})`})`,
    ),
  fc
    .tuple(name, expr, oneOf(['has_any', 'has_all', 'in']), fc.array(literal, { maxLength: 3 }))
    .map(([n, e, how, vals]) => `where ${e} ${how} (${vals.join(', ')}) | as ${n}`),
  fc
    .tuple(
      fc.array(
        fc.tuple(
          oneOf(['', '2 ', '0 ', '-1 ', 'x ']),
          fc.oneof(name, expr),
          oneOf(['', ' with others = "o"', ' with others = 1']),
          fc.oneof(oneOf(['count()', 'sum(Value)', 'max(x)', 'n = dcount(Name)', 'x']), expr),
          oneOf(['', ' asc', ' desc']),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([levels]) =>
      levels.map(([n, k, o, a, d], i) => `${i === 0 ? '' : ', '}top-nested ${n}of ${k}${o} by ${a}${d}`).join(''),
    ),
  oneOf(['as T', 'as hint.materialized=true T', 'as hint.remote=true T', 'as']),
  fc
    .tuple(
      oneOf(['', 'kind=case_sensitive ', 'kind=frob ', 'in (States) ']),
      fc.oneof(
        oneOf([
          '"x"',
          '"*x"',
          '"x*"',
          '"*x*"',
          '"x*y"',
          'Name:"x"',
          'Name:x',
          'Name:"x" and "y"',
          '* has "x"',
          '* !has ""',
        ]),
        expr,
      ),
    )
    .map(([k, p]) => `search ${k}${p}`),
  fc
    .tuple(
      expr,
      fc.array(fc.tuple(name, oneOf(['string', 'long', 'datetime', 'timespan', 'x'])), { minLength: 1, maxLength: 3 }),
      oneOf([
        '',
        " with (pair_delimiter=',', kv_delimiter=':')",
        " with (pair_delimiter=' ', kv_delimiter='=', quote='\"')",
        " with (quote='()')",
        " with (pair_delimiter=',')",
        " with (pair_delimiter=',,', kv_delimiter=':')",
        ' with (greedy=true)',
        " with (regex='(a)(b)')",
        ' with ()',
      ]),
    )
    .map(([e, keys, w]) => `parse-kv ${e} as (${keys.map(([n, t]) => `${n}:${t}`).join(', ')})${w}`),
  fc
    .tuple(
      oneOf(['', 'kind=nonempty ', 'hint.shufflekey=DeviceId ']),
      fc.array(
        fc
          .tuple(aggregate, oneOf(['', ' default = double(null)', ' default = -1', ' default = "x"']))
          .map(([a, d]) => a + d),
        { minLength: 1, maxLength: 2 },
      ),
      fc.oneof(name, oneOf(['Timestamp', 'x'])),
      oneOf([
        '',
        ' from ago(1d)',
        ' from datetime(2024-03-01) to datetime(2024-03-02)',
        ' to 10',
        ' in range(0, 10, 1)',
      ]),
      fc.oneof(
        fc.constantFrom(' step 1h', ' step 1', ' step 0', ' step -1h'),
        expr.map((e) => ` step ${e}`),
      ),
      fc.option(fc.array(fc.oneof(name, expr), { minLength: 1, maxLength: 2 }), { nil: undefined }),
    )
    .map(([k, aggs, axis, bounds, step, by]) => {
      // The range form carries its own step: drop the trailing one then.
      const tail = bounds.startsWith(' in ') ? '' : step;
      return `make-series ${k}${aggs.join(', ')} on ${axis}${bounds}${tail}${by ? ` by ${by.join(', ')}` : ''}`;
    }),
);

export const source: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: oneOf(['States', 'Events', 'Stats', 'T']) },
  { weight: 1, arbitrary: oneOf(['search "x"', 'search in (States, E*) "x*"', 'search kind=case_sensitive Name:"x"']) },
  { weight: 2, arbitrary: namedList.map((l) => `print ${l}`) },
  {
    weight: 2,
    arbitrary: fc.tuple(name, expr, expr, expr).map(([c, a, b, s]) => `range ${c} from ${a} to ${b} step ${s}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(name, literal, literal, literal)
      .map(([c, a, b, s]) => `range ${c} from ${a} to ${b} step ${s}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.array(
          fc.tuple(name, oneOf(['long', 'string', 'real', 'datetime', 'timespan', 'dynamic', 'bool', 'guid', 'x'])),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(literal, { maxLength: 6 }),
      )
      .map(([cols, vals]) => `datatable(${cols.map(([n, t]) => `${n}:${t}`).join(', ')})[${vals.join(', ')}]`),
  },
);

export const pipeline: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(source, fc.array(operator, { maxLength: 5 })).map(([s, ops]) => [s, ...ops].join(' | ')),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(
          source,
          fc.array(rightSide, { minLength: 1, maxLength: 3 }).map((legs) => `union ${legs.join(', ')}`),
        ),
        fc.array(fc.oneof(operator, tabularOperator), { maxLength: 4 }),
      )
      .map(([s, ops]) => [s, ...ops].join(' | ')),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(source, fc.integer({ min: 60, max: 70 })).map(([s, n]) => `${s}${' | extend z = 1'.repeat(n)}`),
  },
);

export const letStatement: fc.Arbitrary<string> = fc
  .tuple(name, fc.oneof(expr, pipeline))
  .map(([n, v]) => `let ${n} = ${v};`);

/** Whole queries: lets (sometimes around the statement limit), then a pipeline. */
export const query: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.array(letStatement, { maxLength: 3 }), pipeline)
      .map(([lets, p]) => `${lets.join('\n')}\n${p}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 95, max: 105 })
      .map((n) => `${Array.from({ length: n }, (_, i) => `let v${i} = ${i};`).join(' ')} print x = 1`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 12 })
      .map(
        (n) =>
          `let a0 = 1; ${Array.from({ length: n }, (_, i) => `let a${i + 1} = a${i} + a${i};`).join(' ')} print a${n}`,
      ),
  },
);

/** Tokens of every kind joined by nothing, spaces, newlines or comments: mostly nonsense. */
export const tokenSoup: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(oneOf(KEYWORDS), oneOf(OPERATORS), name, literal, oneOf(FUNCTIONS)),
      oneOf(['', ' ', '\n', '\t', ' // c\n']),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.map(([t, sep]) => t + sep).join(''));

// ------------------------------------------------------------------ corpus mutations
const here = path.dirname(fileURLToPath(import.meta.url));
const goldenRoot = path.resolve(here, '../../golden');

/** The valid queries of the golden and conformance corpora. */
export function corpus(): string[] {
  const golden = readdirSync(goldenRoot, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => readFileSync(path.join(goldenRoot, d.name, 'input.kql'), 'utf8'));
  return [...golden, ...loadCases().map(({ c }) => c.query)];
}

/** Corpus queries truncated, with a token duplicated, spliced with another, or with a random insertion. */
export function mutations(queries: readonly string[]): fc.Arbitrary<string> {
  const pick = fc.constantFrom(...queries);
  const cut = (q: string, at: number): number => Math.floor(at * (q.length + 1));
  const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
  return fc.oneof(
    pick,
    fc.tuple(pick, unit).map(([q, a]) => q.slice(0, cut(q, a))),
    fc.tuple(pick, unit, unit, fc.integer({ min: 2, max: 80 })).map(([q, a, b, times]) => {
      const [i, j] = [cut(q, a), cut(q, b)].sort((x, y) => x - y) as [number, number];
      return q.slice(0, j) + q.slice(i, j).repeat(times - 1) + q.slice(j);
    }),
    fc.tuple(pick, pick, unit, unit).map(([p, q, a, b]) => p.slice(0, cut(p, a)) + q.slice(cut(q, b))),
    fc
      .tuple(pick, unit, fc.oneof(oneOf(OPERATORS), oneOf(KEYWORDS), literal, name))
      .map(([q, a, t]) => q.slice(0, cut(q, a)) + t + q.slice(cut(q, a))),
    fc.tuple(pick, unit, unit).map(([q, a, b]) => q.slice(0, cut(q, Math.min(a, b))) + q.slice(cut(q, Math.max(a, b)))),
  );
}

/** Everything the fuzzer sends: grammar-shaped queries, token soup and corpus mutations. */
export function fuzzInput(queries: readonly string[] = corpus()): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: query },
    { weight: 2, arbitrary: tokenSoup },
    { weight: 3, arbitrary: mutations(queries) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  );
}

/** The property over fuzzInput(). */
export function fuzzProperty(queries: readonly string[] = corpus()) {
  return fc.property(fuzzInput(queries), (q) => {
    compilesOrRefuses(q);
  });
}
