// compile(): semantic errors with hints, unsupported constructs named at their position, output
// schema and naming rules, the render hint and the scope restriction.
import { describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';

const options: CompileOptions = {
  dialect: 'duckdb',
  scope: {
    customerId: 'cust-a',
    plantIds: ['plant-1'],
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
};

function failure(query: string): QueryError {
  try {
    compile(query, options);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${query} to fail`);
}

const columns = (query: string): string[] => compile(query, options).columns.map((c) => `${c.name}:${c.type}`);

describe('compile: errors', () => {
  it.each([
    ['States | where Vaule > 5', 'QUERY_SEMANTIC', "1:16: unknown column 'Vaule'; did you mean 'Value'?"],
    ['States | project DeviceID', 'QUERY_SEMANTIC', "1:18: unknown column 'DeviceID'; did you mean 'DeviceId'?"],
    ['Stats | count', 'QUERY_SEMANTIC', "1:1: unknown table 'Stats'; did you mean 'States'?"],
    // https://learn.microsoft.com/en-us/kusto/query/avg-aggregation-function : aggregates need a numeric argument.
    [
      'States | summarize avg(Value)',
      'QUERY_SEMANTIC',
      "1:24: avg() needs a numeric argument but 'Value' is dynamic; convert it first, e.g. avg(todouble(Value))",
    ],
    ['States | where Name == 5', 'QUERY_SEMANTIC', '1:21: cannot compare string with long'],
    ['States | where Name', 'QUERY_SEMANTIC', '1:16: the where predicate must be a bool expression, got string'],
    [
      'States | extend x = count()',
      'QUERY_SEMANTIC',
      "1:21: the aggregation function 'count' can only be used in summarize",
    ],
    [
      'States | extend x = Timestamp + 1',
      'QUERY_SEMANTIC',
      "1:31: operator '+' cannot be applied to datetime and long",
    ],
    ['States | extend x = Name.a', 'QUERY_SEMANTIC', "1:21: '.' and '[...]' need a dynamic value; 'Name' is string"],
    [
      'States | extend x = geo_h3cell_rings(Name, 1)',
      'QUERY_UNSUPPORTED',
      "1:21: the function 'geo_h3cell_rings' is not supported: its cells come in the order of H3's grid-disk walk (each step moves the index digits with H3's neighbor tables and rotations; near the 12 pentagons H3 falls back to a search whose order is its hash set's), which is not written in SQL here; geo_h3cell_to_polygon, geo_h3cell_parent and geo_h3cell_children are supported",
    ],
    [
      'States | summarize geo_point_to_s2cell(Value)',
      'QUERY_SEMANTIC',
      '1:20: each summarize aggregation must call an aggregation function such as count() or avg()',
    ],
    [
      'States | where Name has_any ((Events | project Timestamp))',
      'QUERY_SEMANTIC',
      '1:30: has_any looks for string terms; the first column of the tabular expression is datetime (convert it with tostring())',
    ],
    [
      'States | where Name has DeviceId',
      'QUERY_UNSUPPORTED',
      "1:25: the right side of 'has' must be a constant string",
    ],
    ['States | take -1', 'QUERY_SEMANTIC', '1:15: the row count cannot be negative'],
    ['let n = toint(-2); States | take n', 'QUERY_SEMANTIC', '1:34: the row count cannot be negative'],
    ['let n = toint(3000000000); States | take n', 'QUERY_SEMANTIC', '1:42: expected a constant integer row count'],
    ['States | project a = 1, a = 2', 'QUERY_SEMANTIC', "1:25: duplicate column name 'a'"],
    ['States | project-rename Name = DeviceId', 'QUERY_SEMANTIC', "1:25: a column named 'Name' already exists"],
    ['States | render timechart | take 1', 'QUERY_SEMANTIC', '1:10: render must be the last operator of the query'],
    [
      'States | summarize count() by Value',
      'QUERY_SEMANTIC',
      '1:31: cannot group by a dynamic value; convert it first, e.g. tostring(...)',
    ],
    [
      'States | top 3 by Value',
      'QUERY_SEMANTIC',
      '1:19: cannot sort by a dynamic value; convert it first, e.g. todouble(...)',
    ],
    [
      'States | sort by Name asc, Metadata.unit',
      'QUERY_SEMANTIC',
      '1:28: cannot sort by a dynamic value; convert it first, e.g. todouble(...)',
    ],
    ['print iff(true, 1, "a")', 'QUERY_SEMANTIC', '1:7: the values have incompatible types: long, string'],
    [
      'States | where Value.a[Timestamp] == 1',
      'QUERY_SEMANTIC',
      '1:24: a computed subscript must be a string key or an integer index, got datetime; convert it, e.g. tostring(...)',
    ],
  ])('%s', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
  });

  it('takes a let of a converted constant as the row count, as Kusto.Language accepts it', () => {
    // Act
    const taken = compile('let n = toint(2); range x from 1 to 5 step 1 | take n', options);
    const top = compile('range x from 1 to 5 step 1 | top tolong(3) by x', options);
    // Assess
    expect(taken.sql).toMatch(/ LIMIT 2$/);
    expect(top.sql).toMatch(/ LIMIT 3$/);
  });

  it('does not take names inherited by every object (constructor, toString) for types', () => {
    expect(failure('datatable(x:constructor)[1]').message).toBe(
      "1:11: the column type 'constructor' is not supported in datatable",
    );
    expect(failure('print s="a" | parse s with x:toString').message).toBe(
      "1:28: unknown type 'toString' for the parsed column 'x'",
    );
    expect(failure('print d=dynamic([1]) | mv-expand d to typeof(constructor)').message).toBe(
      "1:46: unknown type 'constructor' in to typeof(...)",
    );
    expect(columns('print s="a" | parse s with x:guid')).toEqual(['s:string', 'x:guid']);
  });

  it("fails fast on invalid options, which are the caller's bug", () => {
    expect(() => compile('States', { ...options, scope: { ...options.scope, startTime: 'yesterday' } })).toThrow(
      TypeError,
    );
    expect(() => compile('States', { ...options, rowLimit: -1 })).toThrow(TypeError);
  });
});

describe('compile: output schema and Kusto naming', () => {
  // https://learn.microsoft.com/en-us/kusto/query/summarize-operator
  it('names aggregates count_, avg_X, percentile_X_N and keeps the by-key name of bin()', () => {
    expect(
      columns(
        'States | summarize count(), avg(todouble(Value)), percentile(todouble(Value.temp), 95) by bin(Timestamp, 1h)',
      ),
    ).toEqual(['Timestamp:datetime', 'count_:long', 'avg_Value:real', 'percentile_Value_temp_95:real']);
  });

  it('skips conversions in aggregate names but keeps other function names', () => {
    expect(
      columns(
        'States | summarize min(strlen(Name)), sum(strlen(Name) + 1), make_list(Name), make_set(DeviceId), stdev(todouble(Value))',
      ),
    ).toEqual(['min_strlen_Name:long', 'sum_:long', 'list_Name:dynamic', 'set_DeviceId:dynamic', 'stdev_Value:real']);
  });

  // Kusto.Language: a naming function over one aggregate passes the aggregate's name on.
  it('names a conversion or rounding of one aggregate after the aggregate, other expressions ColumnN', () => {
    expect(
      columns(
        'States | summarize tostring(avg(todouble(Value))), round(max(todouble(Value)), 1), todouble(count()), count() * 2, strcat("a", tostring(count())) by Name',
      ),
    ).toEqual(['Name:string', 'avg_Value:string', 'max_Value:real', 'count_:real', 'Column1:long', 'Column2:string']);
    expect(columns('States | summarize count(), tolong(count())')).toEqual(['count_:long', 'count_1:long']);
    // Except take_any and the percentiles, which Kusto.Language names ColumnN there (any and take_anyif pass theirs).
    expect(
      columns(
        'States | summarize tostring(take_any(Name)), tostring(percentile(todouble(Value), 50)), tostring(percentilew(todouble(Value), 1, 50)), tostring(any(Name)), tostring(take_anyif(Name, true))',
      ),
    ).toEqual(['Column1:string', 'Column2:string', 'Column3:string', 'any_Name:string', 'Name:string']);
  });

  // Kusto.Language reads each aggregate as a column of its default name when the expression derives one
  // (schemafuzz S4): strlen(max(s)) is strlen_max_s, where it was Column1.
  it('names a naming function over aggregates after them, take_any and the percentiles naming nothing', () => {
    expect(
      columns(
        'States | summarize strlen(max(Name)), dcount_hll(hll(DeviceId)), strlen(tostring(count())), strlen(tostring(take_any(Name))), toupper(max(Name))',
      ),
    ).toEqual([
      'strlen_max_Name:long',
      'dcount_hll_hll_DeviceId:long',
      'strlen_count_:long',
      'strlen_:long',
      'Column1:string',
    ]);
  });

  it('suffixes duplicates with numbers', () => {
    expect(columns('States | summarize count(), count(), max(Timestamp), max(Timestamp) by Timestamp')).toEqual([
      'Timestamp:datetime',
      'count_:long',
      'count_1:long',
      'max_Timestamp:datetime',
      'max_Timestamp1:datetime',
    ]);
  });

  // https://learn.microsoft.com/en-us/kusto/query/extend-operator
  it('replaces an existing column in place on extend and appends new ones', () => {
    expect(columns('States | project Timestamp, Name, Value | extend Name = strlen(Name), Extra = 1')).toEqual([
      'Timestamp:datetime',
      'Name:long',
      'Value:dynamic',
      'Extra:long',
    ]);
  });

  it('lets a later extend item use an earlier one', () => {
    expect(columns('States | project Timestamp | extend a = 1, b = a + 1.5')).toEqual([
      'Timestamp:datetime',
      'a:long',
      'b:real',
    ]);
  });

  // https://learn.microsoft.com/en-us/kusto/query/count-operator
  it('names the count operator column Count', () => {
    expect(columns('States | count')).toEqual(['Count:long']);
  });

  it('returns the render hint', () => {
    expect(
      compile('States | summarize count() by bin(Timestamp, 1h) | render timechart with (title="T")', options)
        .renderHint,
    ).toEqual({
      visualization: 'timechart',
      properties: { title: '"T"' },
    });
  });

  // https://learn.microsoft.com/en-us/kusto/query/render-operator: ycolumns and series are comma-delimited lists.
  it('keeps a render property holding a list of columns whole', () => {
    expect(
      compile(
        "range x from 1 to 2 step 1 | extend y = x, z = x | render timechart with (xcolumn=x, ycolumns=y, z, series=x, ['title']='T', legend=hidden)",
        options,
      ).renderHint,
    ).toEqual({
      visualization: 'timechart',
      properties: { xcolumn: 'x', ycolumns: 'y, z', series: 'x', title: "'T'", legend: 'hidden' },
    });
  });

  it('fixes now() and ago() to the compile time for the whole query', () => {
    const sql = compile('States | where Timestamp > ago(1h) and Timestamp <= now()', options).sql;
    expect(sql).toContain(`"Timestamp" > TIMESTAMP '2024-03-01 11:00:00'`);
    expect(sql).toContain(`"Timestamp" <= TIMESTAMP '2024-03-01 12:00:00'`);
  });
});

describe('compile: scope outside the query text', () => {
  it('restricts every table reference to the customer, plants and window', () => {
    const { sql } = compile('let a = States | take 1; a | count', options);
    expect(sql).toContain(
      `WHERE "CustomerId" = 'cust-a' AND "PlantId" = 'plant-1' AND "Timestamp" >= TIMESTAMP '2024-03-01 00:00:00' AND "Timestamp" < TIMESTAMP '2024-03-02 00:00:00'`,
    );
  });

  it('cannot be lifted by an or in the query: the scope is sealed in its own subquery', () => {
    const { sql } = compile('States | where true or PlantId == "plant-9"', options);
    const scan = sql.indexOf(`FROM "States" WHERE`);
    const userWhere = sql.indexOf('(TRUE OR');
    expect(scan).toBeGreaterThan(0);
    expect(userWhere).toBeGreaterThan(scan);
    expect(sql.slice(scan, userWhere)).toContain(') AS "_t1"');
  });

  it('matches no plant when the caller may see none', () => {
    expect(compile('States', { ...options, scope: { ...options.scope, plantIds: [] } }).sql).toContain(
      'WHERE "CustomerId" = \'cust-a\' AND FALSE',
    );
  });

  it('asks for one row more than the row limit so truncation can be reported', () => {
    expect(compile('States', options).sql).toMatch(/LIMIT 101$/);
  });
});

describe('compile: quoted names', () => {
  it("reads a bracketed column name after range, as Kusto.Language does (range ['x'] from ...)", () => {
    // Entity names page: a name that needs quoting is written ['...'] or ["..."] wherever a name stands.
    for (const name of ["['x']", '["x"]', "['my col']"]) {
      const { columns } = compile(`range ${name} from 1 to 3 step 1`, options);
      expect(columns).toEqual([{ name: name.slice(2, -2), type: 'long' }]);
    }
  });
});
