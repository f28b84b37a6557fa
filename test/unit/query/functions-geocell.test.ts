// The geospatial cell functions (lib/query/catalog/functions-v9-geocell-*.ts): argument errors at
// their position, the Timestream refusal, hostile values (null or '' as the pages say, never an
// error), and the SQL against the TypeScript references of geocell-reference.ts over a few thousand
// points. The pages' printed examples are the conformance cases test/conformance/cases/fn-geocell-*.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertRows } from '../../../lib/query/index';
import { GEOHASH_NEIGHBOR_OFFSETS } from '../../../lib/query/catalog/functions-v9-geocell-geohash';
import { S2_NEIGHBOR_OFFSETS } from '../../../lib/query/catalog/functions-v9-geocell-s2-sql';
import { compileWithKeys } from '../../conformance/discover';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';
import {
  geohashBox,
  geohashNeighbors,
  geohashOf,
  h3Children,
  h3Index,
  h3Parent,
  s2CellOf,
  s2Center,
  s2Neighbors,
  s2Ring,
  s2TokenOfPoint,
} from './geocell-reference';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

async function rowsOf(query: string): Promise<unknown[][]> {
  const compiled = await compileWithKeys(db, query, { ...GOLDEN_OPTIONS, rowLimit: 100_000, dialect: 'duckdb' });
  return convertRows(
    await runSql(db, compiled.sql),
    compiled.columns.map((c) => c.type),
  ) as unknown[][];
}

/**
 * 3,000 points spread over the globe by a multiplicative hash of the row number (the query returns
 * them, so the reference reads the very doubles the SQL read), plus points on cell boundaries at
 * every level, where an index computed in doubles could be off by one.
 */
const SPREAD = [
  'range i from 0 to 2999 step 1',
  '| extend lng = ((i * 2654435761) % 4294967296) / 4294967296.0 * 360.0 - 180.0,',
  '         lat = ((i * 40503 + 12345) % 65521) / 65521.0 * 180.0 - 90.0,',
  '         level = i % 31',
].join('\n');
const EDGE_LNG = [-180, 180, 0, 45, -45, 90, -90, 22.5, 135, -0.3515625, 179.99999999999997, -179.99999999999997];
const EDGE_LAT = [-90, 90, 0, 45, -45, 11.25, -67.5, 89.99999999999999, 0.17578125];
const EDGES = [
  `datatable(lng: real, lat: real) [${EDGE_LNG.flatMap((x) => EDGE_LAT.map((y) => `${x}, ${y}`)).join(', ')}]`,
  '| mv-expand level = range(0, 30, 1) to typeof(long)',
].join('\n');

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

/** Coordinates agree to 1e-11 degrees: DuckDB's libm and V8's atan2 may differ in the last bit. */
function expectNear(actual: unknown, expected: number[], at: string): void {
  const got = actual as number[];
  expect(got.length, at).toBe(expected.length);
  got.forEach((x, k) => expect(x, at).toBeCloseTo(expected[k]!, 11));
}

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

/** A small deterministic generator (mulberry32), so the H3 indexes below are the same each run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 400 H3 tokens: valid cells of every resolution (the pentagon base cells often, with digits 0 and 1
 * often, to reach the missing pentagon children), and one in four with one bit flipped anywhere.
 */
function h3Tokens(): string[] {
  const next = random(7);
  const pick = (n: number): number => Math.floor(next() * n);
  const out: string[] = [];
  while (out.length < 400) {
    const base = next() < 0.3 ? [4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117][pick(12)]! : pick(122);
    const res = pick(16);
    let id = (1n << 59n) | (BigInt(res) << 52n) | (BigInt(base) << 45n);
    for (let r = 1; r <= 15; r++) {
      const d = r > res ? 7 : next() < 0.5 ? pick(2) : pick(7);
      id |= BigInt(d) << BigInt(3 * (15 - r));
    }
    if (next() < 0.25) id ^= 1n << BigInt(pick(64));
    out.push(id.toString(16));
  }
  return out;
}

