// Operands that used to be refused for not being constants: the values of in / !in / in~ / !in~
// may be columns and expressions (in operator docs: a list of scalar expressions), and bin()'s size
// may be a folded constant (`2 * 1h`, a let of one) or a column (bin page: any positive size; null
// where it is not). Run on DuckDB against the value each row must give.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';

const duckdb: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };
const timestream: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'timestream' };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

async function rowsOf(query: string): Promise<unknown[][]> {
  const compiled = compile(query, duckdb);
  return convertRows(
    await runSql(db, compiled.sql),
    compiled.columns.map((c) => c.type),
  );
}

const PAIRS = 'datatable(a:long, b:long)[1, 2, 3, 3, 5, long(null), 7, 8, long(null), 1]';

describe('in with columns and expressions in the list', () => {
  it('keeps the rows whose value equals a listed column or constant', async () => {
    expect(await rowsOf(`${PAIRS} | where a in (b, 1) | project a`)).toEqual([[1], [3]]);
    expect(await rowsOf(`${PAIRS} | where a in (b + 1, b - 1) | project a`)).toEqual([[1], [7]]);
  });

  it('!in keeps a row whose listed column is null, as != does', async () => {
    expect(await rowsOf(`${PAIRS} | where a !in (b, 1) | project a`)).toEqual([[5], [7], [null]]);
    expect(await rowsOf(`${PAIRS} | extend t = a in (b) | project t`)).toEqual([
      [false],
      [true],
      [false],
      [false],
      [false],
    ]);
  });

  it('in~ and !in~ compare with listed columns case-insensitively', async () => {
    const table = 'datatable(a:string, b:string)["Pump", "pump", "Fan", "fan2", "x", ""]';
    expect(await rowsOf(`${table} | where a in~ (b, "X") | project a`)).toEqual([['Pump'], ['x']]);
    expect(await rowsOf(`${table} | where a !in~ (b) | project a`)).toEqual([['Fan'], ['x']]);
  });

  it('compares a dynamic left side with a listed typed column as == does', async () => {
    const table = 'datatable(v:dynamic, n:long)[1, 1, "x", 1, 2.5, 2]';
    expect(await rowsOf(`${table} | where v in (n) | project n`)).toEqual([[1]]);
  });

  it('writes the list on Timestream too', () => {
    const sql = compile('States | where Name in (Uid, DeviceId, "x")', timestream).sql;
    expect(sql).toMatch(/IN \([^)]*"Uid"?[^)]*\)/i);
  });

  // in operator docs: each value "can be a scalar value"; a dynamic array stands for its elements.
  it('tests the elements of a dynamic array known only per row: a toscalar() let or a column', async () => {
    const ids = 'let ids = toscalar(datatable(b:long)[2, 4] | summarize make_list(b));';
    expect(await rowsOf(`${ids} range a from 1 to 5 step 1 | where a in (ids) | project a`)).toEqual([[2], [4]]);
    expect(await rowsOf(`${ids} range a from 1 to 5 step 1 | where a !in (ids, 5) | project a`)).toEqual([[1], [3]]);
    const table = 'datatable(a:long, d:dynamic)[1, dynamic([1, 2]), 3, dynamic([4]), 5, dynamic(null)]';
    expect(await rowsOf(`${table} | project t = a in (d), f = a !in (d)`)).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
    const names = 'datatable(s:string, d:dynamic)["x", dynamic(["x", "y"]), "X", dynamic(["x"])]';
    expect(await rowsOf(`${names} | where s in (d) | project s`)).toEqual([['x']]);
  });

  // As with a constant array (`1.0 in (dynamic([1]))` holds), a number matches an element of the same value of another numeric type.
  it('compares numbers with a per-row array as numbers', async () => {
    const longs = 'let s = toscalar(range i from 1 to 3 step 1 | summarize make_list(i));';
    const reals = 'let s = toscalar(range i from 1 to 3 step 1 | summarize make_list(toreal(i)));';
    expect(await rowsOf(`${longs} range j from 1 to 3 step 1 | where toreal(j) in (s) | count`)).toEqual([[3]]);
    expect(await rowsOf(`${reals} range j from 1 to 3 step 1 | where j in (s) | count`)).toEqual([[3]]);
    expect(await rowsOf(`${longs} range j from 1 to 3 step 1 | where toreal(j) + 0.5 in (s) | count`)).toEqual([[0]]);
    expect(
      await rowsOf(`${longs} range j from 1 to 3 step 1 | where toreal(j) in (dynamic([1, 2, 3])) | count`),
    ).toEqual([[3]]);
  });

  // has_any operator docs: each value "can be a scalar value"; has_any_index() tests an array's terms per row.
  it('tests the terms of a dynamic array known only per row with has_any', async () => {
    const terms = 'let t = toscalar(datatable(x:string)["err", "warn"] | summarize make_list(x));';
    const lines = 'datatable(s:string)["an err here", "ok", "WARN!", "error"]';
    expect(await rowsOf(`${terms} ${lines} | where s has_any (t) | project s`)).toEqual([['an err here'], ['WARN!']]);
    expect(await rowsOf(`${terms} ${lines} | where s has_any (t, "ok") | project s`)).toEqual([
      ['an err here'],
      ['ok'],
      ['WARN!'],
    ]);
    const table = 'datatable(s:string, d:dynamic)["a b", dynamic(["b"]), "c", dynamic(null), "x", dynamic(["y"])]';
    expect(await rowsOf(`${table} | project s has_any (d)`)).toEqual([[true], [false], [false]]);
  });

  it('searches an integer or bool term of has_any/has_all as its text, and refuses another computed constant', async () => {
    // Act
    const rows = await rowsOf(
      'print a = "1 2" has_any (2), b = "1 true" has_all (true, 1), c = dynamic([1, 2]) has_any (dynamic([2])), d = "1 22" has_any (2)',
    );
    // Assess
    expect(rows).toEqual([[true, true, true, false]]);
    expectRefusedAt('print "ab cd" has_any (strcat("c", "d"))', duckdb, {
      code: 'QUERY_UNSUPPORTED',
      message: "the values of 'has_any' must be string literals",
      position: '1:24',
    });
    expectRefusedAt('print "1.5 2" has_all ("2", 1.5)', duckdb, {
      code: 'QUERY_UNSUPPORTED',
      message: "the values of 'has_all' must be string literals",
      position: '1:29',
    });
  });

  it('still refuses a non-constant dynamic value of in~, a column of another type and a non-constant has_any term', () => {
    expectRefusedAt('datatable(a:string, b:dynamic)["x", dynamic(["X"])] | where a in~ (b)', duckdb, {
      code: 'QUERY_UNSUPPORTED',
      message: "a dynamic value of 'in~' must be a constant",
      position: '1:68',
    });
    expectRefusedAt('datatable(a:long, b:string)[1, "1"] | where a in (b)', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: 'cannot compare long with string',
      position: '1:51',
    });
    expectRefusedAt('datatable(a:string)["a"] | where a has_any (a)', duckdb, {
      code: 'QUERY_UNSUPPORTED',
      message: "the values of 'has_any' must be constants",
      position: '1:45',
    });
    expectRefusedAt('datatable(a:string, d:dynamic)["a", dynamic(["a"])] | where a has_all (d)', duckdb, {
      code: 'QUERY_UNSUPPORTED',
      message: "the values of 'has_all' must be constants",
      position: '1:72',
    });
  });
});

