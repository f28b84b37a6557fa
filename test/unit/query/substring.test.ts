// substring() with a negative start: counted from the end, and a start still before the text is 0
// with the length kept (the page, substring-function, settles only starts inside the text). The answer
// must not depend on whether the engine folded a constant start (DuckDB answered "1" for a constant
// -8 and "123" for a column holding -8) nor on the engine (Timestream's substr gives '' there).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };
/** substring("123456", start, 3) and substring("123456", start) for starts -9 .. 7. */
const EXPECTED: readonly (readonly [number, string, string])[] = [
  [-9, '123', '123456'],
  [-8, '123', '123456'],
  [-7, '123', '123456'],
  [-6, '123', '123456'],
  [-5, '234', '23456'],
  [-2, '56', '56'],
  [-1, '6', '6'],
  [0, '123', '123456'],
  [4, '56', '56'],
  [6, '', ''],
  [7, '', ''],
];

describe('substring() with a start before the text', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it.each(EXPECTED)('gives the same for a constant and a column start %i', async (start, three, rest) => {
    // Act
    const constant = await run(`print a = substring("123456", ${start}, 3), b = substring("123456", ${start})`);
    const column = await run(
      `range i from ${start} to ${start} step 1 | project a = substring("123456", i, 3), b = substring("123456", i)`,
    );
    // Assess
    expect(constant).toEqual([[three, rest]]);
    expect(column).toEqual([[three, rest]]);
  });

  it('gives the smallest long as a start the whole text from its beginning', async () => {
    // Act
    const rows = await run('print a = substring("123456", -9223372036854775808, 2), b = substring("", -1, 1)');
    // Assess
    expect(rows).toEqual([['12', '']]);
  });

  it('passes Timestream a position counted from the text, never a negative one', () => {
    // Act
    const sql = compile('print a = substring("123456", -8, 3)', { ...GOLDEN_OPTIONS, dialect: 'timestream' }).sql;
    // Assess
    expect(sql).toContain("greatest(length('123456') + ");
  });

  it('binds a long text once on DuckDB, so nested calls grow the SQL linearly', () => {
    // Arrange: ten nested calls with column starts, each reading its text's length.
    let text = 'strcat(Name, "-", DeviceId, "-", Unit)';
    for (let i = 0; i < 10; i++) text = `substring(${text}, -i - 1)`;
    // Act
    const sql = compile(`States | extend i = 1 | project r = ${text}`, options).sql;
    // Assess: doubling the text at each level would write well over 100,000 characters.
    expect(sql.length).toBeLessThan(15_000);
  });
});
