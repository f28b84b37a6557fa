// The SQL of a query at every limit runs on DuckDB (in-memory, the production DDL) with a margin:
// even with max_expression_depth at 200 instead of DuckDB's default 1000. And the values Kusto has
// no datetime for come back as null, wrong-way ranges as no rows: never an engine error.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { PLAN_OPTIONS } from '../../../lib/adapters/duckdb/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TELEMETRY_DDL } from '../../../lib/telemetry/duckdb-layout';
import { compile, convertRows, DEFAULT_QUERY_LIMITS, QueryError, type CompileOptions } from '../../../lib/query/index';
import { baseOptions } from './compile-failure';
import { queriesAtLimits } from './limit-queries';

const options: CompileOptions = {
  ...baseOptions,
  dialect: 'duckdb',
  limits: { compileBudgetMs: 60_000 }, // every other limit at its default
};

/** A fifth of DuckDB's default max_expression_depth: the SQL at the limits stays under it. */
const DEPTH_MARGIN = 200;

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:', { ...PLAN_OPTIONS });
  connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  for (const ddl of TELEMETRY_DDL) await connection.run(ddl);
  await connection.run(`SET max_expression_depth = ${DEPTH_MARGIN}`);
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

async function rows(query: string): Promise<unknown[][]> {
  const compiled = compile(query, options);
  const reader = await connection.runAndReadAll(compiled.sql);
  return convertRows(
    reader.getRowsJson() as unknown[][],
    compiled.columns.map((c) => c.type),
  );
}

describe('SQL at the limits on DuckDB', () => {
  for (const [name, query] of Object.entries(queriesAtLimits(DEFAULT_QUERY_LIMITS))) {
    it(`${name}: runs with max_expression_depth ${DEPTH_MARGIN}`, async () => {
      // Act
      const result = await rows(query);
      // Assess
      expect(Array.isArray(result)).toBe(true);
    });
  }
});

describe("datetimes outside Kusto's range and ranges going the wrong way", () => {
  // https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/datetime
  it('gives null for datetimes computed past 0001-01-01 or 9999-12-31, at compile time and in the engine', async () => {
    expect(
      await rows(
        'print a = ago(-10000000d), b = now(10000000d), c = datetime(9999-12-31) + 1d, d = datetime(0001-01-01) - 1s, e = datetime(9999-12-31 23:59:59.999999)',
      ),
    ).toEqual([[null, null, null, null, '9999-12-31T23:59:59.999999Z']]);
  });

  it('refuses a datetime literal outside the range at the literal', () => {
    expect(() => compile('print datetime(0000-12-31)', options)).toThrow(
      new QueryError(
        'QUERY_SYNTAX',
        "invalid datetime literal '0000-12-31'; datetimes range from 0001-01-01 to 9999-12-31",
        { start: 6, end: 26 },
        'print datetime(0000-12-31)',
      ),
    );
  });

  // https://learn.microsoft.com/en-us/kusto/query/range-operator : values from start up to stop.
  it.each([
    'range x from 10 to 1 step 1',
    'range x from 1 to 10 step -1',
    'range x from 10.0 to 1.0 step 0.5',
    'range x from datetime(2024-01-02) to datetime(2024-01-01) step 1h',
    'range x from 2h to 1h step 10m',
  ])('%s: no rows', async (query) => {
    expect(await rows(query)).toEqual([]);
  });

  it("refuses a step below the engine's microsecond, and real ranges that are not finite", () => {
    // The tick literal itself is refused (docs/query-api.md, "Precision"), before range sees it.
    expect(() => compile('range x from datetime(2024-01-01) to datetime(2024-01-02) step 1tick', options)).toThrow(
      '1:64: this timespan needs 100-nanosecond precision; datetimes and timespans are computed to the microsecond',
    );
    expect(() => compile('range x from 0.0 to real(+inf) step 1.0', options)).toThrow(
      'the range bounds must be finite numbers',
    );
    expect(() => compile('range x from 0.0 to 1.0 step real(nan)', options)).toThrow(
      'the range step must be a finite number',
    );
    expect(() => compile('range x from 0.0 to 1e300 step 1e-300', options)).toThrow(
      'the range has more values than a long can count',
    );
  });
});