describe('H3 level, parent and children: argument errors and the Timestream refusal', () => {
  it.each([
    ['print geo_h3cell_level(1)', "argument 'h3cell' must be a string, got long", '1:24'],
    ['print geo_h3cell_parent("8", 1.5)', "argument 'resolution' must be an integer, got real", '1:30'],
    ['print geo_h3cell_children()', 'geo_h3cell_children() takes (h3cell: string, [resolution: integer])', '1:7'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it.each(['geo_h3cell_level("8")', 'geo_h3cell_parent("8")', 'geo_h3cell_children("8")'])(
    'refuses %s on Timestream naming the function and the engine',
    (call) => {
      // Act
      const error = compileFailure(`print x = ${call}`, ts);
      // Assess
      expect(error.code).toBe('QUERY_UNSUPPORTED');
      expect(error.message).toMatch(/^1:11: geo_h3cell_\w+\(\) is not supported on the Timestream engine/);
    },
  );

  it.each([
    'geo_point_to_h3cell(1, 1, 10)',
    'geo_h3cell_to_polygon("862a1072fffffff")',
    'geo_h3cell_rings("862a1072fffffff", 1)',
    'geo_polygon_to_s2cells(dynamic(null))',
  ])('refuses %s at its name with the reason', (call) => {
    // Act
    const error = compileFailure(`print x = ${call}`, duck);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: the function 'geo_\w+' is not supported: .*(H3|covering)/);
  });
});

describe('H3 level, parent and children: hostile values give what the pages print, never an error', () => {
  it('gives null, or an empty parent, for tokens that name no cell and for resolutions out of range', async () => {
    // Arrange: mode 2 (an edge), a reserved bit, base cell 122, a digit 7 above the resolution, a
    // digit other than 7 below it, a pentagon's missing child (base cell 4, first digit 1), not hex,
    // too long, empty; then a valid cell with resolutions out of range or null.
    const bad = [
      '1162a1072fffffff',
      '862a1072fffffff0',
      '8af4000000000000',
      '8cf3fffffffffff',
      '85f4000000000000',
      '852a107ffffffff',
      '852a1072fffffff',
      '8109fffffffffff',
      '81087ffffffffff',
      'xyz',
      '8862a1072fffffff',
      '',
    ];
    const calls = bad.map((t) => `geo_h3cell_level("${t}"), geo_h3cell_parent("${t}"), geo_h3cell_children("${t}")`);
    const cell = '862a1072fffffff';
    const ranges = [
      `geo_h3cell_parent("${cell}", -1)`,
      `geo_h3cell_parent("${cell}", 7)`,
      `geo_h3cell_parent("${cell}", long(null))`,
      `geo_h3cell_parent("8001fffffffffff")`,
      `geo_h3cell_children("${cell}", 5)`,
      `geo_h3cell_children("${cell}", 12)`,
      `geo_h3cell_children("${cell}", 16)`,
      `geo_h3cell_children("${cell}", long(null))`,
      `geo_h3cell_children("8f2a1072ffffff0")`,
    ];
    // Act
    const rows = await rowsOf(`print ${[...calls, ...ranges].join(', ')}`);
    // Assess
    expect(rows).toEqual([[...bad.flatMap(() => [null, '', null]), '', '', '', '', null, null, null, null, null]]);
    for (const t of bad) expect(h3Index(t), t).toBeUndefined();
  });

  it("lists a pentagon's children without the missing one", async () => {
    // Act: base cell 4 is a pentagon; 8009fffffffffff is its resolution 0 cell.
    const rows = await rowsOf(
      'print geo_h3cell_children("8009fffffffffff"), array_length(geo_h3cell_children("8009fffffffffff", 2))',
    );
    // Assess: 6 children (digit 1 missing); at resolution 2, the pentagon child's 6 and 5 hexagons' 7 each.
    expect(rows).toEqual([[h3Children('8009fffffffffff'), 41]]);
    expect((rows[0]![0] as string[]).length).toBe(6);
  });
});

describe('H3 level, parent and children: the SQL against the reference', () => {
  it('agrees on 400 tokens, valid and corrupted, at default and chosen resolutions', async () => {
    // Arrange
    const next = random(11);
    const tokens = h3Tokens().map((t) => [t, Math.floor(next() * 16), 1 + Math.floor(next() * 15)] as const);
    const query = [
      `datatable(t: string, pr: long, cr: long) [${tokens.map(([t, p, c]) => `"${t}", ${p}, ${c}`).join(', ')}]`,
      '| project t, pr, cr, l = geo_h3cell_level(t), p = geo_h3cell_parent(t), p2 = geo_h3cell_parent(t, pr),',
      '          c = geo_h3cell_children(t), c2 = geo_h3cell_children(t, iff(cr > geo_h3cell_level(t) + 2, geo_h3cell_level(t) + 2, cr))',
    ].join('\n');
    // Act
    const rows = await rowsOf(query);
    // Assess
    expect(rows.length).toBe(400);
    expect(rows.filter((r) => r[3] !== null).length).toBeGreaterThan(250);
    for (const [t, pr, cr, l, p, p2, c, c2] of rows as [
      string,
      number,
      number,
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
    ][]) {
      const cell = h3Index(t);
      expect(l, t).toBe(cell ? cell.res : null);
      expect(p, t).toBe(h3Parent(t));
      expect(p2, t).toBe(h3Parent(t, pr));
      expect(c, t).toEqual(h3Children(t));
      expect(c2, t).toEqual(h3Children(t, cell && cr > cell.res + 2 ? cell.res + 2 : cr));
    }
  });
});
