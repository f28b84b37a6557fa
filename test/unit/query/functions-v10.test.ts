// The v10 functions (lib/query/catalog/functions-v10-*.ts), the v10 refusals (functions-v6-refused.ts)
// and bag_has_key's JSONPath keys: argument errors at their position, the Timestream refusals, and the
// compressed streams beyond what the pages print (several stored blocks, multi-byte text), read
// back with Node's zlib. Their page examples are in the conformance corpus
// (test/conformance/cases/fn-fns7-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { gunzipSync, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, compileFailure, expectFunctionRefused, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

describe('v10 functions: argument errors', () => {
  it.each([
    ['print r = indexof_regex("abc", "(")', 'QUERY_SEMANTIC', 'indexof_regex(): invalid regular expression', '1:32'],
    ['print r = indexof_regex("abc", "b", "1")', 'QUERY_SEMANTIC', "argument 'start' must be", '1:37'],
    ['print r = around(now(), now(), 1)', 'QUERY_SEMANTIC', 'around() takes', '1:11'],
    ['print r = around("a", 1, 1)', 'QUERY_SEMANTIC', 'around() takes', '1:11'],
    ['print r = bag_zip("a", dynamic([]))', 'QUERY_SEMANTIC', "argument 'KeysArray' must be a dynamic", '1:19'],
    [
      'range x from 1 to 2 step 1 | extend a = assert(x > 0, "no")',
      'QUERY_SEMANTIC',
      'assert(): the condition must be a constant',
      '1:48',
    ],
    [
      'print a = assert(1 > 2, "one is not above two")',
      'QUERY_SEMANTIC',
      "failed with message: 'one is not above two'",
      '1:18',
    ],
    // Longs past 2^53 compare exactly, not as doubles (which would make these two equal).
    [
      'print a = assert(9007199254740993 == 9007199254740992, "m")',
      'QUERY_SEMANTIC',
      "failed with message: 'm'",
      '1:18',
    ],
    [
      'print a = assert(9007199254740992 >= 9007199254740993, "m")',
      'QUERY_SEMANTIC',
      "failed with message: 'm'",
      '1:18',
    ],
    [
      'print a = assert(true, strcat("a", "b"))',
      'QUERY_SEMANTIC',
      "argument 'message' must be a constant string (a literal)",
      '1:24',
    ],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });

  it.each([
    'print a = assert(true, "m")',
    'print a = assert(not(1 > 2) and "b" >= "a", "m")',
    'print a = assert(2 * 3 == 6 or false, "m")',
    'print a = assert(9007199254740993 > 9007199254740992, "m")',
    'print a = assert(9007199254740993 == 9007199254740992.0, "m")',
  ])('accepts the constant true condition of %s', (query) => {
    // Act
    const compiled = compile(query, duck);
    // Assess
    expect(compiled.columns).toEqual([{ name: 'a', type: 'bool' }]);
  });
});

describe('v10 refusals: each function refused at its name with its reason', () => {
  it.each([
    ['print r = zlib_decompress_from_base64_string("eJwLSS0uUSguKcrMS1cwNDIGACxqBQ4=")', 'Huffman decoding'],
    ['print r = gzip_decompress_from_base64_string("H4sIAAAAAAAA/wEUAOv/")', 'Huffman decoding'],
    ['print r = parse_xml("<e/>")', 'XML parser'],
    ['print r = parse_user_agent("Mozilla/5.0", "browser")', 'user-agent patterns'],
    ['print r = extent_id()', 'no extents'],
    ['print r = extentid()', 'no extents'],
    ['print r = extent_tags()', 'no extents'],
    ['print r = cursor_after("")', 'database cursors'],
    ['print r = cursor_before_or_at("")', 'database cursors'],
    ['print r = cursor_current()', 'database cursors'],
    ['print r = current_cursor()', 'database cursors'],
    ['print r = current_node_id()', 'no node id'],
    ['print r = estimate_data_size(1)', 'only for long (8 bytes) and string'],
    ['print r = external_table("T")', 'external tables'],
    ['print r = materialized_view("V")', 'materialized views'],
    ['print r = stored_query_result("R")', 'stored query results'],
  ])('%s', (query, reason) => {
    // Act, Assess
    expectFunctionRefused(query, duck, reason);
  });
});

