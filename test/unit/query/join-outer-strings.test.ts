// An outer join's side without a match: its string columns are "" (a Kusto string is never null),
// so isempty(), isnull(), comparisons and `in` read them as Kusto does, not as SQL NULL. Numbers and
// other types stay null.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };
const LEFT = 'datatable(k:long, a:string)[1, "x", 2, "y"]';
const RIGHT = '(datatable(k:long, s:string)[1, "X", 3, "Z"])';

describe('outer joins: the unmatched side', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function rows(query: string): Promise<unknown[][]> {
    const compiled = compile(query, options);
    return convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
  }

  it.each([
    ['leftouter', `${LEFT} | join kind=leftouter ${RIGHT} on k | where k == 2`, 's'],
    ['rightouter', `${LEFT} | join kind=rightouter ${RIGHT} on k | where k1 == 3`, 'a'],
    ['fullouter (right unmatched)', `${LEFT} | join kind=fullouter ${RIGHT} on k | where k == 2`, 's'],
    ['fullouter (left unmatched)', `${LEFT} | join kind=fullouter ${RIGHT} on k | where k1 == 3`, 'a'],
    ['lookup', `${LEFT} | lookup ${RIGHT} on k | where k == 2`, 's'],
  ])('%s: a string is empty, not null', async (_, join, column) => {
    // Act
    const result = await rows(
      `${join} | project e = isempty(${column}), n = isnull(${column}), ne = ${column} != "q", i = "q" !in~ (${column}), v = ${column}`,
    );
    // Assess
    expect(result).toEqual([[true, false, true, true, '']]);
  });

  it('keeps a number of the unmatched side null', async () => {
    // Act
    const result = await rows(`${LEFT} | join kind=leftouter ${RIGHT} on k | where k == 2 | project n = isnull(k1)`);
    // Assess
    expect(result).toEqual([[true]]);
  });
});
