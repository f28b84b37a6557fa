// The key=value pairs of a URL query string as a property bag written as JSON text, shared by
// parse_url ("Query Parameters" of the URL) and parse_urlquery. Values are kept as written (no
// %-decoding). Written as text, not a MAP: a MAP failed the whole query on a repeated key ("Map keys
// must be unique"). A bag holds a key once and the pages are silent on `a=1&a=2`: the last value
// wins, as in bag_zip and bag_pack.

/** DuckDB: the bag as VARCHAR JSON text; a pair is kept only when no later pair has its key. */
export function queryBagDuck(query: string): string {
  const key = (kv: string): string => `split_part(${kv}, '=', 1)`;
  const pair = `CAST(to_json(${key('_q[i]')}) AS VARCHAR) || ':' || CAST(to_json(split_part(_q[i], '=', 2)) AS VARCHAR)`;
  const last = `NOT list_contains(list_transform(list_slice(_q, i + 1, len(_q)), kv -> ${key('kv')}), ${key('_q[i]')})`;
  const pairs = `list_transform(list_filter(range(1, len(_q) + 1), i -> ${last}), i -> ${pair})`;
  const kept = `list_transform([list_filter(string_split(${query}, '&'), kv -> kv <> '')], _q -> ${pairs})[1]`;
  return `'{' || array_to_string(${kept}, ',') || '}'`;
}

/**
 * Timestream: the same bag as JSON text. Each distinct key once, with the value of its last pair
 * (element_at(..., -1)); split_part gives null past the last part (DuckDB gives ''), hence the coalesce.
 */
export function queryBagTs(query: string): string {
  const text = (v: string): string => `json_format(CAST(${v} AS JSON))`;
  const q = `filter(split(${query}, '&'), kv -> kv <> '')`;
  const key = (kv: string): string => `split_part(${kv}, '=', 1)`;
  const lastValue = `coalesce(split_part(element_at(filter(${q}, kv -> ${key('kv')} = k), -1), '=', 2), '')`;
  return `'{' || array_join(transform(array_distinct(transform(${q}, kv -> ${key('kv')})), k -> ${text('k')} || ':' || ${text(lastValue)}), ',') || '}'`;
}
