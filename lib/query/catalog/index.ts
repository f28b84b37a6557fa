// The function catalog: every scalar function and aggregation the compiler supports beyond the core
// forms of lib/query/scalars.ts and aggregates.ts, looked up by name (aliases included) in one Map.
import { AGGREGATIONS } from './aggregations';
import { ARRAY_FUNCTIONS } from './arrays';
import { DATETIME_FUNCTIONS } from './datetime';
import { AGGREGATIONS_V3, FUNCTIONS_V3 } from './functions-v3';
import { AGGREGATIONS_V4, FUNCTIONS_V4 } from './functions-v4';
import { JSON_V5_FUNCTIONS } from './functions-v5-json';
import { SERIES_V5_FUNCTIONS } from './functions-v5-series';
import { SERIES_V6_FUNCTIONS } from './functions-v6-series';
import { SERIES_V6_POLY_FUNCTIONS } from './functions-v6-series-poly';
import { SERIES_V10_DECOMPOSE_FUNCTIONS } from './functions-v10-series-decompose';
import { AGGREGATIONS_V5, TEXT_V5_FUNCTIONS } from './functions-v5-text';
import { IP_V5_FUNCTIONS } from './functions-v5-ip';
import { IPV6_V5_FUNCTIONS } from './functions-v5-ipv6';
import { TIMEZONE_V5_FUNCTIONS } from './functions-v5-timezone';
import { CMDLINE_V6_FUNCTIONS } from './functions-v6-cmdline';
import { CONVERT_V6_FUNCTIONS } from './functions-v6-convert';
import { ERF_V6_FUNCTIONS } from './functions-v6-erf';
import { HASH_V6_FUNCTIONS } from './functions-v6-hash';
import { PERCENTILEW_V6_AGGREGATIONS } from './functions-v6-percentilew';
import { PUNYCODE_V6_FUNCTIONS } from './functions-v6-punycode';
import { BETA_V7_FUNCTIONS } from './functions-v7-beta';
import { WELCH_V7_FUNCTIONS } from './functions-v7-welch';
import { IPV4_CIDR_V7_FUNCTIONS } from './functions-v7-ipv4-cidr';
import { BUILDSCHEMA_V8_AGGREGATIONS } from './functions-v8-buildschema';
import { COVARIANCE_V11_AGGREGATIONS } from './functions-v11-covariance';
import { SERIES_V11_FUNCTIONS } from './functions-v11-series';
import { GEO_WKT_V11_FUNCTIONS } from './functions-v11-geo-wkt';
import { DEFLATE_V10_FUNCTIONS } from './functions-v10-deflate';
import { TEXT_V10_FUNCTIONS } from './functions-v10-text';
import { MISC_V10_FUNCTIONS } from './functions-v10-misc';
import { GEOCELL_V9_FUNCTIONS } from './functions-v9-geocell';
import { GEOH3_V9_FUNCTIONS } from './functions-v9-geoh3';
import { GEO_LINE_POINT_V9_FUNCTIONS } from './functions-v9-geo-line-points';
import { GEO_LINE_V9_FUNCTIONS } from './functions-v9-geo-lines';
import { GEO_POINT_V9_FUNCTIONS } from './functions-v9-geo-points';
import { GEO_POLYGON_V9_FUNCTIONS } from './functions-v9-geo-polygons';
import { MATH_FUNCTIONS } from './math';
import { TRIG_FUNCTIONS } from './math-trig';
import { ARRAY_RESHAPE_FUNCTIONS } from './arrays-reshape';
import { STRING_MISC_FUNCTIONS } from './strings-misc';
import { QUOTE_BYTES_FUNCTIONS } from './strings-quote-bytes';
import { SERIES_FUNCTIONS } from './series';
import { STRING_FUNCTIONS, STRING_OPERATORS } from './strings';
import { TYPE_FUNCTIONS } from './type-functions';
import type { CatalogRef } from '../ir';
import type { AggregateFunction, ScalarFunction } from './types';

