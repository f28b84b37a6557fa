// No user text is pasted into SQL: strings go through the dialect's escaping function, names are
// resolved against the schema or quoted, comments never reach the SQL. Attempts through strings,
// names and comments must give SQL whose only user text sits inside literals or quoted identifiers,
// and that DuckDB runs without touching anything else.
import fc from 'fast-check';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';
import { openFixtureDb, runSql } from '../../golden/fixture-db';

const base: Omit<CompileOptions, 'dialect'> = {
  scope: {
    customerId: "cust-a' OR '1'='1",
    plantIds: ["plant-1'); DROP TABLE States; --"],
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 10,
};

/** Removes '...' literals (with '' escapes) and "..." identifiers (with "" escapes) from SQL. */
function stripQuoted(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (; j < sql.length; j++) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j++;
          else break;
        }
      }
      if (j >= sql.length) throw new Error(`unterminated quote in ${sql}`);
      out += c + c;
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}

const kqlString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
const MARKER = 'INJECTED';

describe('injection', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it.each(['duckdb', 'timestream'] as const)('keeps scope values inside literals (%s)', (dialect) => {
    const sql = stripQuoted(compile('States | count', { ...base, dialect }).sql);
    expect(sql).not.toContain('DROP');
    expect(sql).not.toMatch(/OR '1'/);
  });

  it('keeps hostile string literals, bracketed names and comments out of the SQL text', async () => {
    const payload = fc.string({
      unit: fc.constantFrom("'", '"', '\\', ';', '-', '/', '*', '\n', '\0', 'x', ' ', ')', '(', 'é', '\u0007'),
      maxLength: 20,
    });
    await fc.assert(
      fc.asyncProperty(payload, payload, payload, async (a, b, c) => {
        // Prepare
        const query = [
          `States // ${MARKER} ${c.replace(/\n/g, ' ')}`,
          `| where Name == ${kqlString(MARKER + a)} or Name has ${kqlString(b + MARKER)} or Name matches regex ${kqlString('x')}`,
          `| extend ['${MARKER}${b.replace(/['\\\n]/g, '')}x'] = strcat(${kqlString(c + MARKER)}, Name)`,
          '| count',
        ].join('\n');
        // Act
        const duck = compile(query, { ...base, dialect: 'duckdb' });
        const stream = compile(query, { ...base, dialect: 'timestream' });
        // Assess
        for (const sql of [duck.sql, stream.sql]) expect(stripQuoted(sql)).not.toContain(MARKER);
        expect(await runSql(db, duck.sql)).toEqual([['0']]);
      }),
      { numRuns: 150 },
    );
    expect(await runSql(db, 'SELECT count(*) FROM "States"')).toEqual([['16']]); // the fixture is untouched
    // 150 queries run on DuckDB: about 4 s on a busy 2-core machine, over vitest's default 5 s.
  }, 30_000);

  it('rejects identifiers that are not in the schema instead of passing them on', () => {
    for (const name of ['"States"; DROP TABLE x', 'CustomerId', 'Value"']) {
      expect(() => compile(`States | project ['${name}']`, { ...base, dialect: 'duckdb' })).toThrow(QueryError);
    }
  });

  it('does not let a query read the hidden CustomerId column', () => {
    expect(() => compile('States | where CustomerId == "cust-b"', { ...base, dialect: 'duckdb' })).toThrow(
      "unknown column 'CustomerId'",
    );
  });
});
