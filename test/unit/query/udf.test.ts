// User-defined functions (lib/query/parser-udf.ts, expand-udf.ts): errors and their positions, both
// dialects, and the bound on the expansion. Results are checked by test/conformance/cases/op-udf-*.json.
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions, type QueryLimits } from '../../../lib/query/index';
import { baseOptions, compileFailure } from './compile-failure';
import { rowsOf } from './duckdb-rows';
import { openFixtureDb } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect'], limits: Partial<QueryLimits> = {}): CompileOptions => ({
  ...baseOptions,
  dialect,
  limits,
});

const failure = (query: string) => compileFailure(query, options('duckdb'));

/** f0 adds one; each f(i) calls f(i-1) twice: calling f(n) would write 2^n copies of f0's body. */
function doublingChain(n: number): string {
  let q = 'let f0 = (x:long) { x + 1 };';
  for (let i = 1; i <= n; i++) q += ` let f${i} = (x:long) { f${i - 1}(x) + f${i - 1}(x) };`;
  return `${q} print f${n}(1)`;
}

describe('user-defined functions', () => {
  it.each([
    ['let f = (x:long) { x }; print f(1, 2)', 'QUERY_SEMANTIC', "1:31: 'f' takes 1 argument, got 2"],
    ['let f = (x:long, y:long = 2) { x }; print f()', 'QUERY_SEMANTIC', "1:43: 'f' takes 1 to 2 arguments, got 0"],
    ['let f = (x:long) { x }; print f("a")', 'QUERY_SEMANTIC', "1:33: argument 1 of 'f' (x) must be long, got string"],
    ['let f = (x:long) { x + Nope }; print f(1)', 'QUERY_SEMANTIC', "1:24: unknown column 'Nope'"],
    [
      'let f = (x:long) { f(x) }; print f(1)',
      'QUERY_UNSUPPORTED',
      "1:20: 'f' calls itself: recursive functions are not supported",
    ],
    // As in Kusto, a body sees the functions defined before it: no mutual recursion can be written.
    [
      'let f = (x:long) { g(x) }; let g = (x:long) { f(x) }; print g(1)',
      'QUERY_UNSUPPORTED',
      "1:20: the function 'g' is not supported",
    ],
    ['let f = (T:(*)) { T | count }; print f(1)', 'QUERY_SEMANTIC', "1:40: argument 1 of 'f' (T) must be a table"],
    ['let f = (x:long) { x }; f(1) | take 1', 'QUERY_SEMANTIC', "1:25: 'f' is a scalar function, not a table"],
    ['let f = () { States }; print f()', 'QUERY_SEMANTIC', "1:30: 'f' is a tabular function"],
    ['let f = (x:long, x:long) { x }; print f(1, 2)', 'QUERY_SEMANTIC', "1:18: duplicate parameter 'x'"],
    ['let f = (x:long = 1, y:long) { x }; print f(1, 2)', 'QUERY_SYNTAX', '1:22: a parameter without a default'],
    ['let f = (x:notatype) { x }; print f(1)', 'QUERY_SYNTAX', "1:12: expected a type name, found 'notatype'"],
    ['let f = (x:long, y:long = 1) { x }; print f(y=2)', 'QUERY_SEMANTIC', "1:43: 'f' needs its parameter 'x'"],
    ['let f = (x:long) { x }; print f(z=2)', 'QUERY_SEMANTIC', "1:35: 'f' has no parameter 'z'"],
    ['let f = (x:long) { x }; print f(1, x=2)', 'QUERY_SEMANTIC', "1:38: parameter 'x' is given twice"],
    ['let f = (x:long) { x + 1 }; union (print a = f(1)), (print a = f(2))', undefined, undefined],
    ['let f = (x:long) { x + 1 }; print f(1)', undefined, undefined],
  ])('%j', (query, code, message) => {
    if (code === undefined) {
      expect(compile(query, options('duckdb')).columns).toHaveLength(1);
      return;
    }
    const error = failure(query);
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  // toscalar page: a function reading a row's value inside its toscalar() is refused by Kusto
  // ("defined outside its row-context scope"); expanded as a macro, the column would be read as a
  // column of the inner table (x == x: every row got the first row's y).
  const lookup =
    'let D = datatable(x:long, y:long)[1,2,2,3]; let tg = (x_:long) { toscalar(D | where x == x_ | project y) };';
  it.each([
    [`${lookup} range x from 1 to 2 step 1 | extend y = tg(x)`, "1:152: can't use 'x' inside a tabular expression"],
    [`${lookup} range x from 1 to 2 step 1 | extend y = tg(x + 1)`, "1:152: can't use 'x'"],
    ["let T = datatable(s:string)['a']; let f = (v:string) { T | where s == v }; f(s)", "1:78: can't use 's'"],
    [
      'let D = datatable(x:long)[1]; let g = (a:long) { let w = a * 2; toscalar(D | where x == w) }; range x from 1 to 2 step 1 | extend g(x)',
      "1:133: can't use 'x'",
    ],
  ])('refuses a row value read inside a tabular expression of a body: %j', (query, message) => {
    const error = failure(query);
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toContain(message);
  });

  it.each([
    `${lookup} print tg(2)`,
    `let k = 2; ${lookup} print tg(k)`,
    `${lookup} let h = (a:long) { tg(a) }; print h(1)`,
    'let f = (v:long) { v in (range x from 1 to 3 step 1) }; range y from 1 to 5 step 1 | extend b = f(y)',
    'declare query_parameters(p:long = 2); let f = (v:long) { range x from 1 to v step 1 }; f(p)',
  ])('accepts a constant, a let or a row value outside the tabular expression: %j', (query) => {
    expect(compile(query, options('duckdb')).columns.length).toBeGreaterThan(0);
  });

  // A let or query parameter passed in keeps its value inside the body's tabular expression, even
  // where the inner table has a column of that name (substituted as a name, the column captured it).
  it.each([
    [
      'declare query_parameters(DeviceId:string = "press-01"); let f = (d:string) { States | where DeviceId == d }; f(DeviceId) | count',
      'States | where DeviceId == "press-01" | count',
    ],
    [
      'let x = 2; let D = datatable(x:long, y:long)[1,10,2,20]; let tg = (x_:long) { toscalar(D | where x == x_ | project y) }; print a = tg(x), b = tg(1)',
      'print a = 20, b = 10',
    ],
    [
      'let x = 2; let D = datatable(x:long, y:long)[1,10,2,20]; let tg = (x_:long) { toscalar(D | where x == x_ | project y) }; let h = (a:long) { tg(a + 0) }; print a = h(x)',
      'print a = 20',
    ],
    // Passed on through another function (the hoisted let is a let there too, not a column).
    ...[
      'let g = (x:string) { f(x) }; g(D)',
      "let g = (x:string) { f(strcat(x, '')) }; g(D)",
      'let g = (x:string) { let y = x; f(y) }; g(D)',
      'let g = () { let y = D; f(y) }; g()',
    ].map((call) => [
      `let D = 'press-02'; let f = (d:string) { States | where DeviceId == d | count }; ${call}`,
      'States | where DeviceId == "press-02" | count',
    ]),
  ])('reads a let argument as its value inside the body: %j', async (query, same) => {
    const db = await openFixtureDb();
    expect(await rowsOf(db, query)).toEqual(await rowsOf(db, same));
  });

  // union operator docs: the legs are tables or tabular expressions; a tabular function's call is one
  // (Kusto.Language reads `union f("a"), f("b")`); it was a syntax error at its parenthesis.
  it('reads a tabular function call as a union leg, as a source and after a pipe', async () => {
    const f = 'let f = (d:string) { States | where DeviceId == d };';
    const db = await openFixtureDb();
    expect(await rowsOf(db, `${f} union f("press-01"), f("press-02") | count`)).toEqual(
      await rowsOf(db, 'States | where DeviceId in ("press-01", "press-02") | count'),
    );
    expect(await rowsOf(db, `${f} Events | union f("press-01") | count`)).toEqual(
      await rowsOf(db, 'union Events, (States | where DeviceId == "press-01") | count'),
    );
    expect(compile(`${f} union withsource=T f("press-01"), Events`, options('timestream')).columns[0]?.name).toBe('T');
  });

  it('points at the body for an error inside it, wherever it is called', () => {
    // Prepare
    const query = 'let f = (x:long) {\n  x + Nope\n};\nprint f(1)';
    // Act
    const error = failure(query);
    // Assess
    expect(error.line).toBe(2);
    expect(error.column).toBe(7);
  });

  it('compiles for Timestream too: the expansion is dialect-neutral', () => {
    const compiled = compile(
      'let f = (T:(Value:dynamic), n:long = 2) { T | take n | project Name }; f(States)',
      options('timestream'),
    );
    expect(compiled.columns).toEqual([{ name: 'Name', type: 'string' }]);
    expect(compiled.sql).toContain('LIMIT 2');
  });

  it('refuses a 2^20 expansion at the term limit, quickly', () => {
    // Prepare
    const query = doublingChain(20);
    const started = performance.now();
    // Act
    const error = failure(query);
    // Assess
    // Milliseconds on a quiet machine; the bound leaves room for a loaded one (writing 2^20 copies takes seconds).
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
    expect(error.message).toContain('function calls that expand to more than 5,000 terms');
  });

  it('refuses nested calls whose shared arguments would multiply, f(f(f(...)))', () => {
    const query = `let f = (x:long) { x + x }; print ${'f('.repeat(40)}1${')'.repeat(40)}`;
    expect(failure(query).code).toBe('QUERY_TOO_MANY_TERMS');
  });

  it('accepts a small chain within the limit', () => {
    expect(compile(doublingChain(5), options('duckdb')).columns).toEqual([{ name: 'print_0', type: 'long' }]);
  });
});

describe('toscalar() computes its value once (named-expressions and toscalar pages)', () => {
  it("gives one value at every read of a function whose body is toscalar(rand(1000)), two for the body without it (the page's x, x, y, y)", async () => {
    // Prepare
    const db = await openFixtureDb();
    const query =
      'let x = () {rand(1000)}; let y = () {toscalar(rand(1000))}; range i from 1 to 20 step 1 | extend a = x, b = x, c = y, d = y';
    // Act
    const rows = (await rowsOf(db, query)) as number[][];
    // Assess: twenty rows each read y twice, all one value; x differs somewhere among 40 draws.
    expect(new Set(rows.flatMap((r) => [r[3], r[4]])).size).toBe(1);
    expect(new Set(rows.flatMap((r) => [r[1], r[2]])).size).toBeGreaterThan(1);
  });

  it("gives every row the same guid for toscalar(new_guid()) and each row its own without it (the toscalar page's g1, g2)", async () => {
    // Prepare
    const db = await openFixtureDb();
    const query =
      'let g1 = toscalar(new_guid()); let g2 = new_guid(); range x from 1 to 5 step 1 | extend x = g1, y = g2';
    // Act
    const rows = (await rowsOf(db, query)) as string[][];
    // Assess
    expect(new Set(rows.map((r) => r[0])).size).toBe(1);
    expect(new Set(rows.map((r) => r[1])).size).toBe(5);
  });

  it('reads a random tabular toscalar() once however often its let is read, and keeps a per-row rand() per row', async () => {
    // Prepare
    const db = await openFixtureDb();
    // Act
    const same = await rowsOf(db, 'let y = toscalar(print r = rand()); print a = y == y');
    const perRow = await rowsOf(db, 'range i from 1 to 10 step 1 | extend r = rand() | summarize dcount(r)');
    const differentArguments = await rowsOf(
      db,
      'let y = (n:long) {toscalar(rand(n))}; print a = y(10) < 10 and y(10) == y(10) and y(10) != y(1000000)',
    );
    // Assess
    expect(same).toEqual([[true]]);
    expect(perRow).toEqual([[10]]);
    expect(differentArguments).toEqual([[true]]);
  });
});
