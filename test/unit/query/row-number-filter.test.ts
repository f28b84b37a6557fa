// A filter on row_number() reads the numbered rows only: over no rows it keeps none. DuckDB's
// top_n_window_elimination pass rewrote `row_number() ... <= 1` without PARTITION BY into an
// aggregate, which answers one row of nulls over no rows; the instances run without it
// (PLAN_OPTIONS in lib/adapters/duckdb/database.ts), as this fixture database does.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { instanceOptions } from '../../../lib/adapters/duckdb/database';
import { openFixtureDb } from '../../golden/fixture-db';
import { rowsOf } from './duckdb-rows';

const EMPTIED = 'datatable(k:string, n:long)["a", 1, "b", 3] | where n > 5';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('row_number() filters', () => {
  it.each([
    [`${EMPTIED} | sort by n | extend r = row_number() | where r <= 1`],
    [`${EMPTIED} | sort by n desc | extend r = row_number() | where r < 2`],
    [`${EMPTIED} | serialize r = row_number() | where r <= 1`],
    [
      'Events | where Timestamp < datetime(1900-01-01) | sort by Timestamp desc | extend r = row_number() | where r <= 1',
    ],
    [`${EMPTIED} | top-nested 1 of k by c = count()`],
  ])('keep no row over no rows: %s', async (query) => {
    // Act
    const rows = await rowsOf(db, query);
    // Assess
    expect(rows).toEqual([]);
  });

  it('count 0 after such a filter over no rows', async () => {
    // Act
    const rows = await rowsOf(db, `${EMPTIED} | sort by n | extend r = row_number() | where r <= 1 | count`);
    // Assess
    expect(rows).toEqual([[0]]);
  });

  it('keep the first row over rows', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'datatable(k:string, n:long)["a", 1, "b", 3] | sort by n desc | extend r = row_number() | where r <= 1',
    );
    // Assess
    expect(rows).toEqual([['b', 3, 1]]);
  });

  it('the service opens its DuckDB instances without that pass', () => {
    expect(instanceOptions().disabled_optimizers).toBe('top_n_window_elimination');
  });
});