describe('in and has_any over a dynamic array computed from constants', () => {
  it('tests the elements of parse_json(...) as those of dynamic([...]), not its JSON text', async () => {
    // Act
    const rows = await rowsOf(
      `print a = "hello world" has_any (parse_json('["world"]')), b = 1 in (parse_json('[1, 2]')), c = 3 !in (parse_json('[1, 2]')), d = "x" in (parse_json('["y"]'), "x")`,
    );

    // Assess: has_any searched for the term '["world"]' (false); in was a 400 "cannot compare".
    expect(rows).toEqual([[true, true, true, true]]);
  });

  it('refuses has_all and in~ over such an array rather than reading its text', () => {
    expectRefusedAt(`print "a b" has_all (parse_json('["a"]'))`, duckdb, {
      code: 'QUERY_UNSUPPORTED',
      message: "the array of 'has_all' must be written as a dynamic literal (dynamic([...])), not computed",
      position: '1:22',
    });
  });
});

describe('case-insensitive string operators fold ASCII letters only', () => {
  // "Case-insensitive operators are currently supported only for ASCII-text. For non-ASCII
  // comparison, use the tolower() function" (in~, startswith, endswith, hasprefix pages).
  const T = 'datatable(s:string)["Éa", "éA", "ÉA", "x ÉAb y"]';

  it("matches a constant with a letter beyond ASCII only in that letter's own case", async () => {
    // Act
    const rows = await rowsOf(
      `${T} | project s, eq = s =~ "ÉA", ne = s !~ "ÉA", in_ = s in~ ("éa", "zz"), c = s contains "Éa", sw = s startswith "éa", ew = s endswith "Éa", h = s has "Éab", hp = s hasprefix "éa"`,
    );

    // Assess: É matches É only; the ASCII a matches a and A.
    expect(rows).toEqual([
      ['Éa', true, false, false, true, false, true, false, false],
      ['éA', false, true, true, false, true, false, false, true],
      ['ÉA', true, false, false, true, false, true, false, false],
      ['x ÉAb y', false, true, false, true, false, false, true, false],
    ]);
  });

  it('keeps lower() for ASCII constants, and folds a constant on the left of =~ the same way', async () => {
    // Act
    const ascii = compile('datatable(s:string)["A"] | where s =~ "a" and s contains "B"', duckdb).sql;
    const left = await rowsOf(`${T} | where "éa" =~ s`);

    // Assess
    expect(ascii).toContain('lower(');
    expect(ascii).not.toContain('regexp');
    expect(left).toEqual([['éA']]);
  });

  it("writes the same folding on Timestream, anchored with \\A and \\z (Java's $ also matches before a newline)", () => {
    // Act
    const sql = compile('datatable(s:string)["A"] | where s =~ "Éa"', timestream).sql;

    // Assess
    expect(sql).toContain('regexp_like("_c1", \'\\AÉ[aA]\\z\')');
  });

  it('tests in~ of constants beyond ASCII with one regex of all of them, not one per constant', async () => {
    // Act
    const sql = compile('datatable(s:string)["A"] | where s in~ ("Zürich", "München", "Oslo", "Éa")', duckdb).sql;
    const rows = await rowsOf(
      'print a = "ÉA" in~ ("Éa"), b = "é" in~ ("É"), c = "É" in~ ("É"), d = "ÉA" !in~ ("x", "Éa"), e = "MÜNCHEN" in~ ("München"), f = "oslo" in~ ("Zürich", "OSLO")',
    );

    // Assess: one alternation holds every constant, its ASCII letters in either case.
    expect(sql.match(/regexp_matches/g)).toHaveLength(1);
    expect(sql).toContain("'\\A(?:[zZ]ü[rR][iI][cC][hH]|[mM]ü[nN][cC][hH][eE][nN]|[oO][sS][lL][oO]|É[aA])\\z'");
    expect(sql).not.toContain(' IN (');
    expect(rows).toEqual([[true, false, true, false, false, true]]);
  });

  it('keeps lower() for a column listed by in~ beside constants beyond ASCII', async () => {
    // Act
    const rows = await rowsOf(`${T} | extend t = "ÉA" | project s, in_ = s in~ (t, "zz", "éa")`);

    // Assess: the column t matches through lower(), so "éA" also equals "ÉA" there.
    expect(rows).toEqual([
      ['Éa', true],
      ['éA', true],
      ['ÉA', true],
      ['x ÉAb y', false],
    ]);
  });
});