describe('v10 functions on Timestream', () => {
  it.each([
    ['print r = indexof_regex("abc", "b")', 'indexof_regex'],
    ['print r = base64_encode_fromarray(dynamic([1]))', 'base64_encode_fromarray'],
    ['print r = zlib_compress_to_base64_string("a")', 'zlib_compress_to_base64_string'],
    ['print r = gzip_compress_to_base64_string("a")', 'gzip_compress_to_base64_string'],
    ['print r = bag_zip(dynamic(["a"]), dynamic([1]))', 'bag_zip'],
    ['print r = datetime_list_timezones()', 'datetime_list_timezones'],
  ])('refuses %s naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the Timestream engine`);
  });

  it('compiles around, isutf8 and assert', () => {
    // Act
    const compiled = compile('print a = around(1, 2, 3), b = isutf8("x"), c = assert(true, "m")', ts);
    // Assess
    expect(compiled.sql).toContain('BETWEEN');
    expect(compiled.columns.map((c) => c.type)).toEqual(['bool', 'bool', 'bool']);
  });
});

describe('bag_has_key with a JSONPath key (fn-probe8)', () => {
  it.each([
    ["print r = bag_has_key(dynamic({'a': 1}), '$.a[0]')", "'$.a[0]' must name a key", '1:42'],
    ["print r = bag_has_key(dynamic({'a': 1}), '$..a')", 'an empty name at offset 1', '1:42'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it('on Timestream, a JSONPath computed per row gives null (it has no error function), a name is read as one', () => {
    // Act
    const compiled = compile("print r = bag_has_key(dynamic({'a': 1}), strcat('$', 'a'))", ts);
    // Assess
    expect(compiled.sql).toMatch(/CASE WHEN substr\(.*, 1, 2\) IN \('\$\.', '\$\['\) THEN NULL ELSE coalesce\(/);
  });

  it('reads the nested key on Timestream from the bag the path leads to', () => {
    // Act
    const compiled = compile("print r = bag_has_key(dynamic({'a': {'b': 1}}), '$.a.b')", ts);
    // Assess
    expect(compiled.sql).toContain('contains(map_keys(');
    expect(compiled.sql).toContain("'b'))");
  });
});

describe('run on DuckDB: compressed streams read back with Node zlib, parse_url', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function one(query: string): Promise<string> {
    const compiled = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
    return String((await runSql(db, compiled.sql))[0]![0]);
  }

  it.each([
    // A start past the end gives -1, as indexof's does; the largest long overflowed the addition.
    ['indexof_regex("abc", "a", 9223372036854775807)', '-1'],
    ['indexof_regex("abc", "", 4)', '-1'],
    ['indexof_regex("abc", "", 3)', '3'],
    // A length past the end means "to the end"; the largest long was outside substr's range.
    ['indexof_regex("abc", "a", 0, 9223372036854775807)', '0'],
    ['indexof_regex("abc", "c", 1, 9223372036854775807, 1)', '2'],
    // indexof (positions.ts) bounds start and length the same way.
    ['indexof("abc", "c", 2, 9223372036854775807)', '2'],
    ['indexof("abc", "c", 9223372036854775807, 3)', '-1'],
    ['indexof("abc", "", 5)', '-1'],
    ['indexof("abcdefg", "cde", 1, 2)', '-1'],
    // A null element is no byte: the answer is empty, as for any other non-byte element.
    ['base64_encode_fromarray(dynamic([1, null]))', ''],
    ['base64_encode_fromarray(dynamic([null]))', ''],
    ['base64_encode_fromarray(dynamic([1, 2]))', 'AQI='],
  ])('%s gives %j', async (call, expected) => {
    // Act, Assess
    expect(await one(`print r = ${call}`)).toBe(expected);
  });

  it.each([
    // Only `$.` and `$[` start a JSONPath; any other key, `$price` and `$` included, is a plain name.
    ['bag_has_key(dynamic({"$price": 1}), "$price")', 'true'],
    ['bag_has_key(dynamic({"$": 1}), "$")', 'true'],
    ['bag_has_key(dynamic({"a": 1}), "$")', 'false'],
    ['bag_has_key(dynamic({"a": {"b": 1}}), "$.a.b")', 'true'],
    // A key computed per row is read the same way: a plain name is a name ...
    ['bag_has_key(dynamic({"$x": 1}), strcat("$", "x"))', 'true'],
    ['bag_has_key(dynamic({"a.b": 1}), strcat("a", ".b"))', 'true'],
  ])('%s gives %s', async (call, expected) => {
    // Act, Assess
    expect(await one(`print r = ${call}`)).toBe(expected);
  });

  it('bag_has_key with a JSONPath computed per row fails the query instead of reading it as a name', async () => {
    // Act
    const failure = await one('print r = bag_has_key(dynamic({"a": {"b": 1}}), strcat("$.a", ".b"))').catch(
      (e: unknown) => e,
    );
    // Assess
    expect(String(failure)).toContain('bag_has_key(): a JSONPath key ($. or $[) must be a constant');
  });

  it('parse_url with a repeated query key holds it once, the last value winning (no page prints one)', async () => {
    // Act
    const url = await one('print r = tostring(parse_url("http://h/p?a=1&b&a=2&c=3")["Query Parameters"])');
    // Assess
    expect(JSON.parse(url)).toEqual({ b: '', a: '2', c: '3' });
    expect(url.match(/"a":/g)).toHaveLength(1);
  });

  it.each([
    // A URL naming no port has its scheme's default (.NET's Uri): Microsoft's older string tutorial
    // prints "80" for an http URL; a port written wins, and a scheme with no default keeps "".
    ['http://user:pass@contoso.com/icecream/buy.aspx?a=1&b=2#tag', '80'],
    ['HTTPS://h/p', '443'],
    ['ftp://h/f', '21'],
    ['http://h:8080/', '8080'],
    ['scheme://h/x', ''],
  ])('parse_url("%s").Port is %j', async (url, port) => {
    // Act
    const got = await one(`print r = tostring(parse_url("${url}").Port)`);
    // Assess
    expect(got).toBe(port);
  });

  it.each([
    ['["a", "a"]', '[1, 2]', { a: 2 }],
    // A key written with an escape is the same key; the number is no key and does not hide "b".
    ['["a", 1, "b", "a", "\\u0062"]', '[1, 2, 3, 4, 5]', { a: 4, b: 5 }],
  ])('bag_zip(%s, %s) holds a repeated key once, the last value winning', async (keys, values, bag) => {
    // Act
    const text = await one(`print r = tostring(bag_zip(dynamic(${keys}), dynamic(${values})))`);
    const count = await one(
      `print x = bag_zip(dynamic(${keys}), dynamic(${values})) | project n = array_length(bag_keys(x))`,
    );
    // Assess
    expect(JSON.parse(text)).toEqual(bag);
    expect(count).toBe(String(Object.keys(bag).length));
  });

  it.each([
    ['an empty text', '""', ''],
    ['multi-byte text', '"héllo wörld ⒦"', 'héllo wörld ⒦'],
    [
      'the most bytes, one full block (65,535 bytes)',
      'strcat(strrep("abcdéfghi", 6553), "abcde")',
      `${'abcdéfghi'.repeat(6553)}abcde`,
    ],
  ])('%s', async (_title, argument, text) => {
    // Act
    const zlib = await one(`print r = zlib_compress_to_base64_string(${argument})`);
    const gzip = await one(`print r = gzip_compress_to_base64_string(${argument})`);
    // Assess
    expect(inflateSync(Buffer.from(zlib, 'base64')).toString('utf8')).toBe(text);
    expect(gunzipSync(Buffer.from(gzip, 'base64')).toString('utf8')).toBe(text);
  });

  it.each([
    ['zlib_compress_to_base64_string', 'strrep("a", 65536)'],
    ['gzip_compress_to_base64_string', 'strrep("é", 32768)'],
    // 3 MB: the CRC's fold would take ~90 s; the CASE refuses the value before it starts.
    ['gzip_compress_to_base64_string', 'strrep("a", 3000000)'],
  ])('%s refuses a value over 65,535 bytes at run time, at once (%s)', async (name, argument) => {
    // Act
    const started = Date.now();
    const failure = await one(`print r = ${name}(${argument})`).catch((e: unknown) => e);
    // Assess
    expect(String(failure)).toContain(`${name}(): the text has more than 65535 bytes`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
