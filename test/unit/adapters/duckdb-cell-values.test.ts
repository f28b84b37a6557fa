// The engine adapter reads the common column kinds straight from DuckDB's vectors (cell-values.ts):
// every cell must come out as the JSON converter + convertValue path gave it (which the answers'
// tests pin), edge values included, and every other pair of vector and KQL type takes that path.
import { JsonDuckDBValueConverter } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellReader } from '../../../lib/adapters/duckdb/cell-values';
import { convertRow, type KqlType } from '../../../lib/query/index';
import { memoryConnection, type MemoryConnection } from '../../support/memory-engine';

let db: MemoryConnection;

beforeAll(async () => {
  db = await memoryConnection();
});

afterAll(() => db.close());

/** Each row of the SQL's result read both ways: through the vectors' readers, and as convertRow of the JSON converter's values. */
async function bothWays(
  sql: string,
  types: readonly KqlType[],
): Promise<{ direct: unknown[][]; viaJson: unknown[][] }> {
  const result = await db.connection.run(sql);
  const direct: unknown[][] = [];
  const viaJson: unknown[][] = [];
  for (let i = 0; i < result.chunkCount; i++) {
    const chunk = result.getChunk(i);
    const cells = types.map((type, c) =>
      cellReader(c < chunk.columnCount ? chunk.getColumnVector(c) : undefined, type),
    );
    for (let row = 0; row < chunk.rowCount; row++) {
      direct.push(cells.map((cell) => cell(row)));
      viaJson.push(convertRow(chunk.convertRowValues(row, JsonDuckDBValueConverter), types));
    }
  }
  return { direct, viaJson };
}

describe('cells read straight from the vectors', () => {
  it("writes TIMESTAMP cells as Kusto's datetime text, null outside 0001-01-01 .. 9999-12-31", async () => {
    // Act
    const { direct, viaJson } = await bothWays(
      `SELECT * FROM (VALUES (TIMESTAMP '2026-01-01 00:00:00'), (TIMESTAMP '2026-01-01 10:30:00.120000'),
        (TIMESTAMP '1969-12-31 23:59:59.999999'), (TIMESTAMP '0001-01-01 00:00:00'), (TIMESTAMP '9999-12-31 23:59:59.999999'),
        (TIMESTAMP '0001-01-01 00:00:00' - INTERVAL 1 MICROSECOND), (TIMESTAMP '9999-12-31 23:59:59.999999' + INTERVAL 1 MICROSECOND),
        ('infinity'::TIMESTAMP), ('-infinity'::TIMESTAMP), (NULL::TIMESTAMP)) AS t(x)`,
      ['datetime'],
    );
    // Assess
    expect(direct.flat()).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-01-01T10:30:00.12Z',
      '1969-12-31T23:59:59.999999Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999999Z',
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(direct).toEqual(viaJson);
  });

  it('writes 5,000 timestamps spread over and beyond Kusto’s range as the JSON path does', async () => {
    // Prepare: microseconds from year -100 to year 10100, some on whole seconds, one before 1970 in every few
    let seed = 12_345n;
    const next = (): bigint => (seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n);
    const micros = Array.from({ length: 5_000 }, (_, i) => {
      const spread = (next() >> 12n) * 74n - 65_000_000_000_000_000n;
      return i % 3 === 0 ? (spread / 1_000_000n) * 1_000_000n : spread;
    });
    // Act
    const { direct, viaJson } = await bothWays(`SELECT make_timestamp(x) FROM unnest([${micros.join(', ')}]) AS t(x)`, [
      'datetime',
    ]);
    // Assess
    expect(direct).toHaveLength(5_000);
    expect(direct).toEqual(viaJson);
    expect(direct.some((row) => row[0] === null)).toBe(true);
  });

  it('reads doubles, bigints, booleans, strings and JSON as the JSON path does, edge values included', async () => {
    // Act
    const { direct, viaJson } = await bothWays(
      `SELECT * FROM (VALUES
        (1.5::DOUBLE, 9007199254740993::BIGINT, 3600000000::BIGINT, true, 'a"b\\', '{"k":[1,2.5,"x"]}'::JSON, 'g'),
        ('NaN'::DOUBLE, '-9223372036854775808'::BIGINT, -1::BIGINT, false, '', '[]'::JSON, ''),
        ('Infinity'::DOUBLE, 9007199254740991::BIGINT, 0::BIGINT, NULL, 'é€😀', '12'::JSON, NULL),
        ('-Infinity'::DOUBLE, NULL, NULL, true, NULL, NULL, 'x'),
        (-0.0::DOUBLE, 0::BIGINT, 86400000000::BIGINT, false, 'x', 'null'::JSON, 'y'),
        (NULL, 1::BIGINT, 1::BIGINT, true, 'y', '"s"'::JSON, 'z')) AS t(r, l, s, b, str, dyn, g)`,
      ['real', 'long', 'timespan', 'bool', 'string', 'dynamic', 'guid'],
    );
    // Assess
    expect(direct[0]).toEqual([1.5, '9007199254740993', '01:00:00', true, 'a"b\\', { k: [1, 2.5, 'x'] }, 'g']);
    expect(direct[1]).toEqual(['NaN', '-9223372036854775808', '-00:00:00.0000010', false, '', [], '']);
    expect(direct).toEqual(viaJson);
  });

  it('takes the JSON path for other pairs of vector and type, and a missing column as convertRow does', async () => {
    // Act: a KQL type that does not match the vector's, other vector kinds, a TIMESTAMP_NS, one column fewer than the types
    const { direct, viaJson } = await bothWays(
      `SELECT 2.5::DOUBLE, 42::BIGINT, TIMESTAMP '2026-01-02 03:04:05', 7::INTEGER, 1.25::DECIMAL(10, 2),
        [1, 2], {'a': 1}, TIMESTAMP_NS '2017-10-30 01:02:03.7654321', 'true', DATE '2026-01-02'`,
      ['dynamic', 'real', 'string', 'long', 'real', 'dynamic', 'dynamic', 'datetime', 'bool', 'datetime', 'long'],
    );
    // Assess
    expect(direct).toEqual(viaJson);
    expect(direct[0]).toEqual([
      2.5,
      42,
      '2026-01-02 03:04:05',
      7,
      1.25,
      [1, 2],
      { a: 1 },
      '2017-10-30T01:02:03.7654321Z',
      true,
      null, // a DATE is no datetime cell (the compiler casts dates to TIMESTAMP)
      null,
    ]);
  });
});
