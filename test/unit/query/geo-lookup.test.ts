// evaluate geo_polygon_lookup and geo_line_lookup at the compile() level: results on DuckDB beyond the
// pages' examples (overlapping, invalid and null shapes, null points, an empty lookup table, name
// clashes, the options positional or named), Timestream's refusal naming the plugin, and malformed
// arguments refused at their position. The pages' examples are in the conformance corpus
// (test/conformance/cases/op-geolookup-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { sortedRows } from './duckdb-rows';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
/** "1:col" of `part`'s first occurrence in the one-line query `q`. */
const at = (q: string, part: string): string => `1:${q.indexOf(part) + 1}`;

/** A square around (0, 0) of about ±1°, and one around (1, 1) overlapping it. */
const square = (c: number) =>
  `dynamic({"type":"Polygon","coordinates":[[[${c - 1},${c - 1}],[${c + 1},${c - 1}],[${c + 1},${c + 1}],[${c - 1},${c + 1}],[${c - 1},${c - 1}]]]})`;
const shapes =
  `let S = datatable(s:string, p:dynamic)["a", ${square(0)}, "b", ${square(1)}, ` +
  `"bad", dynamic({"type":"Polygon","coordinates":[[[0,0],[1,1],[0,0]]]}), "none", dynamic(null)];`;
const points =
  'let P = datatable(n:string, lng:real, lat:real)["both", 0.5, 0.5, "a only", -0.5, -0.5, "far", 50.0, 50.0, "null", real(null), 0.0];';