export const SCALAR_CATALOG: readonly ScalarFunction[] = [
  ...DATETIME_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...TRIG_FUNCTIONS,
  ...ARRAY_FUNCTIONS,
  ...ARRAY_RESHAPE_FUNCTIONS,
  ...STRING_MISC_FUNCTIONS,
  ...QUOTE_BYTES_FUNCTIONS,
  ...TYPE_FUNCTIONS,
  ...SERIES_FUNCTIONS,
  ...FUNCTIONS_V3,
  ...FUNCTIONS_V4,
  ...JSON_V5_FUNCTIONS,
  ...SERIES_V5_FUNCTIONS,
  ...SERIES_V6_FUNCTIONS,
  ...SERIES_V6_POLY_FUNCTIONS,
  ...SERIES_V10_DECOMPOSE_FUNCTIONS,
  ...TEXT_V5_FUNCTIONS,
  ...IP_V5_FUNCTIONS,
  ...IPV6_V5_FUNCTIONS,
  ...TIMEZONE_V5_FUNCTIONS,
  ...CONVERT_V6_FUNCTIONS,
  ...ERF_V6_FUNCTIONS,
  ...HASH_V6_FUNCTIONS,
  ...CMDLINE_V6_FUNCTIONS,
  ...PUNYCODE_V6_FUNCTIONS,
  ...BETA_V7_FUNCTIONS,
  ...WELCH_V7_FUNCTIONS,
  ...IPV4_CIDR_V7_FUNCTIONS,
  ...GEOCELL_V9_FUNCTIONS,
  ...GEOH3_V9_FUNCTIONS,
  ...GEO_POINT_V9_FUNCTIONS,
  ...GEO_LINE_V9_FUNCTIONS,
  ...GEO_POLYGON_V9_FUNCTIONS,
  ...GEO_LINE_POINT_V9_FUNCTIONS,
  ...DEFLATE_V10_FUNCTIONS,
  ...TEXT_V10_FUNCTIONS,
  ...MISC_V10_FUNCTIONS,
  ...SERIES_V11_FUNCTIONS,
  ...GEO_WKT_V11_FUNCTIONS,
];
export const AGGREGATE_CATALOG: readonly AggregateFunction[] = [
  ...AGGREGATIONS,
  ...AGGREGATIONS_V3,
  ...AGGREGATIONS_V4,
  ...AGGREGATIONS_V5,
  ...PERCENTILEW_V6_AGGREGATIONS,
  ...BUILDSCHEMA_V8_AGGREGATIONS,
  ...COVARIANCE_V11_AGGREGATIONS,
];
/** String operators (`x hasprefix "a"`) spelled through the catalog; not callable as functions. */
export const OPERATOR_CATALOG: readonly ScalarFunction[] = STRING_OPERATORS;

function byName<T extends ScalarFunction>(entries: readonly T[]): ReadonlyMap<string, T> {
  const map = new Map<string, T>();
  for (const e of entries) {
    for (const name of [e.name, ...(e.aliases ?? [])]) {
      if (map.has(name)) throw new Error(`function catalog: '${name}' is defined twice`);
      map.set(name, e);
    }
  }
  return map;
}

const SCALARS = byName(SCALAR_CATALOG);
const AGGREGATES = byName(AGGREGATE_CATALOG);
const OPERATORS = byName(OPERATOR_CATALOG);

export const lookupScalar = (name: string): ScalarFunction | undefined => SCALARS.get(name);
export const lookupAggregate = (name: string): AggregateFunction | undefined => AGGREGATES.get(name);
export const lookupOperator = (name: string): ScalarFunction | undefined => OPERATORS.get(name);
export const aggregateNames = (): Iterable<string> => AGGREGATES.keys();

/** The entry an IR node names (lib/query/ir.ts CatalogRef). @throws Error when the IR names no entry (a compiler bug). */
export function catalogEntry(ref: CatalogRef): ScalarFunction | AggregateFunction {
  const entry =
    ref.catalog === 'scalar'
      ? SCALARS.get(ref.name)
      : ref.catalog === 'operator'
        ? OPERATORS.get(ref.name)
        : AGGREGATES.get(ref.name);
  if (!entry) throw new Error(`the IR names ${ref.catalog} '${ref.name}', which the catalog does not have`);
  return entry;
}
