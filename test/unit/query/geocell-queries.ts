// Shared by the cell functions' tests (functions-geocell*.test.ts): running a KQL query on the
// fixture database, the points the SQL is compared with its references over, the compile options.
import { expect } from 'vitest';
import { convertRows } from '../../../lib/query/index';
import { compileWithKeys } from '../../conformance/discover';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions } from './compile-failure';

export const duck = { ...baseOptions, dialect: 'duckdb' as const };
export const ts = { ...baseOptions, dialect: 'timestream' as const };

/** A function running a KQL query on its own fixture database, giving the rows as the API does. */
export async function queryRunner(): Promise<(query: string) => Promise<unknown[][]>> {
  const db = await openFixtureDb();
  return async (query) => {
    // A stopped clock: these queries hold thousands of literal points and test values, not the
    // compile budget (limits.test.ts does), which a loaded machine's wall time would otherwise decide.
    const options = { ...GOLDEN_OPTIONS, rowLimit: 100_000, dialect: 'duckdb', clock: () => 0 } as const;
    const compiled = await compileWithKeys(db, query, options);
    return convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    ) as unknown[][];
  };
}

/**
 * 3,000 points spread over the globe by a multiplicative hash of the row number (the query returns
 * them, so the reference reads the very doubles the SQL read), plus points on cell boundaries at
 * every level, where an index computed in doubles could be off by one.
 */
export const SPREAD = [
  'range i from 0 to 2999 step 1',
  '| extend lng = ((i * 2654435761) % 4294967296) / 4294967296.0 * 360.0 - 180.0,',
  '         lat = ((i * 40503 + 12345) % 65521) / 65521.0 * 180.0 - 90.0,',
  '         level = i % 31',
].join('\n');
const EDGE_LNG = [-180, 180, 0, 45, -45, 90, -90, 22.5, 135, -0.3515625, 179.99999999999997, -179.99999999999997];
const EDGE_LAT = [-90, 90, 0, 45, -45, 11.25, -67.5, 89.99999999999999, 0.17578125];
export const EDGES = [
  `datatable(lng: real, lat: real) [${EDGE_LNG.flatMap((x) => EDGE_LAT.map((y) => `${x}, ${y}`)).join(', ')}]`,
  '| mv-expand level = range(0, 30, 1) to typeof(long)',
].join('\n');

/** Coordinates agree to 1e-11 degrees: DuckDB's libm and V8's atan2 may differ in the last bit. */
export function expectNear(actual: unknown, expected: number[], at: string): void {
  const got = actual as number[];
  expect(got.length, at).toBe(expected.length);
  got.forEach((x, k) => expect(x, at).toBeCloseTo(expected[k]!, 11));
}
