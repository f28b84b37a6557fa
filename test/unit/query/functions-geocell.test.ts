// Geohash (lib/query/catalog/functions-v9-geocell-geohash.ts): argument errors at their position,
// the Timestream refusal, hostile values (null or '' as the pages say, never an error), and the SQL
// against the bisection reference of geocell-reference.ts over a few thousand points. The pages'
// printed examples are the conformance cases test/conformance/cases/fn-geocell-geohash-*. S2 and
// H3 are in functions-geocell-s2.test.ts and functions-geocell-h3.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { GEOHASH_NEIGHBOR_OFFSETS } from '../../../lib/query/catalog/functions-v9-geocell-geohash';
import { compileFailure, expectRefusedAt } from './compile-failure';
import { duck, EDGES, queryRunner, SPREAD, ts } from './geocell-queries';
import { geohashBox, geohashNeighbors, geohashOf } from './geocell-reference';

let rowsOf: (query: string) => Promise<unknown[][]>;
beforeAll(async () => {
  rowsOf = await queryRunner();
});

describe('geohash: argument errors and the Timestream refusal', () => {
  it.each([
    ['print geo_point_to_geohash("a", 1)', "argument 'longitude' must be a real, got string", '1:28'],
    ['print geo_point_to_geohash(1)', 'geo_point_to_geohash() takes (longitude: real, latitude: real', '1:7'],
    ['print geo_point_to_geohash(1, 2, 2.5)', "argument 'accuracy' must be an integer, got real", '1:34'],
    ['print geo_geohash_to_polygon(1)', "argument 'geohash' must be a string, got long", '1:30'],
    ['print geo_geohash_neighbors("a", "b")', 'geo_geohash_neighbors() takes (geohash: string)', '1:7'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it.each([
    'geo_point_to_geohash(1, 2)',
    'geo_geohash_to_central_point("s")',
    'geo_geohash_to_polygon("s")',
    'geo_geohash_neighbors("s")',
  ])('refuses %s on Timestream naming the function and the engine', (call) => {
    // Act
    const error = compileFailure(`print x = ${call}`, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: geo_\w+\(\) is not supported on the Timestream engine/);
  });
});

describe('geohash: hostile values give what the pages print, never an error', () => {
  it("gives '' for coordinates or accuracies out of range", async () => {
    // Arrange
    const calls = [
      'geo_point_to_geohash(real(nan), 0)',
      'geo_point_to_geohash(0, real(nan))',
      'geo_point_to_geohash(real(+inf), 0)',
      'geo_point_to_geohash(180.00000000000003, 0)',
      'geo_point_to_geohash(0, -90.00000000000001)',
      'geo_point_to_geohash(0, 0, 0)',
      'geo_point_to_geohash(0, 0, 19)',
      'geo_point_to_geohash(0, 0, -1)',
      'geo_point_to_geohash(real(null), 0)',
      'geo_point_to_geohash(0, 0, long(null))',
    ];
    // Act
    const rows = await rowsOf(`print ${calls.join(', ')}`);
    // Assess
    expect(rows).toEqual([calls.map(() => '')]);
  });

  it('gives null for geohash text that is not 1 to 18 characters of its alphabet', async () => {
    // Arrange: upper case, the letters a, i, l, o that the alphabet leaves out, too long, empty, a space.
    const texts = ['"SUNNY"', '"sunni"', '"sunna"', '"sunnl"', '"sunno"', '"0123456789bcdefghjk"', '""', '" sunny"'];
    const calls = texts.flatMap((t) => [
      `geo_geohash_to_central_point(${t})`,
      `geo_geohash_to_polygon(${t})`,
      `geo_geohash_neighbors(${t})`,
    ]);
    // Act
    const rows = await rowsOf(`print ${calls.join(', ')}`);
    // Assess
    expect(rows).toEqual([calls.map(() => null)]);
  });

  it('wraps neighbors around the antimeridian and leaves out rows beyond a pole', async () => {
    // Act
    const rows = await rowsOf(
      'print geo_geohash_neighbors("z"), geo_geohash_neighbors("0"), geo_geohash_neighbors("9")',
    );
    // Assess: z is the north-east corner cell at accuracy 1, 0 the south-west, 9 touches the antimeridian's west side.
    expect(rows).toEqual([
      [
        geohashNeighbors('z', GEOHASH_NEIGHBOR_OFFSETS),
        geohashNeighbors('0', GEOHASH_NEIGHBOR_OFFSETS),
        geohashNeighbors('9', GEOHASH_NEIGHBOR_OFFSETS),
      ],
    ]);
    expect((rows[0]![0] as string[]).length).toBe(5);
  });
});

describe('geohash: the SQL against the bisection reference', () => {
  it.each([
    ['3,000 spread points', SPREAD],
    ['points on cell boundaries at every accuracy', EDGES],
  ])('agrees on %s', async (_name, source) => {
    // Arrange
    const query = [
      source,
      '| extend accuracy = 1 + level % 18',
      '| extend h = geo_point_to_geohash(lng, lat, accuracy)',
      '| project lng, lat, accuracy, h, c = geo_geohash_to_central_point(h), p = geo_geohash_to_polygon(h), n = geo_geohash_neighbors(h)',
    ].join('\n');
    // Act
    const rows = await rowsOf(query);
    // Assess
    expect(rows.length).toBeGreaterThan(1000);
    for (const [lng, lat, accuracy, h, c, p, n] of rows as [
      number,
      number,
      number,
      string,
      unknown,
      unknown,
      unknown,
    ][]) {
      const at = `(${lng}, ${lat}, ${accuracy})`;
      expect(h, at).toBe(geohashOf(lng, lat, accuracy));
      const b = geohashBox(h)!;
      expect(c, at).toEqual({ type: 'Point', coordinates: [(b.west + b.east) / 2, (b.south + b.north) / 2] });
      const ring = [
        [b.west, b.south],
        [b.east, b.south],
        [b.east, b.north],
        [b.west, b.north],
        [b.west, b.south],
      ];
      expect(p, at).toEqual({ type: 'Polygon', coordinates: [ring] });
      expect(n, at).toEqual(geohashNeighbors(h, GEOHASH_NEIGHBOR_OFFSETS));
    }
  });
});
