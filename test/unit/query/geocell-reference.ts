// TypeScript references of the geospatial cell algorithms (geohash, S2), written the textbook way
// (bisection for geohash, a bit-by-bit Hilbert walk for S2) rather than the way the SQL computes
// them, so that functions-geocell.test.ts compares two independent derivations over many points.
// Each was first checked against every value the Kusto pages print (the conformance cases).

const ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz';

/** The geohash of a point: bisection of [-180, 180] and [-90, 90], longitude first. '' when invalid. */
export function geohashOf(lng: number, lat: number, accuracy: number): string {
  if (!(lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90) || !(accuracy >= 1 && accuracy <= 18)) return '';
  const lon: [number, number] = [-180, 180];
  const la: [number, number] = [-90, 90];
  let out = '';
  let code = 0;
  for (let p = 0; p < 5 * accuracy; p++) {
    const [range, v] = p % 2 === 0 ? [lon, lng] : [la, lat];
    const mid = (range[0] + range[1]) / 2;
    const bit = v >= mid ? 1 : 0;
    range[bit === 1 ? 0 : 1] = mid;
    code = code * 2 + bit;
    if (p % 5 === 4) {
      out += ALPHABET[code];
      code = 0;
    }
  }
  return out;
}

export interface GeohashBox {
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
}

/** The rectangle of a geohash by bisection; undefined when the text is not 1 to 18 alphabet characters. */
export function geohashBox(h: string): GeohashBox | undefined {
  if (h.length < 1 || h.length > 18) return undefined;
  const lon: [number, number] = [-180, 180];
  const la: [number, number] = [-90, 90];
  let p = 0;
  for (const ch of h) {
    const code = ALPHABET.indexOf(ch);
    if (code < 0) return undefined;
    for (let b = 4; b >= 0; b--, p++) {
      const range = p % 2 === 0 ? lon : la;
      const mid = (range[0] + range[1]) / 2;
      range[((code >> b) & 1) === 1 ? 0 : 1] = mid;
    }
  }
  return { west: lon[0], south: la[0], east: lon[1], north: la[1] };
}

/** The geohash neighbors in the given offset order: the cell one cell-size away, wrapped in longitude. */
export function geohashNeighbors(h: string, offsets: readonly (readonly [number, number])[]): string[] | undefined {
  const box = geohashBox(h);
  if (!box) return undefined;
  const w = box.east - box.west;
  const hgt = box.north - box.south;
  const out: string[] = [];
  for (const [dx, dy] of offsets) {
    const lat = (box.south + box.north) / 2 + dy * hgt;
    if (lat < -90 || lat > 90) continue;
    let lng = (box.west + box.east) / 2 + dx * w;
    if (lng > 180) lng -= 360;
    if (lng < -180) lng += 360;
    out.push(geohashOf(lng, lat, h.length));
  }
  return out;
}
