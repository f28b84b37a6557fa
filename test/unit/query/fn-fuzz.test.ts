// What the execution fuzz of the function catalog found (every function and signature called with
// edge values as literals and as column values, run on DuckDB): each case failed in the engine
// before its fix (a Binder or Conversion error, a hang) and now answers or is refused with a 400.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineError } from '../../../lib/adapters/duckdb/engine-errors';
import { MAX_REPEAT } from '../../../lib/query/catalog/arrays-reshape';
import { IIR_MAX_ELEMENTS } from '../../../lib/query/catalog/functions-v4-series';
import { TOHEX_MAX_LENGTH } from '../../../lib/query/catalog/strings';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';

const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };

describe('function fuzz: column arguments where the engine wanted constants', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('strcat_array joins with a delimiter that differs per row (a Binder Error before)', async () => {
    // Act
    const rows = await run(
      "range i from 0 to 2 step 1 | extend d = iff(i == 1, '', tostring(i)) | project r = strcat_array(dynamic([1, 'a', null]), d)",
    );
    // Assess
    expect(rows).toEqual([['10a0'], ['1a'], ['12a2']]);
  });

  it.each([
    ['set_intersect(dynamic(null), dynamic([3, 4, 1]))'],
    ['set_difference(dynamic({}), dynamic([1, 2]))'],
    ['set_difference(dynamic("s"), dynamic([1, 2]))'],
  ])('%s is null for a first argument that is a constant but no array (a Binder Error before)', async (call) => {
    // Act
    const rows = await run(`print r = ${call}`);
    // Assess
    expect(rows).toEqual([[null]]);
  });

  it('set_difference of arrays still keeps the elements absent from the second', async () => {
    // Act
    const rows = await run('print r = set_difference(dynamic([1, 2, 3, null, 3]), dynamic([1, 2]))');
    // Assess
    expect(rows).toEqual([['[3,null]']]);
  });
});

describe('function fuzz: constant arguments the engine failed on, refused at their position', () => {
  it.each([
    ['print r = extract("(a)", 5, "a")', 'the regex has no capture group 5; expected 0 (the whole match) to 1'],
    ['print r = extract("(a)", -1, "a")', 'the regex has no capture group -1'],
    ['print r = extract("(a)", 9223372036854775807, "a")', 'no capture group 9223372036854775807'],
    ['print r = extract("(a)", long(null), "a")', 'no capture group null'],
    ['print r = extract("a", 1, "a")', 'expected 0, the whole match: the regex has no groups'],
    ['print r = extract("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", 10, "abcdefghij")', 'at most group 9 is extracted here'],
  ])('%s', (query, message) => {
    expectRefusedAt(query, options, { code: 'QUERY_SEMANTIC', message, position: `1:${query.indexOf('", ') + 4}` });
  });
});

describe('function fuzz: extract keeps the groups it has', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('answers group 0, the last group and a miss', async () => {
    // Act
    const rows = await runSql(
      db,
      compile(
        'print a = extract("(a)(b)", 0, "xab"), b = extract("(a)(b)", 2, "xab"), c = extract("(a)", 1, "b")',
        options,
      ).sql,
    );
    // Assess
    expect(rows).toEqual([['ab', 'b', '']]);
  });
});

describe('function fuzz: repeat() bounded', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('fails a count past the bound at once with a data error naming it (2^31 copies ran for minutes before)', async () => {
    // Act
    const failure = await run(`range i from 0 to 1 step 1 | project r = repeat(i, ${MAX_REPEAT + 1} * i)`).then(
      () => undefined,
      (error: unknown) => engineError(error, '1GB'),
    );
    // Assess
    expect(failure).toMatchObject({ code: 'QUERY_DATA_ERROR' });
    expect((failure as Error).message).toContain(`repeat(): count is more than ${MAX_REPEAT}`);
  });

  it('builds the most elements, and a negative count is null as the page says', async () => {
    // Act
    const rows = await run(`print a = array_length(repeat(1, ${MAX_REPEAT})), b = repeat(1, -1), c = repeat(1, 0)`);
    // Assess
    expect(rows).toEqual([[String(MAX_REPEAT), null, '[]']]);
  });
});

