// S2 cells (lib/query/catalog/functions-v9-geocell-s2*.ts): argument errors, the Timestream refusal,
// hostile values, and the SQL against the reference of geocell-reference.ts over a few thousand
// points, face edges, corners and poles. The printed examples: fn-geocell-s2-* conformance cases.
import { beforeAll, describe, expect, it } from 'vitest';
import { S2_NEIGHBOR_OFFSETS } from '../../../lib/query/catalog/functions-v9-geocell-s2-sql';
import { compileFailure, expectRefusedAt } from './compile-failure';
import { duck, EDGES, expectNear, queryRunner, SPREAD, ts } from './geocell-queries';
import { s2CellOf, s2Center, s2Neighbors, s2Ring, s2TokenOfPoint } from './geocell-reference';

let rowsOf: (query: string) => Promise<unknown[][]>;
beforeAll(async () => {
  rowsOf = await queryRunner();
});

describe('S2: argument errors and the Timestream refusal', () => {
  it.each([
    ['print geo_point_to_s2cell("a", 1)', "argument 'longitude' must be a real, got string", '1:27'],
    ['print geo_point_to_s2cell(1)', 'geo_point_to_s2cell() takes (longitude: real, latitude: real', '1:7'],
    ['print geo_point_to_s2cell(1, 2, 2.5)', "argument 'level' must be an integer, got real", '1:33'],
    ['print geo_s2cell_to_polygon(1)', "argument 's2cell' must be a string, got long", '1:29'],
    ['print geo_s2cell_neighbors("a", "b")', 'geo_s2cell_neighbors() takes (s2cell: string)', '1:7'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it.each([
    'geo_point_to_s2cell(1, 2)',
    'geo_s2cell_to_central_point("1")',
    'geo_s2cell_to_polygon("1")',
    'geo_s2cell_neighbors("1")',
  ])('refuses %s on Timestream naming the function and the engine', (call) => {
    // Act
    const error = compileFailure(`print x = ${call}`, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: geo_\w+\(\) is not supported on the Timestream engine/);
  });
});

describe('S2: hostile values give what the pages print, never an error', () => {
  it("gives '' for coordinates or levels out of range", async () => {
    // Arrange
    const calls = [
      'geo_point_to_s2cell(real(nan), 0)',
      'geo_point_to_s2cell(0, real(-inf))',
      'geo_point_to_s2cell(-180.00000000000003, 0)',
      'geo_point_to_s2cell(0, 90.00000000000001)',
      'geo_point_to_s2cell(0, 0, -1)',
      'geo_point_to_s2cell(0, 0, 31)',
      'geo_point_to_s2cell(0, 0, long(null))',
      'geo_point_to_s2cell(real(null), 0)',
    ];
    // Act
    const rows = await rowsOf(`print ${calls.join(', ')}`);
    // Assess
    expect(rows).toEqual([calls.map(() => '')]);
  });

  it('gives null for a token that names no cell', async () => {
    // Arrange: a face above 5 (c, d, e, f), a lowest 1 bit at an odd position (a, 2, 8a), a level
    // below 0 (4), no 1 bit at all, not hex, too long, empty.
    const tokens = [
      'c',
      'd1',
      'e',
      'f',
      'a',
      '2',
      '8a',
      '4',
      '0',
      '0000',
      'g',
      '89c25z',
      '89c2591234567890a',
      '',
      ' 89c259',
    ];
    const calls = (t: string): string =>
      `print geo_s2cell_to_central_point("${t}"), geo_s2cell_to_polygon("${t}"), geo_s2cell_neighbors("${t}")`;
    // Act: one query a token (the three calls' SQL of fifteen tokens would pass the SQL size limit).
    const rows = await Promise.all(tokens.map((t) => rowsOf(calls(t))));
    // Assess
    expect(rows).toEqual(tokens.map(() => [[null, null, null]]));
    for (const t of tokens) expect(s2CellOf(t), t).toBeUndefined();
  });

  it('reads upper-case tokens and tokens with trailing zeros as the same cell', async () => {
    // Act
    const rows = await rowsOf(
      'print geo_s2cell_to_polygon("89C259") == geo_s2cell_to_polygon("89c2590"), geo_s2cell_neighbors("89C259")',
    );
    // Assess
    expect(rows).toEqual([[true, s2Neighbors(s2CellOf('89c259')!, S2_NEIGHBOR_OFFSETS)]]);
  });
});

describe('S2: the SQL against the reference', () => {
  it.each([
    ['3,000 spread points at levels 0 to 30', SPREAD],
    ['points on face edges, corners and poles at every level', EDGES],
  ])('agrees on %s', async (_name, source) => {
    // Arrange
    const query = [
      source,
      '| extend t = geo_point_to_s2cell(lng, lat, level)',
      '| project lng, lat, level, t, c = geo_s2cell_to_central_point(t), p = geo_s2cell_to_polygon(t), n = geo_s2cell_neighbors(t)',
    ].join('\n');
    // Act
    const rows = await rowsOf(query);
    // Assess
    expect(rows.length).toBeGreaterThan(1000);
    for (const [lng, lat, level, t, c, p, n] of rows as [number, number, number, string, unknown, unknown, unknown][]) {
      const at = `(${lng}, ${lat}, ${level})`;
      expect(t, at).toBe(s2TokenOfPoint(lng, lat, level));
      const cell = s2CellOf(t)!;
      expect((c as { type: string }).type, at).toBe('Point');
      expectNear((c as { coordinates: number[] }).coordinates, s2Center(cell), at);
      const ring = (p as { coordinates: number[][][] }).coordinates[0]!;
      expectNear(ring.flat(), s2Ring(cell).flat(), at);
      expect(n, at).toEqual(s2Neighbors(cell, S2_NEIGHBOR_OFFSETS));
    }
  });
});
