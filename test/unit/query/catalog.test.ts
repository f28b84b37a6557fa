// The function catalog through compile(): overloads pick the result type, wrong arguments are a 400
// at the argument, and a function Timestream cannot compute is refused there naming both.
import { describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';

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

function failure(query: string, dialect: 'duckdb' | 'timestream' = 'duckdb'): QueryError {
  try {
    compile(query, { ...base, dialect });
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${query} to fail`);
}

const types = (query: string): string[] => compile(query, { ...base, dialect: 'duckdb' }).columns.map((c) => c.type);

describe('function catalog: overloads and types', () => {
  it('picks the signature the arguments fit', () => {
    // https://learn.microsoft.com/en-us/kusto/query/bin-at-function : bin_at works on numbers, timespans and datetimes.
    expect(types('print bin_at(6.5, 2.5, 7), bin_at(7, 5, 1), bin_at(1h, 1d, 12h), bin_at(now(), 1d, now())')).toEqual([
      'real',
      'long',
      'timespan',
      'datetime',
    ]);
    expect(types('print make_timespan(1, 2), make_timespan(1, 2, 3, 4.5)')).toEqual(['timespan', 'timespan']);
  });

  it('converts a dynamic argument to the parameter type', () => {
    expect(types('States | project x = strrep(Value, 2), y = datetime_add("day", 1, todatetime(Value))')).toEqual([
      'string',
      'datetime',
    ]);
  });

  it('keeps the result type of type-preserving functions; sign() is real whatever its argument (Kusto.Language)', () => {
    expect(types('print sign(toint(-3)), sign(-3), sign(-3.5), min_of(1, 2.5), max_of(1, 2)')).toEqual([
      'real',
      'real',
      'real',
      'real',
      'long',
    ]);
  });
});

describe('function catalog: errors', () => {
  it.each([
    [
      'print datetime_add("day", "x", now())',
      'QUERY_SEMANTIC',
      "1:27: datetime_add(): argument 'amount' must be an integer, got string",
    ],
    [
      'print datetime_diff("fortnight", now(), now())',
      'QUERY_SEMANTIC',
      "1:21: datetime_diff(): unknown period 'fortnight'",
    ],
    [
      'print make_timespan(1)',
      'QUERY_SEMANTIC',
      '1:7: make_timespan() takes (hour: integer, minute: integer, [second: number]) or (day: integer, hour: integer, minute: integer, second: number); got (long)',
    ],
    [
      'print s = "x" | extend r = extract(s, 1, "a")',
      'QUERY_SEMANTIC',
      "1:36: extract(): argument 'regex' must be a constant string (a literal): its value is written into the SQL when the query is compiled",
    ],
    [
      'print extract_all("(a)(b)", dynamic([3]), "ab")',
      'QUERY_SEMANTIC',
      '1:29: extract_all(): captureGroups holds 3: not a group number from 1 to 2 or a group name',
    ],
    [
      'print extract_all("ab", "ab")',
      'QUERY_SEMANTIC',
      '1:19: extract_all(): the regex must have 1 to 16 capture groups',
    ],
    ['print min_of(1, "a")', 'QUERY_SEMANTIC', '1:17: min_of(): the arguments must have one type'],
    ['print bag_pack("a")', 'QUERY_SEMANTIC', 'bag_pack()'],
    ['States | summarize dcountif(Name)', 'QUERY_SEMANTIC', 'dcountif() takes'],
    [
      'States | summarize variance(Value)',
      'QUERY_SEMANTIC',
      "1:29: variance(): argument 'expr' must be a number, got dynamic",
    ],
    ['print hash_combine("::1", "::1")', 'QUERY_UNSUPPORTED', "1:7: the function 'hash_combine' is not supported"],
  ] as const)('%s', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});

describe('function catalog: Timestream', () => {
  it.each([
    'print array_sort_asc(dynamic([2, 1]))',
    'print array_sort_desc(dynamic([2, 1]))',
    'States | summarize make_bag(MessageMetadata)',
    'print binary_shift_left(1, 2)',
    'print binary_shift_right(8, 2)',
  ])('refuses %s naming the function and the engine', (query) => {
    // Act
    const error = failure(query, 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^\d+:\d+: \w+\(\) is not supported on the Timestream engine$/);
    expect(() => compile(query, { ...base, dialect: 'duckdb' })).not.toThrow();
  });

  it('compiles the functions Timestream can compute', () => {
    const queries = [
      "print datetime_diff('month', now(), ago(400d)), datetime_add('quarter', 2, now()), datetime_part('dayofyear', now()), format_datetime(now(), 'yyyy-MM-dd HH:mm'), endofweek(now(), 1)",
      "print split('a_b', '_', 1), strcat_delim('-', 1, 2), replace_regex('abc', 'b', '[\\\\1]'), countof('aaa', 'a'), trim('-', '-x-'), strrep('a', 3, ','), hash_sha256('x'), toguid('x')",
      'print sqrt(2), log(0), isnan(1.0), min_of(1, long(null)), array_concat(dynamic([1]), dynamic([2])), set_union(dynamic([1]), dynamic([2])), bag_keys(dynamic({"a": 1})), gettype(dynamic(1))',
      'States | summarize dcountif(Name, true), make_list_if(Name, true, 5), percentiles_array(todouble(Value), 50, 90), variance(todouble(Value)), take_anyif(Name, true)',
    ];
    for (const q of queries) expect(compile(q, { ...base, dialect: 'timestream' }).sql).toContain('SELECT');
  });
});
