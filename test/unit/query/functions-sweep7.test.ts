// What the seventh docs sweep fixed (docs/query-api.md, "The docs' examples"): IPv4 text after `::`
// in the IPv6 functions, make_set of arrays, arg_max/arg_min of a group whose maximized value is
// always null, and the deprecated aggregations argmax()/argmin(), makelist()/makeset() and
// make_dictionary(). The pages' printed examples are conformance cases
// (test/conformance/cases/fn-sweep7-*.json); these pin the rules around them.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { columnsAndRows, rowsOf } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

/** Two products, two suppliers each, as the argmin page's Supplies table. */
const SUPPLIES =
  'datatable(Product:string, Price:real, Supplier:string, Qty:long)["p", 1.0, "a", 3, "p", 2.0, "b", 4, "q", 5.0, "c", 1]';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('IPv6 functions: IPv4 text after ::', () => {
  it('reads ::a.b.c.d as the IPv4 address, its prefix counted from bit 96', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = parse_ipv6("::10.1.2.3"), b = parse_ipv6("::10.1.2.3/8"), c = parse_ipv6_mask("::10.1.2.3", 112), d = parse_ipv6("::1")',
    );

    // Assess: as '10.1.2.3' would be; a plain IPv6 '::1' is unchanged.
    expect(rows).toEqual([
      [
        '0000:0000:0000:0000:0000:ffff:0a01:0203',
        '0000:0000:0000:0000:0000:ffff:0a00:0000',
        '0000:0000:0000:0000:0000:ffff:0a01:0000',
        '0000:0000:0000:0000:0000:0000:0000:0001',
      ],
    ]);
  });

  it('compares and matches ::a.b.c.d with the same IPv4 text', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print c = ipv6_compare("::10.1.2.3", "10.1.2.3"), m = ipv6_is_match("::10.1.2.3/24", "10.1.2.200"), r = ipv6_is_in_range("10.1.2.3", "::10.1.0.0/16")',
    );

    // Assess
    expect(rows).toEqual([[0, true, true]]);
  });
});

describe('make_set of dynamic values', () => {
  it('gathers the elements of arrays and other values, each once, in the order they first come', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'datatable(x:dynamic)[dynamic([1,2]), dynamic(3), dynamic(null), dynamic([2,{"a":1}]), dynamic("s")] | summarize s = make_set(x), m = make_set(x, 2), i = make_set_if(x, true), l = make_list(x)',
    );

    // Assess: make_list keeps each value whole.
    expect(rows).toEqual([
      [
        [1, 2, 3, { a: 1 }, 's'],
        [1, 2],
        [1, 2, 3, { a: 1 }, 's'],
        [[1, 2], 3, [2, { a: 1 }], 's'],
      ],
    ]);
  });

  it('gives an empty set for no rows and one set per group', async () => {
    // Act
    const empty = await rowsOf(db, 'datatable(x:dynamic)[] | summarize s = make_set(x)');
    const grouped = await rowsOf(
      db,
      'datatable(k:string, x:dynamic)["a", dynamic([1,1]), "b", dynamic([2]), "a", dynamic([3])] | summarize s = make_set(x) by k | order by k asc',
    );

    // Assess
    expect(empty).toEqual([[[]]]);
    expect(grouped).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
  });

  it('writes the elements of arrays on Timestream too', () => {
    // Act
    const { sql } = compile('States | summarize make_set(Value)', ts);

    // Assess
    expect(sql).toContain('flatten(');
    expect(sql).toContain('array_distinct(');
  });
});

