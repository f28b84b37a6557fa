// H3 functions that place points on the icosahedron (lib/query/catalog/functions-v9-geoh3*.ts):
// argument errors, the Timestream refusal, hostile values, and the SQL against h3-js (the H3 C
// library compiled to JavaScript, a devDependency used only here) over thousands of points at every
// resolution, near the 12 pentagons and on the icosahedron's face edges. The pages' printed
// examples are the fn-geoh3-* conformance cases.
import * as h3 from 'h3-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACE_CENTER_XYZ } from '../../../lib/query/catalog/functions-v9-geoh3-tables';
import { compileFailure, expectRefusedAt } from './compile-failure';
import { duck, queryRunner, ts } from './geocell-queries';
import { seededRandom } from './seeded-random';

let rowsOf: (query: string) => Promise<unknown[][]>;
beforeAll(async () => {
  rowsOf = await queryRunner();
});

const DEGREES = 180 / Math.PI;
const toLngLat = ([x, y, z]: readonly number[]): [number, number] => {
  const n = Math.hypot(x!, y!, z!);
  return [Math.atan2(y!, x!) * DEGREES, Math.asin(z! / n) * DEGREES];
};

/**
 * Points where the projection is most fragile: around the 12 pentagon centers (the icosahedron's
 * vertices) and along the 30 edges between faces (the midpoints of adjacent face centers, and
 * points slightly off them), each with a resolution.
 */
function fragilePoints(): [number, number, number][] {
  const next = seededRandom(5);
  const out: [number, number, number][] = [];
  for (const p of h3.getPentagons(0)) {
    const [lat, lng] = h3.cellToLatLng(p);
    for (let k = 0; k < 25; k++) {
      const spread = 10 ** -Math.floor(next() * 6);
      out.push([lng + (next() - 0.5) * spread, Math.max(-90, Math.min(90, lat + (next() - 0.5) * spread)), k % 16]);
    }
  }
  const faces = FACE_CENTER_XYZ;
  faces.forEach((a, f) =>
    faces.forEach((b, g) => {
      const chord = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (g <= f || chord > 0.72) return; // adjacent faces only (their centers are 0.714 apart)
      for (let k = 0; k < 8; k++) {
        const t = 0.5 + (next() - 0.5) * 10 ** -(1 + Math.floor(next() * 8));
        const mid = [0, 1, 2].map((i) => a[i]! * t + b[i]! * (1 - t));
        out.push([...toLngLat(mid), Math.floor(next() * 16)]);
      }
    }),
  );
  return out;
}

/**
 * About 2,000 valid cells: of random points at every resolution, and every pentagon with the cells
 * two rings around it at every resolution (where cells cross faces more than once).
 */
function sampleCells(): string[] {
  const next = seededRandom(9);
  const out = new Set<string>();
  for (let k = 0; k < 1200; k++) {
    const lat = Math.asin(next() * 2 - 1) * DEGREES;
    out.add(h3.latLngToCell(lat, next() * 360 - 180, k % 16));
  }
  for (const p of h3.getPentagons(0))
    for (const res of [0, 1, 2, 3, 5, 8, 11, 14, 15])
      for (const c of h3.gridDisk(h3.cellToCenterChild(p, res), 2)) out.add(c);
  return [...out];
}

/** The cells' tokens as a datatable of one column `c`. */
const cellTable = (cells: readonly string[]): string =>
  `datatable(c: string) [${cells.map((c) => `"${c}"`).join(', ')}]`;