describe('function fuzz: series_iir bounded', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('fails a series past the bound at once with a data error (100,000 elements ran past a minute, uninterruptible)', async () => {
    // Act
    const failure = await run(
      `print r = series_iir(range(1, ${IIR_MAX_ELEMENTS + 1}, 1), dynamic([1]), dynamic([1, 0.5]))`,
    ).then(
      () => undefined,
      (error: unknown) => engineError(error, '1GB'),
    );
    // Assess
    expect(failure).toMatchObject({ code: 'QUERY_DATA_ERROR' });
    expect((failure as Error).message).toContain(`series_iir(): the series has more than ${IIR_MAX_ELEMENTS} elements`);
  });

  it('still filters with feedback, non-numbers counting as 0', async () => {
    // Act: y[i] = x[i] + 2 x[i-1] + 3 x[i-2] - 0.5 y[i-1] - 0.25 y[i-2]
    const rows = await run(
      "print r = series_iir(dynamic([1, 2, 3, 4, null, 'a', 6]), dynamic([1, 2, 3]), dynamic([1, 0.5, 0.25]))",
    );
    // Assess
    expect(rows).toEqual([['[1.0,3.5,8.0,11.125,9.4375,4.5,1.390625]']]);
  });
});

describe('function fuzz: base64_decode_toarray in one pass', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('decodes a 100,000-character text (past a minute, uninterruptible, before)', async () => {
    // Act
    const started = performance.now();
    const rows = await run("print n = array_length(base64_decode_toarray(strrep('QUJD', 25000)))");
    // Assess: 75,000 bytes; the old form took over 60 s, the new one well under a second.
    expect(rows).toEqual([['75000']]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('keeps every byte value, an empty text and a text that is no base64', async () => {
    // Act
    const rows = await run(
      "print a = base64_decode_toarray('AP8QgA=='), b = base64_decode_toarray(''), c = base64_decode_toarray('!!')",
    );
    // Assess
    expect(rows).toEqual([['[0,255,16,128]', '[]', null]]);
  });
});

describe('function fuzz: format_ipv4 of a scalar that is no address', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is empty for a datetime, timespan, bool or guid (a datetime was a Binder Error), as for text that does not convert', async () => {
    // Act
    const rows = await runSql(
      db,
      compile(
        'print a = format_ipv4(datetime(2024-01-01), 24), b = format_ipv4_mask(now()), c = format_ipv4(true), d = format_ipv4(1s), e = format_ipv4(guid(null)), f = format_ipv4(3232235777), g = format_ipv4_mask(3232235777, 16)',
        options,
      ).sql,
    );
    // Assess
    expect(rows).toEqual([['', '', '', '', '', '192.168.1.1', '192.168.0.0/16']]);
  });
});

describe('function fuzz: tohex() padding bounded', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('cuts minLength to 16, as the tohex page says ("Values greater than 16 are truncated to 16")', async () => {
    // Act: widths that padded for a minute and gigabytes, or failed a cast to INTEGER, before a bound.
    const rows = await run(
      'print a = tohex(255, 20), b = tohex(-256, 17), c = tohex(toint(-256), int(2147483647)), d = tohex(1, 9223372036854775807)',
    );
    // Assess
    expect(rows).toEqual([['00000000000000ff', 'ffffffffffffff00', '00000000ffffff00', '0000000000000001']]);
  });

  it('still pads up to the bound, and a width below the digits or null keeps them', async () => {
    // Act
    const rows = await run(
      `print a = tohex(255, 4), b = tohex(255, -3), c = tohex(255, long(null)), d = strlen(tohex(1, ${TOHEX_MAX_LENGTH}))`,
    );
    // Assess
    expect(rows).toEqual([['00ff', 'ff', 'ff', String(TOHEX_MAX_LENGTH)]]);
  });
});

