// Kusto functions the compiler knows by name but refuses, with the reason a user can act on. The
// refusal stays QUERY_UNSUPPORTED at the function's name ("the function 'x' is not supported"); the
// reason follows it. Each is refused because its Kusto documentation leaves the answer open, or it
// needs something this service does not have.
import { SERIES_REFUSALS } from './functions-v10-series-refused';
import { SIGS_REFUSALS } from './functions-sigs-refused';
import { V11_REFUSALS } from './functions-v11-refused';

/** H3's functions not written here (the other H3 functions are in functions-v9-geocell-h3.ts and functions-v9-geoh3*.ts). */
const H3_RING_REASON =
  "its cells come in the order of H3's grid-disk walk (each step moves the index digits with H3's neighbor tables and rotations; near the 12 pentagons H3 falls back to a search whose order is its hash set's), which is not written in SQL here; geo_h3cell_to_polygon, geo_h3cell_parent and geo_h3cell_children are supported";

/** Functions that read Kusto's storage (extents, cursors, other entity kinds): this service has none of it. */
const EXTENT_REASON =
  "rows here are stored in the engine's tables with no extents (data shards), so there is no extent to identify or tag";
const CURSOR_REASON =
  "database cursors (Kusto's ingestion-order markers) do not exist here; filter on IngestionTimestamp of States and Events, the instant the message was ingested";
const INFLATE_REASON =
  "reading a deflate stream needs Huffman decoding, which neither engine here has (DuckDB's compression is for files only; Timestream has none); decompress on the client";

