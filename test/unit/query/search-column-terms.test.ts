// search's `Column:"term"` combined with other conditions (search operator docs, "Search predicate
// syntax": `search FirstName:"Aaron" or LastName:"Hughes"`): each is `Column has "term"` (with the
// term's wildcards), and and/or/not/parentheses combine them with bare terms and comparisons.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { compileFailure } from './compile-failure';

const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };
const people =
  "let T = datatable(First:string, Last:string, Age:long)['Aaron', 'Sharma', 30, 'Riley', 'Hughes', 41, 'Mia', 'Aaronson', 25, 'Sam', 'Green', 52];\n";

describe('search Column:"term" in a combined predicate', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const firstNames = async (query: string): Promise<unknown[]> => {
    const compiled = compile(people + query, options);
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return rows.map((r) => r[0]).sort();
  };

  it.each([
    ['T | search First:"Aaron" or Last:"Hughes"', ['Aaron', 'Riley']],
    ['T | search Last:"Aaron*" and Age > 20', ['Mia']],
    ['T | search (First:"Sam" or First:"Mia") and not(Last:"Green")', ['Mia']],
    ['T | search "Green" or First:"aaron"', ['Aaron', 'Sam']],
    ['T | search kind=case_sensitive First:"aaron" or Last:"Green"', ['Sam']],
  ])('%s', async (query, expected) => {
    // Act
    const names = await firstNames(query);
    // Assess
    expect(names).toEqual(expected);
  });

  it.each([
    ['T | search First:5 or Last:"x"', 'QUERY_SYNTAX', 'expected a string after Column:'],
    ['T | search strlen(First:"x") > 1', 'QUERY_UNSUPPORTED', "the ':' operator is not supported"],
  ])('refuses %j at its position', (query, code, message) => {
    // Act
    const error = compileFailure(people + query, options);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^2:\d+: /);
    expect(error.message).toContain(message);
  });
});
