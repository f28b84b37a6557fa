// Names inside user functions (expand-udf.ts, expand-udf-lets.ts, analyze-udf-columns.ts): a
// parameter or body let against a column of the body's rows, a tabular argument against its
// parameter's declared columns, and the query's lets a body sees (those before its definition).
// Expected names and types are Kusto.Language's (checked by hand against it); values follow from them.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { columnsAndRows } from './duckdb-rows';
import { openFixtureDb } from '../../golden/fixture-db';

const options = { ...baseOptions, dialect: 'duckdb' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('a parameter or body let named like a column of the rows in the body (let statement page, T6)', () => {
  it.each([
    // The column wins where the body's rows have one, as for a query's let.
    ['let f = (a:string) { datatable(a:long)[1] | extend b = a }; f("s")', ['a:long', 'b:long'], [[1, 1]]],
    ['let f = (T:(a:long)) { let a = "s"; T | extend b = a }; f(datatable(a:long)[1])', ['a:long', 'b:long'], [[1, 1]]],
    [
      'let f = (a:string) { datatable(a:long)[7] | summarize c = count() by a | extend e = a }; f("s")',
      ['a:long', 'c:long', 'e:long'],
      [[7, 1, 7]],
    ],
    ['let f = (a:string) { print b = toscalar(datatable(a:long)[3] | summarize max(a)) }; f("s")', ['b:long'], [[3]]],
    // Without such a column the value is read, and named after the parameter as a let is.
    ['let f = (a:string) { print x = 1 | project a }; f("s")', ['a:string'], [['s']]],
    ['let f = (a:string) { range x from 1 to 1 step 1 | project c = a }; f("s")', ['c:string'], [['s']]],
    // A scalar body reads its parameter, not the calling row's column of that name.
    ['let f = (a:string) { a }; datatable(a:long)[1] | extend b = f("s")', ['a:long', 'b:string'], [[1, 's']]],
  ])('%s', async (query, columns, rows) => {
    expect(await columnsAndRows(db, query)).toEqual({ columns, rows });
  });

  it.each([
    // Where an operator needs a constant, the parameter is one: take, percentiles (named by its value), bin.
    ['let f = (n:long) { datatable(n:long)[1,2,3] | take n }; f(1)', ['n:long'], [[1]]],
    [
      'let f = (p:real) { datatable(x:long)[1,2,3] | summarize percentiles(x, p) }; f(50)',
      ['percentile_x_50:long'],
      [[2]],
    ],
    [
      'let f = (w:long) { datatable(x:long)[3,4,7] | summarize c = count() by b = bin(x, w) }; f(4)',
      ['b:long', 'c:long'],
      [
        [0, 1],
        [4, 2],
      ],
    ],
    // column_ifexists' name and table()'s name may be parameters holding a constant string.
    [
      'let f = (c:string) { datatable(a:long)[5] | extend b = column_ifexists(c, 0) }; f("a")',
      ['a:long', 'b:long'],
      [[5, 5]],
    ],
    ['let f = (n:string) { let X = datatable(a:long)[1]; table(n) }; f("X")', ['a:long'], [[1]]],
  ])('reads the value where a constant is needed: %s', async (query, columns, rows) => {
    expect(await columnsAndRows(db, query)).toEqual({ columns, rows });
  });

  it('names a percentile given by a query let after its value too (Kusto.Language: percentile_x_99_5)', async () => {
    const query = 'let p = 99.5; datatable(x:long)[1] | summarize percentiles(x, p)';
    expect((await columnsAndRows(db, query)).columns).toEqual(['percentile_x_99_5:long']);
  });
});

describe("a tabular argument against its parameter's declared columns (let statement page, T7)", () => {
  it.each([
    ['let f = (T:(a:long)) { T }; f(datatable(b:long)[1])', "the table passed to 'f' has no column 'a'", '1:31'],
    ['let f = (T:(a:long)) { T }; f(datatable(a:int)[1])', "has 'a' as int; its parameter T declares a:long", '1:31'],
    ['let f = (T:(a:real)) { T | extend t = gettype(a) }; f(datatable(a:long)[1])', "has 'a' as long", '1:55'],
    ['let f = (T:(a:int)) { T }; f(datatable(a:long)[1])', "has 'a' as long", '1:30'],
    ['let f = (T:(A:long)) { T }; f(datatable(a:long)[1])', "has no column 'A'", '1:31'],
    ['let f = (T:(a:dynamic)) { T }; f(datatable(a:string)["x"])', "has 'a' as string", '1:34'],
    // invoke passes the table before it: refused there.
    ['let f = (T:(a:long)) { T }; datatable(b:long)[1] | invoke f()', "has no column 'a'", '1:29'],
  ])('refuses %s', (query, message, position) => {
    expectRefusedAt(query, options, { code: 'QUERY_SEMANTIC', message, position });
  });

  it.each([
    // Other columns may come along, in any order; (*) declares none.
    ['let f = (T:(a:long)) { T }; f(datatable(b:string, a:long)["x", 1])', ['b:string', 'a:long'], [['x', 1]]],
    ['let f = (T:(*)) { T }; f(datatable(b:long)[1])', ['b:long'], [[1]]],
    [
      'let f = (T:(Value:dynamic)) { T | count }; States | where DeviceId == "press-01" | invoke f()',
      ['Count:long'],
      [[6]],
    ],
  ])('accepts %s', async (query, columns, rows) => {
    const answer = await columnsAndRows(db, query);
    expect(answer.columns).toEqual(columns);
    if (query.includes('States')) expect(answer.rows[0]![0]).toBeGreaterThan(0);
    else expect(answer.rows).toEqual(rows);
  });
});

describe('the query lets a body reads: those before its definition (T8)', () => {
  it.each([
    ['let x = 1; let f = () { x }; let x = 2; print f()', [[1]]],
    ['let x = 1; let f = (y:long = x) { y }; let x = 2; print f()', [[1]]],
    ['let x = 1; let f = () { let x = 2; x }; print f()', [[2]]],
    ['let x = 1; let f = () { x }; let g = () { f() + x }; let x = 10; print g()', [[2]]],
    ['let x = 1; let f = () { x }; let x = 2; let x = 3; print f() * 100 + x', [[103]]],
  ])('%s', async (query, rows) => {
    expect((await columnsAndRows(db, query)).rows).toEqual(rows);
  });

  it('reads the tabular let of its definition, not a later one of that name', async () => {
    const query =
      'let T = datatable(a:long)[1,2]; let f = () { T | where a > 1 }; let T = datatable(b:string)["x"]; f()';
    expect(await columnsAndRows(db, query)).toEqual({ columns: ['a:long'], rows: [[2]] });
  });

  it('reads no let declared after the definition, but a column of that name', async () => {
    expectRefusedAt('let f = () { x }; let x = 2; print f()', options, {
      code: 'QUERY_SEMANTIC',
      message: "unknown column 'x'",
      position: '1:14',
    });
    const query = 'let f = () { datatable(x:long)[5] | extend y = x }; let x = 2; f()';
    expect((await columnsAndRows(db, query)).rows).toEqual([[5, 5]]);
  });
});

describe('names a body binds for itself (udf sweep)', () => {
  it("reads a body's materialize() let once however often the body reads it (materialize page)", async () => {
    const query =
      'let f = () { let m = materialize(range x from 1 to 200 step 1 | project r = rand(1000000)); union (m | summarize s = sum(r)), (m | summarize s = sum(r)) | summarize Legs = count(), Distinct = dcount(s) }; f()';
    expect((await columnsAndRows(db, query)).rows).toEqual([[2, 1]]);
  });

  it('reads `as T` after it, not the tabular parameter T (as operator page)', async () => {
    const query =
      "let L = datatable(type:string, Name:string, Id:long)['Event','Start',1,'Event','Stop',1,'Event','Start',2,'Trace','Stop',2]; let f = (T:(*)) { T | where type == 'Event' | as T | where Name == 'Start' | join (T | where Name == 'Stop') on Id | project Id }; f(L)";
    expect((await columnsAndRows(db, query)).rows).toEqual([[1]]);
  });

  it("reads graph-match's edge name, not a body let of that name (graph-match page)", async () => {
    const query =
      "let f = () { let e = datatable(a:string, b:string)['x','y','y','z']; e | make-graph a --> b | graph-match (s)-[e*1..2]->(d) project p = strcat_array(map(e, b), ',') }; f()";
    const answer = await columnsAndRows(db, query);
    expect(answer.columns).toEqual(['p:string']);
    expect(answer.rows.map((r) => r[0]).sort()).toEqual(['y', 'y,z', 'z']);
  });
});

describe('bracketed parameter names (entity names page: quoting applies to parameters too; casemut M2)', () => {
  it.each([
    ["let f = (['n']:int) { n + 1 }; print f(2)", ['print_0:long'], [[3]]],
    [
      "let f = (['my n']:int, [\"T\"]:(['a b']:long)) { T | extend y = ['a b'] + ['my n'] }; f(2, datatable(['a b']:long)[1])",
      ['a b:long', 'y:long'],
      [[1, 3]],
    ],
  ])('%s', async (query, columns, rows) => {
    expect(await columnsAndRows(db, query)).toEqual({ columns, rows });
  });
});