const REASONS: Readonly<Record<string, string>> = {
  ...SERIES_REFUSALS,
  ...V11_REFUSALS,
  ...SIGS_REFUSALS,
  zlib_decompress_from_base64_string: INFLATE_REASON,
  gzip_decompress_from_base64_string: INFLATE_REASON,
  parse_xml:
    "neither engine here has an XML parser, and the page's example prints element text as numbers (118.0) where its conversion table keeps text; send JSON and use parse_json, or extract() values from the XML text",
  parse_user_agent:
    'its answer comes from a large database of user-agent patterns (browsers, systems, devices) that the page does not give and this service does not have; extract() the parts you need from the text',
  extent_id: EXTENT_REASON,
  extentid: EXTENT_REASON,
  extent_tags: EXTENT_REASON,
  cursor_after: CURSOR_REASON,
  cursor_before_or_at: CURSOR_REASON,
  cursor_current: CURSOR_REASON,
  current_cursor: CURSOR_REASON,
  current_node_id:
    'queries here are not spread over cluster nodes: each runs in one engine process, which has no node id',
  estimate_data_size:
    "its page defines the size only for long (8 bytes) and string (its length); the sizes of the other types and of dynamic values are Kusto's internal representation, which is not documented",
  external_table:
    'external tables (blob storage, data lake, SQL) are not defined here; the tables are States and Events (and the query endpoints list them)',
  materialized_view:
    'materialized views are not defined here; the tables are States and Events, and summarize computes an aggregate view',
  stored_query_result:
    "stored query results (saved with Kusto's .set stored_query_result command) do not exist here; repeat the query, or name it with let",
  ingestion_time:
    "Kusto's reads a hidden per-record column that follows the rows through the operators and is null for rows made in the query; here the ingestion instant is a visible column: IngestionTimestamp of States and Events (the platform's ingestionTimestamp, set when the message was ingested)",
  current_cluster_endpoint:
    'the host a client reached is not known to the query: the service answers under several names (API Gateway, a custom domain, localhost)',
  current_principal_details:
    "its bag holds Entra ID details (object id, display name, UPN) that this service's OAuth clients do not have; current_principal() gives the caller",
  current_principal_is_member_of:
    'callers here are OAuth clients of one customer, with no groups to be a member of; current_principal() gives the caller',
  hash_combine:
    "how Kusto combines the hashes is not documented, and no combination tried reproduces the page's printed value",
  hash_many: "it combines the values' hashes as hash_combine does, which is not documented",
  base64_decode_toguid:
    "its page prints a GUID whose third group is not in the byte order base64_encode_fromguid's page prints, so either answer would contradict one of them",
  dcount_intersect: 'it is a plugin: evaluate dcount_intersect(hll_1, hll_2, ...), not a function',
  geo_polygon_to_s2cells:
    "its covering of a polygon (S2's region coverer over geodesic edges, with its own cell limits) is not written here, so its cells could not be Kusto's; geo_point_to_s2cell and geo_s2cell_to_polygon are supported",
  geo_h3cell_neighbors: H3_RING_REASON,
  geo_h3cell_rings: H3_RING_REASON,
  geo_polygon_to_h3cells:
    "its covering of a polygon (H3's polygon fill with Kusto's own edge model and cell limits) is not written here, so its cells could not be Kusto's; geo_point_to_h3cell and geo_h3cell_to_polygon are supported",
  geo_intersects_2lines:
    "an exact answer for touching edges needs S2's robust crossing predicates (exact arithmetic), and each pair of edges is tested with no spatial index, so it is not offered; geo_distance_point_to_line of the vertices measures nearness",
  geo_intersects_line_with_polygon:
    "an exact answer for touching edges needs S2's robust crossing predicates (exact arithmetic), and each pair of edges is tested with no spatial index, so it is not offered; geo_point_in_polygon of the line's vertices tests containment",
  geo_intersects_2polygons:
    "an exact answer for touching edges needs S2's robust crossing predicates (exact arithmetic), and each pair of edges is tested with no spatial index, so it is not offered; geo_point_in_polygon of the vertices tests containment",
  geo_line_densify:
    "how many points it adds per edge for a tolerance is not documented, and the page's printed vertices do not fix it; send geodesic edges, which every geo_* function here takes",
  geo_polygon_densify:
    "how many points it adds per edge for a tolerance is not documented, and the page's printed vertices do not fix it; send geodesic edges, which every geo_* function here takes",
  geo_point_buffer:
    "its polygon approximates a circle by S2's buffer operation, which needs a geometry library (S2Builder) that this service does not have; test nearness with geo_point_in_circle or geo_distance_2points",
  geo_line_buffer:
    "its polygon is built by S2's buffer operation, which needs a geometry library (S2Builder) that this service does not have; test nearness with geo_distance_point_to_line",
  geo_polygon_buffer:
    "its polygon is built by S2's buffer operation, which needs a geometry library (S2Builder) that this service does not have; test nearness with geo_distance_point_to_polygon",
  geo_intersection_2lines:
    'the intersection is a geometry built by clipping, which needs a geometry library (S2Builder) that this service does not have',
  geo_intersection_2polygons:
    'the intersection is a geometry built by polygon clipping, which needs a geometry library (S2Builder) that this service does not have',
  geo_intersection_line_with_polygon:
    'the intersection is a geometry built by clipping, which needs a geometry library (S2Builder) that this service does not have',
  geo_union_lines_array:
    'the union is a geometry built by snapping and merging edges, which needs a geometry library (S2Builder) that this service does not have',
  geo_union_polygons_array:
    'the union is a geometry built by polygon clipping, which needs a geometry library (S2Builder) that this service does not have',
  geo_line_simplify:
    "its vertices are chosen by S2Builder's simplification, which needs a geometry library (S2Builder) that this service does not have",
  geo_polygon_simplify:
    "its vertices are chosen by S2Builder's simplification, which needs a geometry library (S2Builder) that this service does not have",
  geo_simplify_polygons_array:
    'it simplifies and unites polygons, which needs a geometry library (S2Builder) that this service does not have',
};

/** The reason a known Kusto function is refused, if there is one to give. */
export const refusalReason = (name: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(REASONS, name) ? REASONS[name] : undefined;
