// The geometry geo_* functions (lib/query/catalog/functions-v9-geo-*.ts): argument errors at their
// position, the Timestream refusals, the refused geometry functions' reasons, and hostile input on
// DuckDB (huge, deep, NaN, malformed) answered in bounded time with null or a value, never an error.
// Their results are pinned by the conformance corpus (test/conformance/cases/fn-geo-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

describe('geo functions: argument errors', () => {
  it.each([
    ['print r = geo_distance_2points("a", 1, 2, 3)', "argument 'p1_longitude' must be a number", '1:32'],
    ['print r = geo_polygon_area(1)', "argument 'polygon' must be a dynamic", '1:28'],
    ['print r = geo_point_in_polygon(1, 2)', 'geo_point_in_polygon() takes (longitude: number', '1:11'],
    ['print r = geo_angle(1, 2, 3, 4, 5)', 'geo_angle() takes', '1:11'],
    ['print r = geo_distance_2points(1, 2, 3, 4, true)', 'use_spheroid must be the constant false', '1:44'],
    ['range x from 1 to 2 step 1 | extend r = geo_distance_2points(1, 2, 3, 4, x > 1)', 'use_spheroid', '1:74'],
    ['print r = geo_line_locate_point(dynamic(null), 1, 2, true)', 'use_spheroid must be the constant false', '1:54'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });
});

describe('geo functions: engines', () => {
  it.each([
    'geo_distance_2points(1, 2, 3, 4)',
    'geo_point_in_circle(1, 2, 3, 4, 5)',
    'geo_azimuth(1, 2, 3, 4)',
    'geo_angle(1, 2, 3, 4, 5, 6)',
  ])('compiles %s for Timestream', (call) => {
    // Act
    const sql = compile(`print r = ${call}`, ts).sql;
    // Assess
    expect(sql).toContain('sin(');
  });

  it.each([
    ['geo_line_length(dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]}))', 'geo_line_length'],
    ['geo_line_centroid(dynamic(null))', 'geo_line_centroid'],
    ['geo_distance_point_to_line(1, 2, dynamic(null))', 'geo_distance_point_to_line'],
    ['geo_point_in_polygon(1, 2, dynamic(null))', 'geo_point_in_polygon'],
    ['geo_distance_point_to_polygon(1, 2, dynamic(null))', 'geo_distance_point_to_polygon'],
    ['geo_polygon_area(dynamic(null))', 'geo_polygon_area'],
    ['geo_polygon_perimeter(dynamic(null))', 'geo_polygon_perimeter'],
    ['geo_polygon_centroid(dynamic(null))', 'geo_polygon_centroid'],
    ['geo_line_interpolate_point(dynamic(null), 0.5)', 'geo_line_interpolate_point'],
    ['geo_line_locate_point(dynamic(null), 1, 2)', 'geo_line_locate_point'],
    ['geo_closest_point_on_line(1, 2, dynamic(null))', 'geo_closest_point_on_line'],
    ['geo_closest_point_on_polygon(1, 2, dynamic(null))', 'geo_closest_point_on_polygon'],
  ])('refuses %s on Timestream naming the function and the engine', (call, fn) => {
    // Act
    const error = compileFailure(`print r = ${call}`, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the Timestream engine`);
  });

  it.each([
    ['geo_polygon_buffer(dynamic(null), 10)', 'buffer'],
    ['geo_intersection_2polygons(dynamic(null), dynamic(null))', 'clipping'],
    ['geo_union_polygons_array(dynamic(null))', 'union'],
    ['geo_polygon_simplify(dynamic(null))', 'simplif'],
  ])('refuses %s with a reason', (call, reason) => {
    // Act
    const error = compileFailure(`print r = ${call}`, duck);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: the function 'geo_\w+' is not supported: /);
    expect(error.message).toContain(reason);
  });
});

// Large geometries: each test's timeout is a guard against a hang or a quadratic walk (a 100,000-vertex
// ring took minutes before), set far above a quiet run so that a loaded CI machine does not fail it.
describe('geo functions: hostile input on DuckDB', { timeout: 240_000 }, () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function run(query: string): Promise<unknown[]> {
    const compiled = compile(query, duck);
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return rows[0] as unknown[];
  }

  it('measures a ring of 100,000 vertices in bounded time', async () => {
    // Prepare: the parallel 80°N (a circle of radius 10° around the pole) as a Polygon and a LineString
    const query = `range i from 0 to 99999 step 1
      | extend lng = 360.0 * i / 100000 - 180, lat = 80.0
      | summarize ring = make_list(pack_array(lng, lat))
      | extend poly = bag_pack("type", "Polygon", "coordinates", pack_array(array_concat(ring, pack_array(ring[0]))))
      | project inside = geo_point_in_polygon(1, 85, poly), outside = geo_point_in_polygon(1, 70, poly),
          area = geo_polygon_area(poly), length = geo_line_length(bag_pack("type", "LineString", "coordinates", ring)),
          half = geo_line_locate_point(bag_pack("type", "LineString", "coordinates", ring), 0, 80),
          end = geo_line_interpolate_point(bag_pack("type", "LineString", "coordinates", ring), 1)`;
    // Act
    const [inside, outside, area, length, half, end] = await run(query);
    // Assess: a spherical cap of 10° is 2πR²(1 - cos 10°); the 100,000-gon's geodesic edges differ from it by ~1e-10
    expect(inside).toBe(true);
    expect(outside).toBe(false);
    const cap = 2 * Math.PI * 6371010 ** 2 * (1 - Math.cos(Math.PI / 18));
    expect(Math.abs((area as number) / cap - 1)).toBeLessThan(1e-6);
    const circle = 2 * Math.PI * 6371010 * Math.sin(Math.PI / 18) * ((100000 - 1) / 100000); // the line is not closed
    expect(Math.abs((length as number) / circle - 1)).toBeLessThan(1e-6);
    expect(Math.abs((half as number) - 0.5)).toBeLessThan(1e-4);
    expect((end as { coordinates: number[] }).coordinates[1]).toBeCloseTo(80, 9);
  });

  it('answers a MultiPolygon of two 50,000-vertex parts in bounded time (over the pairwise test cap: null)', async () => {
    // Prepare: the parallels 80°N and 80°S as the two parts
    const query = `range i from 0 to 99999 step 1
      | extend part = i / 50000, lng = 360.0 * (i % 50000) / 50000 - 180, lat = iff(part == 0, 80.0, -80.0)
      | summarize ring = make_list(pack_array(lng, lat)) by part
      | summarize parts = make_list(pack_array(array_concat(ring, pack_array(ring[0]))))
      | project a = geo_polygon_area(bag_pack("type", "MultiPolygon", "coordinates", parts)),
          inside = geo_point_in_polygon(0, -85, bag_pack("type", "MultiPolygon", "coordinates", parts))`;
    // Act
    const row = await run(query);
    // Assess
    expect(row).toEqual([null, true]);
  });

  it('answers null for a geometry nested 5,000 levels deep', async () => {
    // Act
    const [area, inside] = await run(
      'print a = geo_polygon_area(parse_json(strcat(strrep("[", 5000), strrep("]", 5000)))), ' +
        'b = geo_point_in_polygon(1, 1, parse_json(strcat(\'{"type":"Polygon","coordinates":\', strrep("[", 5000), strrep("]", 5000), "}")))',
    );
    // Assess
    expect([area, inside]).toEqual([null, null]);
  });

  it('answers null for NaN and out-of-range coordinates and malformed positions', async () => {
    // Act
    const row = await run(
      'print a = geo_distance_2points(real(nan), 1, 2, 3), b = geo_point_in_circle(1, 1, 1, 1, real(nan)), ' +
        'c = geo_azimuth(1, 91, 2, 3), d = geo_line_length(dynamic({"type":"LineString","coordinates":[[1, 1], ["a", 2]]})), ' +
        'e = geo_line_length(dynamic({"type":"LineString","coordinates":[[1, 1], [2, 2, 3]]})), ' +
        'f = geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,91],[0,0]]]})), ' +
        'g = geo_point_in_polygon(0.5, 0.1, dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]})), ' +
        'h = geo_polygon_centroid(dynamic({"type":"Point","coordinates":[0,0]}))',
    );
    // Assess
    expect(row).toEqual([null, null, null, null, null, null, null, null]);
  });

  it('answers a literal polygon or line (written out edge by edge) as the same geometry computed per row', async () => {
    // Prepare: a shell with a hole and a grid of 10,000 points over both, off the vertices (a point on
    // the boundary is S2's convention, which neither form claims to follow bit for bit)
    const poly =
      '{"type":"Polygon","coordinates":[[[-74.0,40.70],[-73.95,40.75],[-73.90,40.70],[-73.95,40.76],[-74.0,40.70]],' +
      '[[-73.96,40.73],[-73.95,40.745],[-73.94,40.73],[-73.96,40.73]]]}';
    const query = `let p = dynamic(${poly});
      range i from 0 to 9999 step 1 | extend lng = -74.0099 + (i % 100) / 900.0, lat = 40.6901 + (i / 100) / 1400.0
      | extend l = bag_pack("type", "LineString", "coordinates", p.coordinates[0])
      | summarize inside = countif(geo_point_in_polygon(lng, lat, p)),
          differ = countif(geo_point_in_polygon(lng, lat, p) != geo_point_in_polygon(lng, lat, parse_json(tostring(p)))),
          polygon = max(abs(geo_distance_point_to_polygon(lng, lat, p) - geo_distance_point_to_polygon(lng, lat, parse_json(tostring(p))))),
          line = max(abs(geo_distance_point_to_line(lng, lat, dynamic({"type":"LineString","coordinates":[[-74.0,40.70],[-73.95,40.75],[-73.90,40.70],[-73.95,40.76],[-74.0,40.70]]}))
            - geo_distance_point_to_line(lng, lat, l)))`;
    // Act
    const [inside, differ, polygon, line] = await run(query);
    // Assess: some points inside, none answered differently, distances (metres) equal but for the
    // rounding of the vectors' last bits (~1e-16 rad, 1e-9 m)
    expect(inside).toBeGreaterThan(500);
    expect(differ).toBe(0);
    expect(polygon).toBeLessThan(1e-6);
    expect(line).toBeLessThan(1e-6);
  });

  it('measures a MultiPolygon of disjoint parts as their sum, two overlapping convex parts as their union, other overlaps as null', async () => {
    // Prepare: unit squares; an island inside another part's hole is disjoint from it
    const square = (x: number, y: number, s: number): string =>
      `[[${x},${y}],[${x + s},${y}],[${x + s},${y + s}],[${x},${y + s}],[${x},${y}]]`;
    const multi = (...parts: string[]): string => `dynamic({"type":"MultiPolygon","coordinates":[${parts.join(',')}]})`;
    const hole = '[[0.1,0.1],[0.1,0.9],[0.9,0.9],[0.9,0.1],[0.1,0.1]]';
    const notch = '[[0,0],[1,0],[1,1],[0.5,0.5],[0,1],[0,0]]';
    const one = (ring: string): string => `geo_polygon_area(dynamic({"type":"Polygon","coordinates":[${ring}]}))`;
    // Act: one part pair a query (each area's SQL is large)
    const area = async (expr: string): Promise<number> => ((await run(`print ${expr}`)) as number[])[0]!;
    const [sum, apart, island] = (await run(
      `print sum = ${one(square(0, 0, 1))} + ${one(square(2, 0, 1))}, ` +
        `apart = geo_polygon_area(${multi(`[${square(0, 0, 1)}]`, `[${square(2, 0, 1)}]`)}), ` +
        `island = geo_polygon_area(${multi(`[${square(0, 0, 1)},${hole}]`, `[${square(0.2, 0.2, 0.2)}]`)}) - ` +
        `(${one(square(0, 0, 1))} - ${one(hole)} + ${one(square(0.2, 0.2, 0.2))})`,
    )) as number[];
    const big = await area(one(square(0, 0, 1)));
    const overlapping = await area(`geo_polygon_area(${multi(`[${square(0, 0, 1)}]`, `[${square(0.5, 0, 1)}]`)})`);
    const reversed = await area(`geo_polygon_area(${multi(`[${square(0.5, 0, 1)}]`, `[${square(0, 0, 1)}]`)})`);
    const nested = await area(`geo_polygon_area(${multi(`[${square(0, 0, 1)}]`, `[${square(0.2, 0.2, 0.2)}]`)})`);
    const concave = await area(`geo_polygon_area(${multi(`[${notch}]`, `[${square(0.4, 0, 0.2)}]`)})`);
    const three = await area(
      `geo_polygon_area(${multi(`[${square(0, 0, 1)}]`, `[${square(0.5, 0, 1)}]`, `[${square(5, 0, 1)}]`)})`,
    );
    // Assess: the overlap of [0,1] and [0.5,1.5] (degrees) is counted once: 1.5 squares' worth
    expect(Math.abs(apart! / sum! - 1)).toBeLessThan(1e-12);
    expect(Math.abs(island!)).toBeLessThan(1e-3);
    expect(Math.abs(overlapping / reversed - 1)).toBeLessThan(1e-12);
    expect(Math.abs(overlapping / big - 1.5)).toBeLessThan(1e-3);
    expect(Math.abs(nested / big - 1)).toBeLessThan(1e-12);
    expect([concave, three]).toEqual([null, null]);
  });

  it('measures two identical convex parts, or parts whose vertices lie on the other part, once, whatever their direction', async () => {
    // Prepare: a square twice (one copy clockwise); two lunes from the north pole over longitudes 0-20 and
    // 10-30, sharing the pole, each with a vertex on the other's edge, both written clockwise
    const multi = (...rings: string[]): string =>
      `geo_polygon_area(dynamic({"type":"MultiPolygon","coordinates":[${rings.map((r) => `[${r}]`).join(',')}]}))`;
    const one = (ring: string): string => `geo_polygon_area(dynamic({"type":"Polygon","coordinates":[${ring}]}))`;
    const square = '[[0,0],[10,0],[10,10],[0,10],[0,0]]';
    // Act
    const [twice, single] = (await run(
      `print twice = ${multi(square, '[[0,0],[0,10],[10,10],[10,0],[0,0]]')}, single = ${one(square)}`,
    )) as number[];
    const [lunes, lune] = (await run(
      `print lunes = ${multi('[[0,90],[20,0],[0,0],[0,90]]', '[[0,90],[30,0],[10,0],[0,90]]')}, ` +
        `lune = ${one('[[0,90],[0,0],[30,0],[0,90]]')}`,
    )) as number[];
    // Assess: the union, not the sum (it was twice the square, and the two lunes' sum)
    expect(Math.abs(twice! / single! - 1)).toBeLessThan(1e-12);
    expect(Math.abs(lunes! / lune! - 1)).toBeLessThan(1e-12);
  });

  it("gives the geo_polygon_area page's union of two overlapping parts to within a millionth of a square metre's rounding", async () => {
    // Act: the page prints 10889971.5343487 (S2 builds the union polygon; here A + B - A∩B, last digits differ)
    const [area] = (await run(
      'print geo_polygon_area(dynamic({"type":"MultiPolygon","coordinates":[[[[-73.9495,40.7969],[-73.95807266235352,40.80068603561921],' +
        '[-73.98201942443848,40.76825672305777],[-73.97317886352539,40.76455136505513],[-73.9495,40.7969]]],' +
        '[[[-73.94262313842773,40.775991804565585],[-73.98107528686523,40.791849155467695],[-73.99600982666016,40.77092185281977],' +
        '[-73.96150588989258,40.75609977566361],[-73.94262313842773,40.775991804565585]]]]}))',
    )) as number[];
    // Assess
    expect(Math.abs(area! - 10889971.5343487)).toBeLessThan(1e-3);
  });

  it('takes a ring in either orientation as the smaller region it bounds', async () => {
    // Act: the same square clockwise and counterclockwise
    const row = await run(
      'print ccw = geo_point_in_polygon(0.5, 0.5, dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})), ' +
        'cw = geo_point_in_polygon(0.5, 0.5, dynamic({"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]})), ' +
        'antipode = geo_point_in_polygon(-179.5, -0.5, dynamic({"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]})), ' +
        'same = geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]})) == ' +
        'geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}))',
    );
    // Assess
    expect(row).toEqual([true, true, false, true]);
  });
});