describe('geo_point_to_h3cell: argument errors and the Timestream refusal', () => {
  it.each([
    ['print geo_point_to_h3cell("1", 2)', "argument 'longitude' must be a real, got string", '1:27'],
    ['print geo_point_to_h3cell(1, 2, 3.5)', "argument 'resolution' must be an integer, got real", '1:33'],
    [
      'print geo_point_to_h3cell(1)',
      'geo_point_to_h3cell() takes (longitude: real, latitude: real, [resolution: integer])',
      '1:7',
    ],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it('refuses it on Timestream naming the function and the engine', () => {
    // Act
    const error = compileFailure('print x = geo_point_to_h3cell(1, 2, 3)', ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: geo_point_to_h3cell\(\) is not supported on the Timestream engine/);
  });
});

describe('geo_point_to_h3cell: hostile values give the empty string, never an error', () => {
  it("gives '' for coordinates or resolutions out of range, NaN, infinities and nulls", async () => {
    // Arrange
    const calls = [
      'geo_point_to_h3cell(real(nan), 1)',
      'geo_point_to_h3cell(1, real(nan))',
      'geo_point_to_h3cell(real(+inf), 1)',
      'geo_point_to_h3cell(1, real(-inf))',
      'geo_point_to_h3cell(180.0000001, 1)',
      'geo_point_to_h3cell(1, -90.0000001)',
      'geo_point_to_h3cell(real(null), 1)',
      'geo_point_to_h3cell(1, 1, -1)',
      'geo_point_to_h3cell(1, 1, 16)',
      'geo_point_to_h3cell(1, 1, long(null))',
      'geo_point_to_h3cell(1, 1, 9223372036854775807)',
    ];
    // Act
    const rows = await rowsOf(`print ${calls.join(', ')}`);
    // Assess
    expect(rows).toEqual([calls.map(() => '')]);
  });

  it('takes the poles, the antimeridian and integer and decimal arguments', async () => {
    // Act
    const rows = await rowsOf(
      'print geo_point_to_h3cell(0, 90, 15), geo_point_to_h3cell(-180, -90, 0), geo_point_to_h3cell(180, 0), geo_point_to_h3cell(-180, 0), geo_point_to_h3cell(long(10), int(10), int(3)), geo_point_to_h3cell(decimal(10.5), 10, 2)',
    );
    // Assess
    expect(rows).toEqual([
      [
        h3.latLngToCell(90, 0, 15),
        h3.latLngToCell(-90, -180, 0),
        h3.latLngToCell(0, 180, 6),
        h3.latLngToCell(0, -180, 6),
        h3.latLngToCell(10, 10, 3),
        h3.latLngToCell(10, 10.5, 2),
      ],
    ]);
  });
});

describe('geo_point_to_h3cell: the SQL against h3-js', () => {
  it('agrees on 4,000 points spread over the globe at every resolution', async () => {
    // Arrange: the query returns the points, so the reference reads the very doubles the SQL read.
    const query = [
      'range i from 0 to 3999 step 1',
      '| extend lng = ((i * 2654435761) % 4294967296) / 4294967296.0 * 360.0 - 180.0,',
      '         lat = asin(((i * 40503 + 12345) % 65521) / 65521.0 * 2.0 - 1.0) * 180.0 / pi(),',
      '         res = i % 16',
      '| project lng, lat, res, cell = geo_point_to_h3cell(lng, lat, res)',
    ].join('\n');
    // Act
    const rows = (await rowsOf(query)) as [number, number, number, string][];
    // Assess
    expect(rows.length).toBe(4000);
    const wrong = rows.filter(([lng, lat, res, cell]) => cell !== h3.latLngToCell(lat, lng, res));
    expect(wrong).toEqual([]);
  });

  it('agrees near the pentagons and on the face edges', async () => {
    // Arrange
    const points = fragilePoints();
    const query = [
      `datatable(lng: real, lat: real, res: long) [${points.map((p) => p.join(', ')).join(', ')}]`,
      '| project lng, lat, res, cell = geo_point_to_h3cell(lng, lat, res)',
    ].join('\n');
    // Act
    const rows = (await rowsOf(query)) as [number, number, number, string][];
    // Assess
    expect(rows.length).toBe(points.length);
    const pentagonCells = rows.filter(([, , , cell]) => h3.isPentagon(cell)).length;
    expect(pentagonCells).toBeGreaterThan(50);
    const wrong = rows.filter(([lng, lat, res, cell]) => cell !== h3.latLngToCell(lat, lng, res));
    expect(wrong).toEqual([]);
  });
});

describe('geo_h3cell_to_central_point', () => {
  it('refuses a non-string token, and Timestream naming the function and the engine', () => {
    // Act, Assess
    expectRefusedAt('print geo_h3cell_to_central_point(1)', duck, {
      code: 'QUERY_SEMANTIC',
      message: "argument 'h3cell' must be a string, got long",
      position: '1:35',
    });
    expect(compileFailure('print x = geo_h3cell_to_central_point("8")', ts).message).toMatch(
      /^1:11: geo_h3cell_to_central_point\(\) is not supported on the Timestream engine/,
    );
  });

  it('gives null for tokens that name no cell', async () => {
    // Arrange: not hex, empty, a digit 7 above the resolution, a pentagon's deleted child, base cell 122.
    const bad = ['"@"', '"1"', '""', '"8f2a1072fffffff"', '"81087ffffffffff"', '"80f5fffffffffff"'];
    // Act
    const rows = await rowsOf(`print ${bad.map((t) => `geo_h3cell_to_central_point(${t})`).join(', ')}`);
    // Assess
    expect(rows).toEqual([bad.map(() => null)]);
  });

  it('agrees with h3-js on about 2,000 cells, pentagons and their surroundings included', async () => {
    // Arrange
    const cells = sampleCells();
    // Act
    const rows = (await rowsOf(`${cellTable(cells)} | project c, p = geo_h3cell_to_central_point(c)`)) as [
      string,
      { type: string; coordinates: [number, number] },
    ][];
    // Assess
    expect(rows.length).toBe(cells.length);
    for (const [c, p] of rows) {
      const [lat, lng] = h3.cellToLatLng(c);
      expect(p.type, c).toBe('Point');
      expect(p.coordinates[1], c).toBeCloseTo(lat, 9);
      // At the poles the longitude is any; elsewhere it must agree (modulo the antimeridian).
      if (Math.abs(lat) < 89.9) expect(Math.abs(((p.coordinates[0] - lng + 540) % 360) - 180), c).toBeLessThan(1e-9);
    }
  });
});

describe('geo_h3cell_to_polygon', () => {
  it('gives null for tokens that name no cell, and refuses Timestream', async () => {
    // Act
    const rows = await rowsOf(
      'print geo_h3cell_to_polygon("@"), geo_h3cell_to_polygon("8f2a1072fffffff"), geo_h3cell_to_polygon("")',
    );
    // Assess
    expect(rows).toEqual([[null, null, null]]);
    expect(compileFailure('print x = geo_h3cell_to_polygon("8")', ts).message).toMatch(
      /^1:11: geo_h3cell_to_polygon\(\) is not supported on the Timestream engine/,
    );
  });

  it('agrees with h3-js on about 2,000 cells: hexagons, pentagons, and cells crossing face edges', async () => {
    // Arrange
    const cells = sampleCells();
    // Act
    const rows = (await rowsOf(`${cellTable(cells)} | project c, p = geo_h3cell_to_polygon(c)`)) as [
      string,
      { type: string; coordinates: [number, number][][] },
    ][];
    // Assess
    expect(rows.length).toBe(cells.length);
    let crossing = 0;
    for (const [c, p] of rows) {
      const expected = h3.cellToBoundary(c, true);
      const ring = p.coordinates[0]!;
      expect(p.type, c).toBe('Polygon');
      expect(ring.length, c).toBe(expected.length);
      expect(ring[ring.length - 1], c).toEqual(ring[0]);
      // A Class III cell across a face edge has crossing points, which the library computes with a
      // C float parameter (as we do) and h3-js with a double: they agree to about 1e-7 degrees.
      const crosses = h3.getResolution(c) % 2 === 1 && h3.getIcosahedronFaces(c).length > 1;
      if (crosses) crossing++;
      ring.forEach(([lng, lat], k) => {
        const [elng, elat] = expected[k]!;
        expect(Math.abs(lat - elat!), c).toBeLessThan(crosses ? 1e-6 : 1e-9);
        if (Math.abs(elat!) < 89.9)
          expect(Math.abs(((lng - elng! + 540) % 360) - 180), c).toBeLessThan(crosses ? 1e-6 : 1e-9);
      });
    }
    expect(crossing).toBeGreaterThan(20);
  });
});

describe("H3's grid-disk and polygon-fill functions stay refused with their reasons", () => {
  it.each([
    ['geo_h3cell_neighbors("862a1072fffffff")', "H3's grid-disk walk"],
    ['geo_h3cell_rings("862a1072fffffff", 1)', "H3's grid-disk walk"],
    ['geo_polygon_to_h3cells(dynamic(null), 3)', "H3's polygon fill"],
  ])('refuses %s at its name', (call, reason) => {
    // Act
    const error = compileFailure(`print x = ${call}`, duck);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: the function 'geo_\w+' is not supported: /);
    expect(error.message).toContain(reason);
  });
});
