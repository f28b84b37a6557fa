// The geospatial cell functions as one catalog family: geohash, S2, and H3's index functions (each
// in its own file; H3's cells on the icosahedron are in functions-v9-geoh3*.ts, registered in index.ts).
import { GEOHASH_V9_FUNCTIONS } from './functions-v9-geocell-geohash';
import { H3_V9_FUNCTIONS } from './functions-v9-geocell-h3';
import { S2_V9_FUNCTIONS } from './functions-v9-geocell-s2';
import type { ScalarFunction } from './types';

export const GEOCELL_V9_FUNCTIONS: readonly ScalarFunction[] = [
  ...GEOHASH_V9_FUNCTIONS,
  ...S2_V9_FUNCTIONS,
  ...H3_V9_FUNCTIONS,
];
