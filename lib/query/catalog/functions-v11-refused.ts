// Why the Kusto functions found missing in the v11 sweep stay refused (read by functions-v6-refused.ts).
// Kusto.Language knows each name; a function no documentation page defines has no answer here that
// could be checked, and one whose answer needs data this service does not have cannot be computed.
const GRAPH_FUNCTION =
  'it is a graph function: it reads a pattern variable in the where and project of graph-match and graph-shortest-paths, where it is supported';
const UNDOCUMENTED = 'no Kusto documentation page defines it (Kusto.Language knows only its name and types)';

export const V11_REFUSALS: Readonly<Record<string, string>> = {
  node_degree_in: GRAPH_FUNCTION,
  node_degree_out: GRAPH_FUNCTION,
  inner_nodes: GRAPH_FUNCTION,
  labels: GRAPH_FUNCTION,
  set_equals: `${UNDOCUMENTED}, so whether it compares as sets (ignoring order and repeats) and how it compares 1 with 1.0 are open; array_length(set_difference(a, b)) == 0 and array_length(set_difference(b, a)) == 0 tests that two arrays hold the same distinct values`,
  tdigest_isvalid: `${UNDOCUMENTED}, nor what makes a tdigest() sketch valid`,
  hll_isvalid: `${UNDOCUMENTED}, nor what makes an hll() sketch valid`,
  iscolumnexists: `${UNDOCUMENTED}; column_ifexists(name, default) is supported`,
  row_id: `${UNDOCUMENTED}; row_number() numbers the rows of serialized input`,
  geo_line_to_s2cells:
    "its covering of a line (S2's region coverer over geodesic edges, grown by the buffer radius, with a limit of 65,536 cells) is not written here, so its cells could not be Kusto's; geo_point_to_s2cell and geo_distance_point_to_line are supported",
  geo_info_from_ip_address:
    "its answer comes from MaxMind's GeoLite2 database of IP address locations, which this service does not have (and whose places change with each release, so the page's printed places could not be reproduced); ipv4_lookup and ipv6_lookup join addresses with a location table you supply",
};