describe('arg_max and arg_min where the expression is null in every row of a group', () => {
  it('picks one row of the group, every returned column from that row', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'datatable(k:string, v:long, c:string, n:long)["a", long(null), "x", 1, "a", long(null), "y", 2, "b", 1, "z", 3, "b", long(null), "w", 4] | summarize arg_max(v, c, n), arg_min(v, c, n) by k | order by k asc',
    );

    // Assess: "a" keeps one of its rows (x with 1 or y with 2), never a mix nor nulls; "b" ignores its null row.
    expect(rows[1]).toEqual(['b', 1, 'z', 3, 1, 'z', 3]);
    const [a] = rows;
    expect(a![0]).toBe('a');
    expect([a![1], a![4]]).toEqual([null, null]);
    expect(['x,1', 'y,2']).toContain(`${a![2]},${a![3]}`);
    expect(['x,1', 'y,2']).toContain(`${a![5]},${a![6]}`);
  });

  it('keeps a null returned value of the picked row (the columns never come from different rows)', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'datatable(k:string, v:long, n:long, m:long)["a", long(null), long(null), 1, "a", long(null), 2, long(null)] | summarize arg_max(v, n, m)',
    );

    // Assess: (null, 1) or (2, null): a per-column pick that skips nulls would give (2, 1).
    expect(['null,1', '2,null']).toContain(`${rows[0]![1]},${rows[0]![2]}`);
  });

  it('picks one row of an all-null group as well when the expression is long (written as a sort key)', async () => {
    // Prepare: todouble() of a dynamic is SQL long enough for the sort-key form.
    const q =
      'datatable(k:string, d:dynamic, c:string)["a", dynamic(null), "x", "a", dynamic(null), "y", "b", dynamic(1), "z", "b", dynamic(2), "w"] | summarize arg_max(todouble(d), c), arg_min(todouble(d), c) by k | order by k asc';

    // Act
    const rows = await rowsOf(db, q);

    // Assess
    expect(compile(q, duck).sql).toContain('create_sort_key(');
    expect(rows[1]).toEqual(['b', 2, 'w', 1, 'z']);
    expect(rows[0]!.slice(0, 2)).toEqual(['a', null]);
    expect(['x', 'y']).toContain(rows[0]![2]);
  });

  it('writes the maximized expression once per returned column: arg_max(expr, *) over a 4-way join compiles', () => {
    // Prepare: about 80 input columns, each returned at the row of the largest sum.
    const by = 'todouble(Value) + todouble(Value1) + todouble(Value2) * 2';
    const q = `States | join kind=inner (Events) on DeviceId | join kind=inner (States) on DeviceId | join kind=inner (Events) on DeviceId | summarize arg_max(${by}, *) by DeviceId`;

    // Act
    const c = compile(q, duck);

    // Assess: it was past the SQL size limit when each column wrote the sum twice (count() and
    // arg_max); now one sort key per returned column and no second form.
    expect(c.sql.split('create_sort_key(').length - 1).toBe(c.columns.length - 1);
    expect(c.sql).not.toMatch(/\b(count|first)\(/);
    expect(compile(q, ts).sql).toContain('max_by(');
  });

  it('on Timestream, picks every column of an all-null group with one max_by key, never arbitrary()', () => {
    // Act
    const argMax = compile(
      'datatable(k:string, v:long, c:long)["a", long(null), 1] | summarize arg_max(v, c) by k',
      ts,
    ).sql;
    const takeAny = compile('datatable(v:long, c:long)[long(null), 1] | summarize take_any(v, c)', ts).sql;

    // Assess: arbitrary() skips nulls per column, so the columns could come from different rows.
    expect(argMax).toMatch(/CASE WHEN count\("_c2"\) > 0 THEN max_by\("_c3", "_c2"\) ELSE max_by\("_c3", 0\) END/);
    expect(argMax).not.toContain('arbitrary(');
    expect(takeAny).toContain('max_by("_c1", 0)');
    expect(takeAny).not.toContain('arbitrary(');
  });
});

describe('deprecated aggregations', () => {
  it('names argmax/argmin columns after the first argument, as Kusto.Language does', async () => {
    // Act
    const { columns, rows } = await columnsAndRows(
      db,
      `${SUPPLIES} | summarize argmax(Price, Supplier, Qty + 1), argmin(todouble(Qty), *) by Product | order by Product asc`,
    );

    // Assess: * leaves out the by key; Qty comes again, as todouble(Qty) is not the column itself.
    expect(columns).toEqual([
      'Product:string',
      'max_Price:real',
      'max_Price_Supplier:string',
      'max_Price_arg2:long',
      'min_Qty:real',
      'min_Qty_Price:real',
      'min_Qty_Supplier:string',
      'min_Qty_Qty:long',
    ]);
    expect(rows).toEqual([
      ['p', 2, 'b', 5, 3, 1, 'a', 3],
      ['q', 5, 'c', 2, 1, 5, 'c', 1],
    ]);
  });

  it('names the columns of an argmin given names, as arg_min', () => {
    // Act
    const { columns } = compile(
      `${SUPPLIES} | summarize (lo, who) = argmin(Price, Supplier), top = argmax(Price, Supplier)`,
      duck,
    );

    // Assess
    expect(columns.map((c) => c.name)).toEqual(['lo', 'who', 'top', 'max_Price_Supplier']);
  });

  it('keeps 128 elements in makelist, makeset and make_dictionary unless a maxSize is given', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'range x from 1 to 300 step 1 | extend p = bag_pack(tostring(x), x) | summarize l = makelist(x), s = makeset(x), d = make_dictionary(p), l5 = makelist(x, 5), m = make_list(x), b = make_bag(p) | project array_length(l), array_length(s), array_length(bag_keys(d)), l5, array_length(m), array_length(bag_keys(b))',
    );

    // Assess: make_list and make_bag keep all 300.
    expect(rows).toEqual([[128, 128, 128, [1, 2, 3, 4, 5], 300, 300]]);
  });

  it('names makelist, makeset and make_dictionary as Kusto.Language does', () => {
    // Act
    const { columns } = compile(
      'datatable(x:long, p:dynamic)[] | summarize makelist(x), makeset(x), make_dictionary(p)',
      duck,
    );

    // Assess
    expect(columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'list_x:dynamic',
      'set_x:dynamic',
      'dictionary_p:dynamic',
    ]);
  });

  it('checks the maxSize of makelist as make_list', () => {
    // Act, Assess
    expectRefusedAt('datatable(x:long)[] | summarize makelist(x, 0)', duck, {
      code: 'QUERY_SEMANTIC',
      message: 'the maximum size of makelist() must be a constant integer between 1 and 1048576',
      position: '1:45',
    });
  });
});