describe('function fuzz: has_any_index with many items', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('looks up 100,000 one-term items in the terms of the text (3,000 took 26 s before, one regex each)', async () => {
    // Act
    const started = performance.now();
    const rows = await run(
      'print a = has_any_index("x 99999 y", range(1, 100000, 1)), b = has_any_index("helloworld", range(1, 100000, 1))',
    );
    // Assess
    expect(rows).toEqual([[99998, -1]]);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('keeps whole-term, case-insensitive matching for one-term and other items alike', async () => {
    // Act
    const rows = await run(
      'print a = has_any_index("this is an EXAMPLE", dynamic(["not", "Example"])), b = has_any_index("a-b c", dynamic(["x", "a-b"])), c = has_any_index("abc", dynamic(["ab"])), d = has_any_index("abc", dynamic(["", "abc"])), e = has_any_index("n 12 x", dynamic([12]))',
    );
    // Assess
    expect(rows).toEqual([[1, 1, -1, 0, 0]]);
  });
});

describe('function fuzz: bag_zip with many keys', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('zips 100,000 keys in well under the time one look per key took (past a minute)', async () => {
    // Act
    const started = performance.now();
    const rows = await run(
      "print n = array_length(bag_keys(bag_zip(array_concat(range(1, 50000, 1), repeat('k', 50000)), dynamic([1]))))",
    );
    // Assess: numbers are no keys; the 50,000 equal keys make one.
    expect(rows).toEqual([['1']]);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('keeps the order of the kept keys, the last value of a repeated key, and null past the values', async () => {
    // Act
    const rows = await run(
      'print a = bag_zip(dynamic(["x", "y", "x", "z", "y"]), dynamic([1, 2, 3, 4, 5])), b = bag_zip(dynamic(["a", 1, "b"]), dynamic([1, 2]))',
    );
    // Assess
    expect(rows).toEqual([['{"x":3,"z":4,"y":5}', '{"a":1,"b":null}']]);
  });
});

describe('function fuzz: series_seasonal with a period past any series', () => {
  it('gives each element its own phase for the largest long (a Binder Error before)', async () => {
    // Prepare
    const db = await openFixtureDb();
    // Act
    const rows = await runSql(
      db,
      compile(
        'print a = series_seasonal(dynamic([4, 1, 7]), 9223372036854775807), b = series_seasonal(dynamic([4, 1, 7, 2]), 2)',
        options,
      ).sql,
    );
    // Assess
    expect(rows).toEqual([['[4.0,1.0,7.0]', '[5.5,1.5,5.5,1.5]']]);
  });
});

describe('function fuzz: series arguments Kusto.Language refuses, refused at their position', () => {
  it.each([
    [
      "print r = series_fill_forward(dynamic([1, 2]), '')",
      "argument 'missing_value_placeholder' must be a number",
      '1:48',
    ],
    [
      "print r = series_fill_const(dynamic([1]), 9, '')",
      "argument 'missing_value_placeholder' must be a number",
      '1:46',
    ],
    ["print r = series_dot_product('', dynamic([10, 10]))", 'expects numeric arrays or numbers', '1:30'],
    ['print r = series_dot_product(dynamic([10, 10]), 1s)', 'expects numeric arrays or numbers', '1:49'],
    ["print r = series_pow(dynamic([1]), '')", 'expects numeric arrays or numbers', '1:36'],
  ])('%s (a Conversion or Binder Error in DuckDB before)', (query, message, position) => {
    expectRefusedAt(query, options, { code: 'QUERY_SEMANTIC', message, position });
  });
});

describe('function fuzz: unixtime_*_todatetime of a value past a long', () => {
  it('is null, as outside the datetimes (a Conversion Error of a column value before)', async () => {
    // Prepare
    const db = await openFixtureDb();
    // Act
    const rows = await runSql(
      db,
      compile(
        'range i from 0 to 1 step 1 | extend x = iff(i == 1, 9223372036854775807, 1546300800) | project a = unixtime_seconds_todatetime(x), b = unixtime_milliseconds_todatetime(-x), c = unixtime_seconds_todatetime(todouble(x) * 1e300)',
        options,
      ).sql,
    );
    // Assess
    expect(rows).toEqual([
      ['2019-01-01 00:00:00', '1969-12-14 02:28:19.2', null],
      [null, null, null],
    ]);
  });
});

describe('function fuzz: base64_encode_fromarray of arrays holding arrays or bags', () => {
  it('is empty, as for any element that is no byte (a Conversion Error before)', async () => {
    // Prepare
    const db = await openFixtureDb();
    // Act
    const rows = await runSql(
      db,
      compile(
        'range i from 0 to 1 step 1 | extend x = iff(i == 1, dynamic([[1, [2]], {"a": []}]), dynamic([72, 101, 108])) | project r = base64_encode_fromarray(x), s = base64_encode_fromarray(dynamic([1, {"a": 1}]))',
        options,
      ).sql,
    );
    // Assess
    expect(rows).toEqual([
      ['SGVs', ''],
      ['', ''],
    ]);
  });
});

describe('function fuzz: substring with a start past the engines positions', () => {
  it('answers for the largest long or int as a start or length (an Out of Range error before)', async () => {
    // Prepare
    const db = await openFixtureDb();
    // Act
    const rows = await runSql(
      db,
      compile(
        'range i from 0 to 1 step 1 | extend x = iff(i == 1, 9223372036854775807, 1) | project a = substring("123456", x, 2), b = substring("123456", int(2147483647)), c = substring("hello", -2, 2), d = substring("123456", 2, x)',
        options,
      ).sql,
    );
    // Assess
    expect(rows).toEqual([
      ['23', '', 'lo', '3'],
      ['', '', 'lo', '3456'],
    ]);
  });
});