describe('the legacy containscs, notcontains and notcontainscs operators (Kusto.Language reads them)', () => {
  it('are contains_cs, !contains and !contains_cs', async () => {
    // Act
    const legacy = await rowsOf(
      'datatable(s:string)["FabriKam", "fabrikam"] | project s, a = s containscs "Kam", b = s notcontains "KAM", c = s notcontainscs "Kam"',
    );
    const current = await rowsOf(
      'datatable(s:string)["FabriKam", "fabrikam"] | project s, a = s contains_cs "Kam", b = s !contains "KAM", c = s !contains_cs "Kam"',
    );

    // Assess
    expect(legacy).toEqual([
      ['FabriKam', true, false, false],
      ['fabrikam', false, false, true],
    ]);
    expect(legacy).toEqual(current);
  });
});

describe('bin() sizes written as constant expressions', () => {
  const at = 'datetime(2024-01-01 05:10)';

  it('folds number * timespan, timespan * number and a let of either into the same bin', async () => {
    const expected = [['2024-01-01T04:00:00Z']];
    for (const size of ['2 * 1h', '1h * 2', '2.0 * 1h', 'timespan(1h) * 2'])
      expect(await rowsOf(`print bin(${at}, ${size})`)).toEqual(expected);
    expect(await rowsOf(`let span = 2 * 1h; print bin(${at}, span)`)).toEqual(expected);
    expect(compile(`print bin(${at}, 2 * 1h)`, duckdb).sql).toBe(compile(`print bin(${at}, 2h)`, duckdb).sql);
  });

  it('takes a folded step in range and make-series', async () => {
    expect(await rowsOf('range t from datetime(2024-01-01) to datetime(2024-01-02) step 2 * 6h | count')).toEqual([
      [3],
    ]);
    const series = await rowsOf(
      'range t from datetime(2024-01-01) to datetime(2024-01-01 23:00) step 6h | make-series c = count() default = 0 on t from datetime(2024-01-01) to datetime(2024-01-02) step 2 * 6h | project c',
    );
    expect(series).toEqual([[[2, 2]]]);
  });
});

