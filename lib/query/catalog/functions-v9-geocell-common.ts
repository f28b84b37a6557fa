// SQL fragments the geospatial cell functions (geohash, S2) share: binding a value once, the
// coordinate checks of the Kusto pages, and the GeoJSON values they return. DuckDB only: every cell
// function is refused on Timestream (its SQL has no list folds to write the cell algorithms with).

/** body with value bound once to the lambda parameter `name` (DuckDB). */
export const bindAs = (value: string, name: string, body: string): string =>
  `list_transform([${value}], ${name} -> ${body})[1]`;

/** A number argument as DOUBLE (a long or decimal argument is converted as Kusto converts it). */
export const asDouble = (sql: string): string => `CAST(${sql} AS DOUBLE)`;

/**
 * The pages' valid point: longitude in [-180, +180], latitude in [-90, +90]. Null, NaN (DuckDB
 * orders NaN above every number) and the infinities all fail it.
 */
export const validPoint = (lng: string, lat: string): string =>
  `(${lng} BETWEEN -180 AND 180 AND ${lat} BETWEEN -90 AND 90)`;

/** A GeoJSON point, longitude first (the pages' printed form). */
export const pointJson = (lng: string, lat: string): string =>
  `to_json({'type': 'Point', 'coordinates': [${lng}, ${lat}]})`;

/** A GeoJSON polygon of one ring; `ring` is a SQL list of [lng, lat] lists, closed by its caller. */
export const polygonJson = (ring: string): string => `to_json({'type': 'Polygon', 'coordinates': [${ring}]})`;
