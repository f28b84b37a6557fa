// Query parameters never reach the SQL as text: a string parameter's value, whatever it holds
// (quotes, `;`, `--`, `/*`, backslashes, control characters), sits inside one literal of both
// dialects and comes back from DuckDB exactly; a value of another type is a literal of that type or
// a QUERY_SEMANTIC refusal, never SQL.
import fc from 'fast-check';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';
import { openFixtureDb, runSql } from '../../golden/fixture-db';

const base: Omit<CompileOptions, 'dialect'> = {
  scope: {
    customerId: 'cust-a',
    plantIds: null,
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 10,
};

const MARKER = 'INJECTED';

/** The SQL without its '...' literals and "..." identifiers (each with doubled-quote escapes). */
function stripQuoted(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, '""');
}

const payload = fc.string({
  unit: fc.constantFrom("'", '"', '\\', ';', '-', '/', '*', '\n', '\0', 'x', ' ', ')', '(', 'é', '\u0007', '`'),
  maxLength: 24,
});

describe('query parameters and injection', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('keeps a string parameter inside one literal of each dialect, and DuckDB answers it back unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(payload, payload, async (a, b) => {
        // Prepare
        const value = `${a}${MARKER}${b}`;
        const query = 'declare query_parameters(s:string);\nStates | where Name == s | count';
        const parameters = { s: value };
        // Act
        const duck = compile(query, { ...base, dialect: 'duckdb', parameters });
        const stream = compile(query, { ...base, dialect: 'timestream', parameters });
        const echoed = compile('declare query_parameters(s:string); print s', {
          ...base,
          dialect: 'duckdb',
          parameters,
        });
        // Assess
        for (const sql of [duck.sql, stream.sql]) expect(stripQuoted(sql)).not.toContain(MARKER);
        expect(await runSql(db, duck.sql)).toEqual([['0']]);
        expect(await runSql(db, echoed.sql)).toEqual([[value]]);
      }),
      { numRuns: 100 },
    );
    expect(await runSql(db, 'SELECT count(*) FROM "States"')).toEqual([['16']]); // the fixture is untouched
  }, 30_000);

  it('reads a long parameter as a long literal or refuses it, whatever its text', () => {
    fc.assert(
      fc.property(payload, (text) => {
        // Act
        let sql: string | undefined;
        try {
          sql = compile('declare query_parameters(n:long); print n', {
            ...base,
            dialect: 'duckdb',
            parameters: { n: `1${text}` },
          }).sql;
        } catch (e) {
          // Assess: a refusal is the compiler's, at the parameter.
          expect(e).toBeInstanceOf(QueryError);
          expect((e as QueryError).code).toBe('QUERY_SEMANTIC');
          return;
        }
        expect(sql).toMatch(
          /^SELECT "_c1" AS "print_0" FROM \(SELECT CAST\(-?\d+ AS BIGINT\) AS "_c1"\) AS "_t1" LIMIT 11$/,
        );
      }),
      { numRuns: 300 },
    );
  });
});