describe('bin() of a size computed per row', () => {
  const times = ['2024-03-06 17:47:13', '0999-12-31 23:59:59', '1969-12-31 23:59:59', '2000-01-03 00:00:00'];
  const sizes = ['1h', '2d', '7d', '10d', '90m'];

  it('gives the bucket a constant size gives, counted from 0001-01-01', async () => {
    const rows = times.flatMap((t) => sizes.map((s) => `datetime(${t}), ${s}`)).join(', ');
    const binned = await rowsOf(`datatable(t:datetime, s:timespan)[${rows}] | project bin(t, s)`);
    const expected: unknown[][] = [];
    for (const t of times) for (const s of sizes) expected.push(...(await rowsOf(`print bin(datetime(${t}), ${s})`)));
    expect(binned).toEqual(expected);
  });

  it('gives null for a null, zero or negative size, on datetimes, timespans and numbers', async () => {
    expect(
      await rowsOf(
        'datatable(t:datetime, s:timespan)[datetime(2024-01-01), 0s, datetime(2024-01-01), -1h, datetime(2024-01-01), timespan(null)] | project bin(t, s)',
      ),
    ).toEqual([[null], [null], [null]]);
    expect(await rowsOf('datatable(x:timespan, s:timespan)[-5m, 2m, 5m, 0s] | project bin(x, s)')).toEqual([
      ['-00:06:00'],
      [null],
    ]);
    expect(await rowsOf('datatable(x:long, s:long)[-7, 3, 7, -3, 7, 0] | project bin(x, s)')).toEqual([
      [-9],
      [null],
      [null],
    ]);
    expect(await rowsOf('datatable(x:real, s:real)[-7.5, 2.0, 7.5, -2.0] | project bin(x, s)')).toEqual([[-8], [null]]);
  });

  it('writes a per-row datetime bin on Timestream', () => {
    const sql = compile('States | summarize count() by bin(Timestamp, IngestionTimestamp - Timestamp)', timestream).sql;
    expect(sql).toContain('from_nanoseconds(');
    expect(sql).toContain('> 0 THEN');
  });
});

