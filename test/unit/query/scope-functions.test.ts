// The scope functions table(), database() and cluster() (their Kusto pages): where each is refused,
// and at which position, on both engines. The answers themselves are conformance cases
// (test/conformance/cases/op-probe7-table-*, -database-*, -cluster-*).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { baseOptions, expectRefusedAt } from './compile-failure';

const withCaller = { ...baseOptions, identity: { principal: 'app=t;cust-a', database: 'cust-a' } };

describe('scope functions', () => {
  it.each([
    ["table('States', 'warm')", 'QUERY_SEMANTIC', "data scope is 'hotcache', 'all' or 'default', not 'warm'", '1:17'],
    ['table(42)', 'QUERY_SEMANTIC', 'table() takes a string, not a long', '1:7'],
    ["table(strcat('Sta', 'tes'))", 'QUERY_UNSUPPORTED', 'table() needs a constant string', '1:7'],
    [
      "database('other').States",
      'QUERY_SEMANTIC',
      "unknown database 'other': a query reads only its own database, 'cust-a'",
      '1:10',
    ],
    ["database('cust-a').Nope", 'QUERY_SEMANTIC', "unknown table 'Nope' in the database", '1:20'],
    ["database('cust-a')States", 'QUERY_SYNTAX', "expected '.'", '1:19'],
    ['database(1).States', 'QUERY_SEMANTIC', 'database() takes a string, not a long', '1:10'],
    [
      "States | join (cluster('c').database('d').Events) on Uid",
      'QUERY_UNSUPPORTED',
      'cross-cluster queries are not offered',
      '1:16',
    ],
    // Sources this service has no such thing for, refused at their word with the catalog's reason.
    ["external_table('x') | count", 'QUERY_UNSUPPORTED', 'external_table() is not supported: external tables', '1:1'],
    ["materialized_view('v')", 'QUERY_UNSUPPORTED', 'materialized_view() is not supported: materialized views', '1:1'],
    ["union States, stored_query_result('s')", 'QUERY_UNSUPPORTED', 'stored_query_result() is not supported', '1:15'],
  ])('refuses %s', (query, code, message, position) => {
    for (const dialect of ['duckdb', 'timestream'] as const)
      expectRefusedAt(query, { ...withCaller, dialect }, { code, message, position });
  });

  it("refuses database() at its name when the compile has no caller (no database of one's own)", () => {
    expectRefusedAt(
      "database('cust-a').States",
      { ...baseOptions, dialect: 'duckdb' },
      { code: 'QUERY_UNSUPPORTED', message: "database() needs the request's caller", position: '1:10' },
    );
  });

  it('reads the same table as the bare name on Timestream', () => {
    // Act
    const scoped = compile("database('Cust-A').table('States', 'all') | count", {
      ...withCaller,
      dialect: 'timestream',
    });
    const bare = compile('States | count', { ...withCaller, dialect: 'timestream' });
    // Assess
    expect(scoped.sql).toBe(bare.sql);
  });

  it('leaves out a table() leg naming no table under union isfuzzy=true, not a leg failing otherwise', () => {
    // Act
    const fuzzy = compile("union isfuzzy=true table('Nope'), States | count", { ...withCaller, dialect: 'duckdb' });
    // Assess
    expect(fuzzy.sql).toBe(compile('union States | count', { ...withCaller, dialect: 'duckdb' }).sql);
    expectRefusedAt(
      "union isfuzzy=true table('States', 'warm'), Events",
      { ...withCaller, dialect: 'duckdb' },
      { code: 'QUERY_SEMANTIC', message: 'data scope', position: '1:36' },
    );
  });

  it('leaves out a database() leg naming no table, or another database, under union isfuzzy=true', () => {
    // Arrange
    const options = { ...withCaller, dialect: 'duckdb' as const };
    const bare = compile('union States | count', options).sql;
    // Act, Assess: the union page reduces a fuzzy union's sources to those that exist and are accessible.
    for (const leg of ["database('cust-a').Nope", "database('cust-a').table('Nope')", "database('other').States"])
      expect(compile(`union isfuzzy=true ${leg}, States | count`, options).sql, leg).toBe(bare);
    // Without isfuzzy, and when no leg is left, the refusal stays.
    expectRefusedAt("union database('cust-a').Nope, States", options, {
      code: 'QUERY_SEMANTIC',
      message: "unknown table 'Nope' in the database",
      position: '1:26',
    });
    expectRefusedAt("union isfuzzy=true database('other').States, database('cust-a').Nope", options, {
      code: 'QUERY_SEMANTIC',
      message: 'found none of its tables',
      position: '1:1',
    });
  });
});
