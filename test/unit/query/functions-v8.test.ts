// buildschema (lib/query/catalog/functions-v8-buildschema.ts): argument errors at their position and
// the Timestream refusal. Its results on DuckDB are pinned by the conformance corpus
// (test/conformance/cases/fn-v8-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertRows } from '../../../lib/query/index';
import { compileWithKeys } from '../../conformance/discover';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

describe('buildschema: argument errors', () => {
  it.each([
    ['States | summarize buildschema(now())', 'QUERY_SEMANTIC', "argument 'DynamicExpr' must be a dynamic", '1:32'],
    ['States | summarize buildschema(Name)', 'QUERY_SEMANTIC', "argument 'DynamicExpr' must be a dynamic", '1:32'],
    [
      'States | summarize buildschema(dynamic({"a": 1}), 3)',
      'QUERY_SEMANTIC',
      'buildschema() takes (DynamicExpr: dynamic)',
      '1:20',
    ],
    ['States | summarize buildschema()', 'QUERY_SEMANTIC', 'buildschema() takes (DynamicExpr: dynamic)', '1:20'],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('buildschema: Timestream refusal', () => {
  it('refuses buildschema on Timestream naming the function and the engine', () => {
    // Act
    const error = compileFailure('States | summarize buildschema(dynamic({"a": 1}))', ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain('buildschema() is not supported on the Timestream engine');
  });
});

describe('buildschema: the page printed text, key order included', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('prints the schema of the page example exactly as the page does', async () => {
    // Arrange: the example and the printed result of
    // https://learn.microsoft.com/en-us/kusto/query/buildschema-aggregation-function (its Markdown
    // source spells the array key "`indexer`"). The conformance case compares parsed JSON, which
    // ignores key order; this compares the text.
    const query = [
      'datatable(value: dynamic) [',
      '    dynamic({"x":1, "y":3.5}),',
      '    dynamic({"x":"somevalue", "z":[1, 2, 3]}),',
      '    dynamic({"y":{"w":"zzz"}, "t":["aa", "bb"], "z":["foo"]})',
      ']',
      '| summarize buildschema(value)',
    ].join('\n');
    const printed =
      '{"x":["long","string"],"y":["double",{"w":"string"}],"z":{"`indexer`":["long","string"]},"t":{"`indexer`":"string"}}';
    // Act
    const compiled = await compileWithKeys(db, query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((x) => x.type),
    );
    // Assess
    expect(JSON.stringify(rows[0]![0])).toBe(printed);
  });
});