describe('evaluate geo_polygon_lookup / geo_line_lookup', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => sortedRows(db, query);

  it('gives a row per polygon holding the point; invalid and null polygons and null points match nothing', async () => {
    // Act
    const rows = await run(`${shapes}${points} P | evaluate geo_polygon_lookup(S, lng, lat, p) | project n, s`);
    // Assess
    expect(rows).toEqual([
      ['a only', 'a'],
      ['both', 'a'],
      ['both', 'b'],
    ]);
  });

  it('with return_unmatched keeps each unmatched row once, the lookup columns empty, a null point included', async () => {
    // Act
    const rows = await run(
      `${shapes}${points} P | evaluate geo_polygon_lookup(S, lng, lat, p, return_unmatched = true) | project n, s, p`,
    );
    // Assess
    expect(rows.map((r) => [r[0], r[1], r[2] === null])).toEqual([
      ['a only', 'a', false],
      ['both', 'a', false],
      ['both', 'b', false],
      ['far', '', true],
      ['null', '', true],
    ]);
  });

  it('over an empty lookup table gives no row, or every row once with return_unmatched', async () => {
    // Prepare
    const empty = `${shapes}${points} P | evaluate geo_polygon_lookup((S | where s == "x"), lng, lat, p`;
    // Act
    const none = await run(`${empty}) | count`);
    const all = await run(`${empty}, return_unmatched = true) | summarize count(), countif(isnull(p))`);
    // Assess
    expect(none).toEqual([[0]]);
    expect(all).toEqual([[4, 4]]);
  });

  it('takes radius, return_unmatched and join_hint positionally as by name; a radius reaches points outside', async () => {
    // Prepare: "far" is about 7,000 km from both squares; a radius of 1 km reaches no other point.
    const base = `${shapes}${points} P | evaluate geo_polygon_lookup(S, lng, lat, p`;
    // Act
    const positional = await run(`${base}, 1000, true, 50000) | project n, s`);
    const byName = await run(`${base}, join_hint = 50000, return_unmatched = true, radius = 1000) | project n, s`);
    const wide = await run(`${base}, radius = 7500000) | where n == "far" | project s`);
    // Assess
    expect(positional).toEqual(byName);
    expect(positional).toEqual([
      ['a only', 'a'],
      ['both', 'a'],
      ['both', 'b'],
      ['far', ''],
      ['null', ''],
    ]);
    expect(wide).toEqual([['a'], ['b']]);
  });

  it('matches by the lookup shape when its column is named like an input column, suffixing the lookup columns', async () => {
    // Prepare: the input has its own column p; the lookup's p (and lng) come out as p1 (and lng1).
    const l = `let S = datatable(p:dynamic, lng:long)[${square(0)}, 7];`;
    const q = `${l} datatable(lng:real, lat:real, p:string)[0.1, 0.1, "mine", 9.0, 9.0, "out"] | evaluate geo_polygon_lookup(S, lng, lat, p)`;
    // Act
    const compiled = compile(q, options('duckdb'));
    const rows = await run(`${q} | project lng, p, lng1`);
    // Assess
    expect(compiled.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'lng:real',
      'lat:real',
      'p:string',
      'p1:dynamic',
      'lng1:long',
    ]);
    expect(rows).toEqual([[0.1, 'mine', 7]]);
  });

  it('geo_line_lookup keeps the points within Radius metres of a line, a row per line', async () => {
    // Prepare: two lines along the equator and a degree north of it (a degree is about 111 km).
    const l =
      'let R = datatable(r:string, line:dynamic)["eq", dynamic({"type":"LineString","coordinates":[[0,0],[10,0]]}), ' +
      '"north", dynamic({"type":"LineString","coordinates":[[0,1],[10,1]]}), "bad", dynamic({"type":"LineString","coordinates":[[0,0]]})];';
    const q = `${l} datatable(n:string, lng:real, lat:real)["mid", 5.0, 0.5, "on", 5.0, 0.0, "far", 5.0, 3.0] | evaluate geo_line_lookup(R, lng, lat, line`;
    // Act
    const near = await run(`${q}, 1000) | project n, r`);
    const wide = await run(`${q}, 60000, true) | project n, r`);
    // Assess
    expect(near).toEqual([['on', 'eq']]);
    expect(wide).toEqual([
      ['far', ''],
      ['mid', 'eq'],
      ['mid', 'north'],
      ['on', 'eq'],
    ]);
  });

  it.each(['geo_polygon_lookup(S, lng, lat, p)', 'geo_line_lookup(S, lng, lat, p, 10)'])(
    'is refused on Timestream naming the plugin, at the operator: %s',
    (call) => {
      const q = `${shapes}${points} P | evaluate ${call}`;
      const plugin = call.slice(0, call.indexOf('('));
      const fn = plugin === 'geo_line_lookup' ? 'geo_distance_point_to_line' : 'geo_point_in_polygon';
      expectRefusedAt(q, options('timestream'), {
        code: 'QUERY_UNSUPPORTED',
        message: `evaluate ${plugin}: ${fn}() is not supported on the Timestream engine`,
        position: at(q, 'evaluate'),
      });
    },
  );

  const l = `let S = datatable(s:string, p:dynamic)["a", ${square(0)}];`;
  const src = 'datatable(n:string, lng:real, lat:real)["x", 0.0, 0.0]';
  it.each([
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat)`, '(S, lng', 'takes LookupTable, SourceLongitude'],
    [`${l} ${src} | evaluate geo_line_lookup(S, lng, lat, p)`, '(S, lng', 'takes the Radius after LookupLineKey'],
    [`${l} ${src} | evaluate geo_polygon_lookup(1, lng, lat, p)`, '1, lng', 'the lookup table (a name or a tabular'],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, nosuch, lat, p)`, 'nosuch', "unknown column 'nosuch'"],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, n, lat, p)`, 'n, lat', "SourceLongitude 'n' must be a real"],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lng + 1, p)`, 'lng + 1', 'SourceLatitude as a column name'],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, s)`, 's)', "LookupPolygonKey 's' must be a dynamic"],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, q)`, 'q)', "unknown column 'q'"],
    [
      `${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, lat)`,
      'lat)',
      'radius must be a constant non-negative',
    ],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, -1)`, '-1)', 'radius must be a constant non-negative'],
    [
      `${l} ${src} | evaluate geo_line_lookup(S, lng, lat, p, "far")`,
      '"far"',
      'radius must be a constant non-negative',
    ],
    [
      `${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, 1, 1)`,
      '1)',
      'return_unmatched must be a constant bool',
    ],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, join_hint = true)`, 'true', 'join_hint must be'],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, 1, true, 1, 1)`, '1)', 'takes at most 7 arguments'],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, kind = inner)`, 'kind', "has no argument 'kind'"],
    [`${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, 10, radius = 5)`, 'radius', 'radius is given twice'],
    [
      `${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, radius = 5, radius = 6)`,
      'radius = 6',
      'radius is given twice',
    ],
    [
      `${l} ${src} | evaluate geo_polygon_lookup(S, lng, lat, p, radius = 5, true)`,
      'true',
      'no positional argument after a named one',
    ],
  ])('refuses %s at the argument', (query, part, message) => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      const position = part === 'true' ? `1:${query.lastIndexOf('true') + 1}` : at(query, part);
      expectRefusedAt(query, options(dialect), { code: 'QUERY_SEMANTIC', message, position });
    }
  });
});