describe('bag_remove_keys with keys computed per row', () => {
  it('drops the listed first-level keys, $.name and $[name] alike, and ignores other elements', async () => {
    const table = `datatable(b:dynamic, k:dynamic)[
      dynamic({"a":1, "b":{"c":2}, "d":3}), dynamic(["a", "d", 5]),
      dynamic({"a":1, "b":2}), dynamic(["$.b"]),
      dynamic({"a":1, "b":2}), dynamic(["$['a']", "$.b.c"]),
      dynamic({"a":1, "b":2}), dynamic("a"),
      dynamic([1]), dynamic(["a"])]`;
    expect(await rowsOf(`${table} | project bag_remove_keys(b, k)`)).toEqual([
      [{ b: { c: 2 } }],
      [{ a: 1 }],
      [{ b: 2 }],
      [{ a: 1, b: 2 }],
      [null],
    ]);
  });

  it('mv-apply gives back the input column its sub-query expanded, whole (3 rows of 3 elements)', async () => {
    const query = `datatable(k:string, v:dynamic)["x", dynamic([1, 2, 3])]
      | mv-apply e = v on (mv-expand v | summarize n = count())`;
    expect(await rowsOf(query)).toEqual([['x', [1, 2, 3], 9]]);
  });
});

describe('dynamic arguments Kusto.Language accepts', () => {
  it('repeat() copies a dynamic value as it is', async () => {
    expect(await rowsOf('print repeat(dynamic("ab"), 2), repeat(dynamic([1, 2]), 2)')).toEqual([
      [
        ['ab', 'ab'],
        [
          [1, 2],
          [1, 2],
        ],
      ],
    ]);
  });

  it('format_ipv4() reads a dynamic value as its text, "" when that is no address', async () => {
    expect(
      await rowsOf(
        'print format_ipv4(dynamic("10.1.2.3")), format_ipv4(dynamic("10.1.2.3"), 24), format_ipv4(dynamic({"a": 1}))',
      ),
    ).toEqual([['10.1.2.3', '10.1.2.0', '']]);
  });

  it('isutf8() reads a dynamic value as its text', async () => {
    expect(await rowsOf('print isutf8(dynamic("x")), isutf8(dynamic([1]))')).toEqual([[true, true]]);
  });
});

describe('tdigest(expr, weight)', () => {
  const table = 'datatable(x:long, w:long)[1, 2, 3, 1, 5, 0, long(null), 3, 7, long(null), 9, 4]';

  it('gives percentile_tdigest the answer of percentilew and counts weights in rank_tdigest', async () => {
    const [digestRow] = await rowsOf(
      `${table} | summarize d = tdigest(x, w) | project p = pack_array(percentile_tdigest(d, 10), percentile_tdigest(d, 50), percentile_tdigest(d, 90)), r = rank_tdigest(d, 3)`,
    );
    const [weightedRow] = await rowsOf(`${table} | summarize percentilesw_array(x, w, 10, 50, 90)`);
    expect(digestRow![0]).toEqual(weightedRow![0]);
    expect(digestRow![0]).toEqual([1, 9, 9]);
    expect(digestRow![1]).toBe(3);
  });

  it('skips rows of a negative weight (the engine ran the copies before the filter)', async () => {
    const query = 'range x from 1 to 5 step 1 | extend w = x - 3';
    const [digestRow] = await rowsOf(`${query} | summarize d = tdigest(x, w) | project percentile_tdigest(d, 50)`);
    const [weightedRow] = await rowsOf(`${query} | summarize percentilew(x, w, 50)`);
    expect(digestRow).toEqual([5]);
    expect(digestRow).toEqual(weightedRow);
  });

  it('refuses a real weight, as Kusto.Language does', () => {
    expectRefusedAt('datatable(x:long, w:real)[1, 2] | summarize tdigest(x, w)', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: "argument 'weight' must be an integer",
      position: '1:56',
    });
  });
});
