// Why the scalar functions the signature sweep found refused without a reason stay refused (read by
// functions-v6-refused.ts). Kusto.Language knows each name and its types; no Kusto documentation page
// defines what it returns, so no answer here could be checked against Kusto's.
const UNDOCUMENTED = 'no Kusto documentation page defines it (Kusto.Language knows only its name and types)';
/** The double-underscore names are Kusto's internal helpers, which its own functions call. */
const INTERNAL = `it is an internal helper of Kusto's and ${UNDOCUMENTED}`;

export const SIGS_REFUSALS: Readonly<Record<string, string>> = {
  row_rank: `${UNDOCUMENTED}; row_rank_dense() and row_rank_min() rank the rows of serialized input`,
  rowstore_ordinal_range: `${UNDOCUMENTED}, and rows here are stored in the engine's tables, with no row store to range over`,
  __hash_crc32: `${INTERNAL}; hash_sha256(), hash_md5() and hash_xxhash64() are supported`,
  __hash_djb2: `${INTERNAL}; hash_sha256(), hash_md5() and hash_xxhash64() are supported`,
  __hash_many_crc32: `${INTERNAL}; hash_sha256(), hash_md5() and hash_xxhash64() are supported`,
  __hash_xxh64: `${INTERNAL}; hash_xxhash64() is supported`,
  __hll_normalize: `${INTERNAL}; hll_merge() merges hll() sketches`,
  __ipv6_lookup_ranges: `${INTERNAL}; the ipv6_lookup plugin joins addresses with a table of ranges`,
  __lz4_compress_dynamic_array_to_base64_string: INTERNAL,
  __geo_length_to_s2cell_level: INTERNAL,
  __geo_line_s2cell_covering_level: INTERNAL,
  __geo_polygon_s2cell_covering_level: INTERNAL,
  __geo_line_validate: INTERNAL,
  __geo_polygon_validate: INTERNAL,
};
