// Issue 15: the per-row cost on DuckDB of functions whose SQL is a computation of its own (folds over
// characters or bytes, merges of bags, number formatting), against a baseline query over the same
// rows, so that a regression of one shows as microseconds per row. Each case reads N rows of
// `range` (100,000; 20,000 with --quick) once after a warm-up on 1,000 rows, compiled SQL on an
// in-memory DuckDB with its default threads, like bench/query-scan.bench.ts. The load average is
// beside each figure: the machine is shared.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { compile, type CompileOptions } from '../lib/query';
import { baseOptions } from '../test/unit/query/compile-failure';
import type { Benchmark, BenchRow } from './harness';

const options: CompileOptions = { ...baseOptions, dialect: 'duckdb', rowLimit: 10_000 };

const GEO_POINT = '| extend lon = (x % 3600) / 10.0 - 180, lat = (x % 1700) / 10.0 - 85';

/**
 * Each case's query over `range x from 1 to n`; every one ends in a one-row summarize. `rows` gives
 * a case its own row count when one row is a whole series (its figure is then per series).
 */
const CASES: readonly { name: string; kql: string; rows?: number }[] = [
  { name: 'baseline: strlen(tostring(long))', kql: '| summarize v = sum(strlen(tostring(x)))' },
  { name: 'tostring(real) (.NET text)', kql: '| extend r = x / 7.0 | summarize v = sum(strlen(tostring(r)))' },
  {
    name: 'make_bag of single-key bags, 100 keys',
    kql: '| summarize b = make_bag(bag_pack(tostring(x % 100), x)) | project v = array_length(bag_keys(b))',
  },
  {
    name: 'bag_merge of three bags',
    kql: '| extend b = bag_merge(bag_pack("a", x), bag_pack("b", x), bag_pack("a", 2)) | summarize v = sum(tolong(b.a))',
  },
  { name: 'hash(string) (XXH64)', kql: '| summarize v = sum(hash(strcat("device-", x), 7))' },
  {
    name: 'buildschema of two-key bags',
    kql: '| extend d = bag_pack("a", x, "b", tostring(x)) | summarize s = buildschema(d) | project v = strlen(tostring(s))',
  },
  {
    name: 'parse_command_line',
    kql: '| summarize v = sum(array_length(parse_command_line(strcat("a.exe -x ", x, " \\"y z\\""), "windows")))',
  },
  { name: 'punycode_from_string', kql: '| summarize v = sum(strlen(punycode_from_string(strcat("Bücher", x))))' },
  { name: 'beta_cdf', kql: '| summarize v = sum(beta_cdf(x / 100001.0, 2, 3))' },
  // Geospatial: a point per row spread over the globe (lon, lat).
  { name: 'geo_distance_2points', kql: `${GEO_POINT} | summarize v = sum(geo_distance_2points(lon, lat, 10, 50))` },
  {
    name: 'geo_point_in_polygon, a literal 4-vertex polygon',
    kql: `${GEO_POINT} | summarize v = countif(geo_point_in_polygon(lon, lat, dynamic({"type":"Polygon","coordinates":[[[-100,-40],[100,-40],[100,40],[-100,40],[-100,-40]]]})))`,
  },
  {
    name: 'geo_distance_point_to_line, a literal 11-vertex line',
    kql: `${GEO_POINT} | summarize v = sum(geo_distance_point_to_line(lon, lat, dynamic({"type":"LineString","coordinates":[[0,0],[10,5],[20,0],[30,5],[40,0],[50,5],[60,0],[70,5],[80,0],[90,5],[100,0]]})))`,
  },
  {
    name: 'geo_polygon_area, a 4-vertex polygon built per row',
    kql: `${GEO_POINT} | extend p = bag_pack("type", "Polygon", "coordinates", pack_array(pack_array(pack_array(lon, lat), pack_array(lon + 1, lat), pack_array(lon + 1, lat + 1), pack_array(lon, lat)))) | summarize v = sum(geo_polygon_area(p))`,
  },
  {
    name: 'geo_point_to_geohash (accuracy 12)',
    kql: `${GEO_POINT} | summarize v = dcount(geo_point_to_geohash(lon, lat, 12))`,
  },
  {
    name: 'geo_point_to_s2cell (level 16)',
    kql: `${GEO_POINT} | summarize v = dcount(geo_point_to_s2cell(lon, lat, 16))`,
  },
  {
    name: 'geo_s2cell_neighbors (level 16)',
    kql: `${GEO_POINT} | summarize v = sum(array_length(geo_s2cell_neighbors(geo_point_to_s2cell(lon, lat, 16))))`,
  },
  {
    name: 'geo_point_to_h3cell (resolution 9)',
    kql: `${GEO_POINT} | summarize v = dcount(geo_point_to_h3cell(lon, lat, 9))`,
  },
  {
    name: 'geo_h3cell_to_polygon of geo_point_to_h3cell (resolution 9)',
    kql: `${GEO_POINT} | summarize v = sum(array_length(geo_h3cell_to_polygon(geo_point_to_h3cell(lon, lat, 9)).coordinates[0]))`,
  },
  {
    // A week of hourly points per row, with a daily period: what series_decompose is used for.
    name: 'series_decompose(168 points, period 24)',
    kql: '| extend (b, s, t, r) = series_decompose(range(x % 97, x % 97 + 167, 1), 24) | summarize v = sum(todouble(r[0]))',
    rows: 2_000,
  },
  {
    name: "series_decompose(168 points, period 24, 'linefit')",
    kql: "| extend (b, s, t, r) = series_decompose(range(x % 97, x % 97 + 167, 1), 24, 'linefit') | summarize v = sum(todouble(r[0]))",
    rows: 2_000,
  },
];

async function timed(connection: DuckDBConnection, sql: string): Promise<{ ms: number; value: unknown }> {
  const start = performance.now();
  const result = await connection.runAndReadAll(sql);
  return { ms: performance.now() - start, value: result.getRows()[0]?.[0] };
}

const bench: Benchmark = {
  name: 'query-functions',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const n = ctx.quick ? 20_000 : 100_000;
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const sqlOf = (kql: string, size: number): string =>
      compile(`range x from 1 to ${size} step 1 ${kql}`, options).sql;
    let baseline = 0;
    for (const c of CASES) {
      const size = c.rows === undefined ? n : ctx.quick ? c.rows / 5 : c.rows;
      await connection.run(sqlOf(c.kql, Math.min(1_000, size / 10)));
      const load = loadavg()[0]!.toFixed(1);
      ctx.progress(`${c.name}, ${size.toLocaleString('en-US')} rows (load ${load})`);
      const { ms, value } = await timed(connection, sqlOf(c.kql, size));
      if (baseline === 0) baseline = ms;
      // The baseline's cost for this case's row count, taken off before dividing.
      const perRow = ((ms - (baseline * size) / n) * 1000) / size;
      rows.push({
        case: `${c.name}, ${size.toLocaleString('en-US')} rows`,
        metric: 'ms (one run)',
        value: ms,
        note: `${c.name.startsWith('baseline') ? 'the baseline' : `${perRow.toFixed(2)} µs per row over the baseline`}; load ${load} at start, ${loadavg()[0]!.toFixed(1)} at end; result ${String(value)}`,
      });
    }
    connection.closeSync();
    return rows;
  },
};

export default bench;
