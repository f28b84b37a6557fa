// evaluate ipv4_lookup, ipv6_lookup, rows_near and dcount_intersect at the compile() level: output
// schemas on both engines (cross-checked with Kusto.Language where the pages print none), results on
// DuckDB beyond the pages' examples, and malformed arguments refused at their position. The pages'
// examples are in the conformance corpus (test/conformance/cases/op-plugins2-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { rowsOf, sortedRows } from './duckdb-rows';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const dialects = ['duckdb', 'timestream'] as const;
/** "1:col" of `part`'s first occurrence in the one-line query `q`. */
const at = (q: string, part: string): string => `1:${q.indexOf(part) + 1}`;

const lookup = 'let L = datatable(network:string, cc:string, k:long)["5.8.0.0/19", "EU", 1, "5.8.0.0/16", "XX", 2];';
const ips =
  'let IPs = datatable(ip:string, k:long, cc:string)["5.8.1.2", 1, "x", "5.8.1.3", 2, "y", "9.9.9.9", 1, "z"];';

describe('evaluate ipv4_lookup / ipv6_lookup / rows_near / dcount_intersect', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => sortedRows(db, query, (v) => (v === '' ? null : v));

  it.each([
    // Kusto.Language: ip:string,k:long,cc:string,network:string,cc1:string (extra key once, a taken name suffixed).
    [
      `${lookup}${ips} IPs | evaluate ipv4_lookup(L, ip, network, k)`,
      'ip:string,k:long,cc:string,network:string,cc1:string',
    ],
    [
      'States | project DeviceId, Timestamp, v = todouble(Value) | evaluate rows_near(v > 1, 2, 1)',
      'DeviceId:string,Timestamp:datetime,v:real',
    ],
    [
      'range x from 1 to 9 step 1 | summarize a = hll(x), b = hll(x % 3) | evaluate dcount_intersect(a, b)',
      'a:dynamic,b:dynamic,s0:long,s1:long',
    ],
  ])('compiles for both engines with the schema Kusto.Language gives: %s', (query, schema) => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(query, options(dialect));
      // Assess
      expect(compiled.columns.map((c) => `${c.name}:${c.type}`).join(',')).toBe(schema);
    }
  });

  it('ipv4_lookup joins every range holding the address, on equal extra keys only', async () => {
    // Act: 5.8.1.2 lies in both ranges; with the extra key k only the k = 1 range stays.
    const all = await run(`${lookup}${ips} IPs | evaluate ipv4_lookup(L, ip, network) | project ip, network`);
    const keyed = await run(
      `${lookup}${ips} IPs | evaluate ipv4_lookup(L, ip, network, k, true) | project ip, network`,
    );
    // Assess
    expect(all).toEqual([
      ['5.8.1.2', '5.8.0.0/16'],
      ['5.8.1.2', '5.8.0.0/19'],
      ['5.8.1.3', '5.8.0.0/16'],
      ['5.8.1.3', '5.8.0.0/19'],
    ]);
    expect(keyed).toEqual([
      ['5.8.1.2', '5.8.0.0/19'],
      ['5.8.1.3', '5.8.0.0/16'],
      ['9.9.9.9', null],
    ]);
  });

  it('ipv4_lookup matches nothing with text that is no address (each such row kept once), and a source range only in the ranges holding it', async () => {
    // Prepare
    const l = 'let L = datatable(network:string)["10.0.0.0/8", "not an address", "10.1.0.0/16"];';
    const s = 'let S = datatable(ip:string)["10.1.0.0/12", "10.1.2.3", "garbage", "garbage", ""];';
    // Act
    const rows = await run(`${l}${s} S | evaluate ipv4_lookup(L, ip, network, return_unmatched = true)`);
    // Assess
    expect(rows).toEqual([
      ['10.1.0.0/12', '10.0.0.0/8'],
      ['10.1.2.3', '10.0.0.0/8'],
      ['10.1.2.3', '10.1.0.0/16'],
      ['garbage', null],
      ['garbage', null],
      [null, null],
    ]);
  });

  it('ipv4_lookup / ipv6_lookup with return_unmatched give rows the query writes in the input order, as the page prints them', async () => {
    // Prepare: the unmatched address between two matched ones.
    const l = 'let L = datatable(network:string, c:string)["5.8.0.0/19", "RU", "2.20.183.0/24", "GB"];';
    const source = 'datatable(ip:string)["2.20.183.12", "192.165.12.17", "5.8.1.2"]';
    for (const plugin of ['ipv4_lookup', 'ipv6_lookup']) {
      // Act
      const rows = await rowsOf(db, `${l} ${source} | evaluate ${plugin}(L, ip, network, true) | project ip, c`);
      // Assess
      expect(rows).toEqual([
        ['2.20.183.12', 'GB'],
        ['192.165.12.17', ''],
        ['5.8.1.2', 'RU'],
      ]);
    }
  });

  it('ipv4_lookup takes a tabular expression as its LookupTable, bare or in parentheses', async () => {
    // Prepare
    const l = 'let L = datatable(network:string)["1.2.3.0/24", "1.2.0.0/16"];';
    const source = 'datatable(ip:string)["1.2.3.4"]';
    // Act
    const filtered = await run(`${l} ${source} | evaluate ipv4_lookup((L | where network endswith "16"), ip, network)`);
    const inline = await run(`${source} | evaluate ipv4_lookup(datatable(network:string)["1.2.3.0/24"], ip, network)`);
    // Assess
    expect(filtered).toEqual([['1.2.3.4', '1.2.0.0/16']]);
    expect(inline).toEqual([['1.2.3.4', '1.2.3.0/24']]);
  });

  it('rows_near keeps NumRows rows before and RowsAfter rows after each match, each once, in input order', async () => {
    // Act
    const rows = await run(
      'range x from 1 to 12 step 1 | sort by x asc | evaluate rows_near(x == 4 or x == 6 or x == 12, 1, 0)',
    );
    // Assess
    expect(rows.map((r) => r[0])).toEqual([11, 12, 3, 4, 5, 6]);
  });

  it.each([
    'range x from 1 to 10 step 1 | evaluate rows_near(x == 5, 9223372036854775807)',
    'range x from 1 to 10 step 1 | evaluate rows_near(x == 5, 0, 9223372036854775807)',
  ])('rows_near with a count of the largest long keeps every row on its side: %s', async (query) => {
    // Act
    const rows = await run(query);
    // Assess
    const kept = rows.map((r) => Number(r[0])).sort((a, b) => a - b);
    expect(kept).toEqual(query.includes(', 0,') ? [5, 6, 7, 8, 9, 10] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const dialect of dialects) expect(compile(query, options(dialect)).sql).not.toContain('9223372036854775808');
  });

  it('dcount_intersect gives null for every intersection with a null sketch, as dcount_hll() of one does', async () => {
    // Arrange: the page says nothing of a null sketch; dcount_hll(dynamic(null)) is null here.
    const query =
      'datatable(a:dynamic, b:dynamic, c:dynamic)[dynamic([1, 2]), dynamic(null), dynamic([2]), dynamic(null), dynamic([1]), dynamic([1])]' +
      ' | extend n = dcount_hll(b) | evaluate dcount_intersect(a, b, c) | project n, s0, s1, s2';
    // Act
    const rows = await run(query);
    // Assess
    expect(rows).toEqual([
      [1, null, null, null],
      [null, 2, null, null],
    ]);
    expect(compile(query, options('timestream')).columns.map((c) => c.type)).toEqual(['long', 'long', 'long', 'long']);
  });

  it('ipv6_lookup is refused on Timestream naming the plugin, at the operator', () => {
    const q =
      'let L = datatable(network:string)["2001:db8::/32"]; datatable(ip:string)["2001:db8::1"] | evaluate ipv6_lookup(L, ip, network)';
    expectRefusedAt(q, options('timestream'), {
      code: 'QUERY_UNSUPPORTED',
      message: 'evaluate ipv6_lookup: parse_ipv6() is not supported on the Timestream engine',
      position: at(q, 'evaluate'),
    });
  });

  const l = 'let L = datatable(network:string, n:long)["1.2.3.0/24", 1];';
  it.each([
    [`${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv4_lookup(L, ip, nosuch)`, 'nosuch', "unknown column 'nosuch'"],
    [
      `${l} datatable(ip:long)[1] | evaluate ipv4_lookup(L, ip, network)`,
      'ip, network',
      "source key 'ip' must be a string column, not long",
    ],
    [
      `${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv4_lookup(L, ip, n)`,
      'n)',
      "lookup key 'n' must be a string column",
    ],
    [
      `${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv4_lookup(1, ip, network)`,
      '1, ip',
      'the lookup table (a name or a tabular expression) first',
    ],
    [
      `${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv4_lookup(L, ip, network, ip == "")`,
      'ip == ""',
      'return_unmatched must be a constant bool',
    ],
    [
      `${l} datatable(ip:string, n:long)["1.2.3.4", 1] | evaluate ipv6_lookup(L, ip, network, n, true)`,
      'n, true',
      'takes no extra keys',
    ],
    [
      `${l} datatable(ip:string, m:long)["1.2.3.4", 1] | evaluate ipv4_lookup(L, ip, network, m)`,
      'm)',
      'in the lookup table',
    ],
    [
      `${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv4_lookup(L, ip, network, foo = true)`,
      'foo',
      'positional arguments only',
    ],
    // Kusto.Language: KS131 "The expression must be a literal" / KS107 "A value of type bool expected".
    [
      'States | evaluate ipv4_lookup(States, DeviceId, Unit, return_unmatched = DeviceId) | count',
      'DeviceId) |',
      'return_unmatched must be a bool literal',
    ],
    [
      `${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv6_lookup(L, ip, network, return_unmatched = ip)`,
      'ip)',
      'return_unmatched must be a bool literal',
    ],
    [
      `${l} datatable(ip:string)["1.2.3.4"] | evaluate ipv4_lookup(L, ip, network, return_unmatched = 1 == 1)`,
      '1 == 1',
      'return_unmatched must be a bool literal',
    ],
    ['datatable(a:long)[1] | evaluate rows_near(a, 2)', 'a, 2', 'Condition must be a bool expression, not long'],
    [
      'datatable(a:long)[1] | evaluate rows_near(a == 1, a)',
      'a)',
      'NumRows must be a constant non-negative whole number',
    ],
    ['datatable(a:long)[1] | evaluate rows_near(a == 1, 1, -1)', '-1', 'RowsAfter must be a constant'],
    ['datatable(a:long)[1] | evaluate rows_near(a == 1)', '(a == 1)', 'takes Condition, NumRows'],
    ['datatable(a:dynamic)[dynamic([1])] | evaluate dcount_intersect(a)', '(a)', 'takes 2 to 16'],
    ['datatable(a:dynamic, x:long)[dynamic([1]), 1] | evaluate dcount_intersect(a, x)', 'x)', 'not long'],
  ])('refuses %s at the argument', (query, part, message) => {
    for (const dialect of dialects)
      expectRefusedAt(query, options(dialect), { code: 'QUERY_SEMANTIC', message, position: at(query, part) });
  });
  it.each([
    [
      'States | evaluate sequence_detect(Timestamp, 5d, 5d, a = (Name == "x"), b = (Name == "y"), DeviceId)',
      'sequence_detect',
      'which step rows make an occurrence',
    ],
    ['States | evaluate preview(5)', 'preview', 'write `T | fork (take N) (count)`'],
    ['States | getschema | evaluate schema_merge()', 'schema_merge', 'how column types are reduced'],
  ])('refuses %s at the plugin with a reason from its page', (query, plugin, reason) => {
    for (const dialect of dialects) {
      const position = at(query, plugin);
      expectRefusedAt(query, options(dialect), {
        code: 'QUERY_UNSUPPORTED',
        message: `the '${plugin}' plugin is not supported: `,
        position,
      });
      expectRefusedAt(query, options(dialect), { code: 'QUERY_UNSUPPORTED', message: reason, position });
    }
  });

  it("refuses evaluate as a source at the word, with the plugin's reason when it has one", () => {
    const q = "evaluate infer_storage_schema(dynamic({'DataFormat': 'parquet'}))";
    expectRefusedAt(q, options('duckdb'), {
      code: 'QUERY_UNSUPPORTED',
      message:
        "'evaluate' as a tabular source is not supported; nor is the 'infer_storage_schema' plugin: it reads files in external storage",
      position: '1:1',
    });
  });
});
