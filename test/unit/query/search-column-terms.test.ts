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
    // The first column is $table (the piped let's name), then First.
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(rows.length ? ['T'] : []));
    return rows.map((r) => r[1]).sort();
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

describe('a piped search writes $table first', () => {
  const names = (query: string): string[] => compile(query, options).columns.map((c) => `${c.name}:${c.type}`);

  it('as the search page says of every search and Kusto.Language types it', () => {
    // Act / Assess
    expect(names(`${people}T | search "x"`)).toEqual(['$table:string', 'First:string', 'Last:string', 'Age:long']);
    expect(names('States | search "x" | project-keep Name, ["$table"]')).toEqual(['$table:string', 'Name:string']);
  });

  it('keeps one $table when the input has it already', () => {
    // Act / Assess
    expect(names('search "x" | search "y" | project-keep ["$table"], Name')).toEqual(['$table:string', 'Name:string']);
  });
});
