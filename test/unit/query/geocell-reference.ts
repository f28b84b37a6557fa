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

// S2: a point's face and (u, v), the quadratic (s, t) projection, 30-bit leaf coordinates (i, j),
// and the Hilbert walk one bit pair at a time from the face's orientation (s2geometry.io).
const IJ_TO_POS = [
  [0, 1, 3, 2],
  [0, 3, 1, 2],
  [2, 3, 1, 0],
  [2, 1, 3, 0],
];
const POS_TO_IJ = [
  [0, 1, 3, 2],
  [0, 2, 3, 1],
  [3, 2, 0, 1],
  [3, 1, 0, 2],
];
const POS_TO_ORIENTATION = [1, 0, 0, 3];
const LEAVES = 2 ** 30;

export interface S2Cell {
  readonly face: number;
  /** Coordinates at the cell's level, 0 .. 2^level - 1. */
  readonly i: number;
  readonly j: number;
  readonly level: number;
}

type Xyz = readonly [number, number, number];

function faceUv(p: Xyz): [number, number, number] {
  const [x, y, z] = p;
  const [ax, ay, az] = [Math.abs(x), Math.abs(y), Math.abs(z)];
  let face = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  if (p[face]! < 0) face += 3;
  const uv: Record<number, [number, number]> = {
    0: [y / x, z / x],
    1: [-x / y, z / y],
    2: [-x / z, -y / z],
    3: [z / x, y / x],
    4: [z / y, -x / y],
    5: [-y / z, -x / z],
  };
  return [face, ...uv[face]!];
}

function xyz(face: number, u: number, v: number): Xyz {
  return (
    [
      [1, u, v],
      [-u, 1, v],
      [-u, -v, 1],
      [-1, -v, -u],
      [v, -1, -u],
      [v, u, -1],
    ] as const
  )[face]!;
}

const uvToSt = (u: number): number => (u >= 0 ? 0.5 * Math.sqrt(1 + 3 * u) : 1 - 0.5 * Math.sqrt(1 - 3 * u));
const stToUv = (s: number): number => (s >= 0.5 ? (1 / 3) * (4 * s * s - 1) : (1 / 3) * (1 - 4 * (1 - s) * (1 - s)));
const leaf = (s: number): number => Math.max(0, Math.min(LEAVES - 1, Math.floor(LEAVES * s)));

/** The token of a cell: face, Hilbert positions, the marker bit, in hex without trailing zeros. */
export function s2TokenOf(c: S2Cell): string {
  let orientation = c.face & 1;
  let id = BigInt(c.face);
  for (let k = c.level - 1; k >= 0; k--) {
    const pos = IJ_TO_POS[orientation]![(((c.i >> k) & 1) << 1) | ((c.j >> k) & 1)]!;
    orientation ^= POS_TO_ORIENTATION[pos]!;
    id = (id << 2n) | BigInt(pos);
  }
  id = ((id << 1n) | 1n) << BigInt(60 - 2 * c.level);
  return id.toString(16).padStart(16, '0').replace(/0+$/, '');
}

/** The S2 token of a point at a level; '' when the point or level is out of range. */
export function s2TokenOfPoint(lng: number, lat: number, level: number): string {
  if (!(lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90) || !(level >= 0 && level <= 30)) return '';
  const [phi, theta] = [lat * (Math.PI / 180), lng * (Math.PI / 180)];
  const [face, u, v] = faceUv([Math.cos(theta) * Math.cos(phi), Math.sin(theta) * Math.cos(phi), Math.sin(phi)]);
  const shift = 30 - level;
  return s2TokenOf({
    face,
    i: Math.floor(leaf(uvToSt(u)) / 2 ** shift),
    j: Math.floor(leaf(uvToSt(v)) / 2 ** shift),
    level,
  });
}

/** The cell a token names; undefined for text that is no valid cell token. */
export function s2CellOf(token: string): S2Cell | undefined {
  if (!/^[0-9a-fA-F]{1,16}$/.test(token)) return undefined;
  const id = BigInt(`0x${token.padEnd(16, '0')}`);
  if (id === 0n) return undefined;
  let zeros = 0;
  while (((id >> BigInt(zeros)) & 1n) === 0n) zeros++;
  const face = Number(id >> 61n);
  if (face > 5 || zeros % 2 === 1 || zeros > 60) return undefined;
  const level = 30 - zeros / 2;
  let [orientation, i, j] = [face & 1, 0, 0];
  for (let m = 1; m <= level; m++) {
    const pos = Number((id >> BigInt(61 - 2 * m)) & 3n);
    const ij = POS_TO_IJ[orientation]![pos]!;
    orientation ^= POS_TO_ORIENTATION[pos]!;
    [i, j] = [i * 2 + (ij >> 1), j * 2 + (ij & 1)];
  }
  return { face, i, j, level };
}

function lngLat(p: Xyz): [number, number] {
  const n = 1 / Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  const [x, y, z] = [p[0] * n, p[1] * n, p[2] * n];
  return [Math.atan2(y, x) * (180 / Math.PI), Math.atan2(z, Math.sqrt(x * x + y * y)) * (180 / Math.PI)];
}

export function s2Center(c: S2Cell): [number, number] {
  const st = (k: number): number => (2 * k + 1) / 2 ** (c.level + 1);
  return lngLat(xyz(c.face, stToUv(st(c.i)), stToUv(st(c.j))));
}

/** The closed ring of vertices, counter-clockwise from (u0, v0). */
export function s2Ring(c: S2Cell): [number, number][] {
  const [u0, u1] = [stToUv(c.i / 2 ** c.level), stToUv((c.i + 1) / 2 ** c.level)];
  const [v0, v1] = [stToUv(c.j / 2 ** c.level), stToUv((c.j + 1) / 2 ** c.level)];
  const ring = [
    lngLat(xyz(c.face, u0, v0)),
    lngLat(xyz(c.face, u1, v0)),
    lngLat(xyz(c.face, u1, v1)),
    lngLat(xyz(c.face, u0, v1)),
  ];
  return [...ring, ring[0]!];
}

/**
 * The neighbors at the cell's level in the given offset order, each once: a neighbor off the face
 * is the cell of the leaf just beyond the edge, carried onto the face it lies on (S2's wrap).
 */
export function s2Neighbors(c: S2Cell, offsets: readonly (readonly [number, number])[]): string[] {
  const size = 2 ** (30 - c.level);
  const out: string[] = [];
  for (const [di, dj] of offsets) {
    let [face, i, j] = [c.face, c.i * size + di * size, c.j * size + dj * size];
    if (i < 0 || i >= LEAVES || j < 0 || j >= LEAVES) {
      const limit = 1 + Number.EPSILON;
      const linear = (k: number): number =>
        Math.max(-limit, Math.min(limit, (2 * (Math.max(-1, Math.min(LEAVES, k)) - LEAVES / 2) + 1) / LEAVES));
      const [f, u, v] = faceUv(xyz(face, linear(i), linear(j)));
      [face, i, j] = [f, leaf(0.5 * (u + 1)), leaf(0.5 * (v + 1))];
    }
    const token = s2TokenOf({ face, i: Math.floor(i / size), j: Math.floor(j / size), level: c.level });
    if (!out.includes(token)) out.push(token);
  }
  return out;
}

// H3 cell indexes (h3geo.org, "H3 Index"): mode 1, resolution, base cell, 15 three-bit digits.
const H3_PENTAGONS = new Set([4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117]);

interface H3Index {
  readonly id: bigint;
  readonly res: number;
  readonly base: number;
  readonly digits: readonly number[];
}

const h3Digit = (id: bigint, r: number): number => Number((id >> BigInt(3 * (15 - r))) & 7n);

/** The index a token names, undefined when it is no valid H3 cell. */
export function h3Index(token: string): H3Index | undefined {
  if (!/^[0-9a-fA-F]{1,16}$/.test(token)) return undefined;
  const id = BigInt(`0x${token}`);
  if (id >> 56n !== 8n) return undefined;
  const res = Number((id >> 52n) & 15n);
  const base = Number((id >> 45n) & 127n);
  if (base >= 122) return undefined;
  const digits = Array.from({ length: 15 }, (_, k) => h3Digit(id, k + 1));
  if (digits.some((d, k) => (k < res ? d === 7 : d !== 7))) return undefined;
  if (H3_PENTAGONS.has(base) && digits.slice(0, res).find((d) => d !== 0) === 1) return undefined;
  return { id, res, base, digits };
}

function h3Token(base: number, res: number, digits: readonly number[]): string {
  let id = (1n << 59n) | (BigInt(res) << 52n) | (BigInt(base) << 45n);
  for (let r = 1; r <= 15; r++) id |= BigInt(r <= res ? digits[r - 1]! : 7) << BigInt(3 * (15 - r));
  return id.toString(16);
}

export function h3Parent(token: string, res?: number | null): string {
  const c = h3Index(token);
  const r = res === undefined ? (c ? c.res - 1 : -1) : res;
  if (!c || r === null || r < 0 || r > 14 || r > c.res) return '';
  return h3Token(c.base, r, c.digits);
}

/** The children in index order, each digit sequence counted up; a pentagon's child of first digit 1 left out. */
export function h3Children(token: string, res?: number | null): string[] | null {
  const c = h3Index(token);
  const r = res === undefined ? (c ? c.res + 1 : -1) : res;
  if (!c || r === null || r < 1 || r > 15 || r < c.res || r - c.res > 5) return null;
  const pentagon = H3_PENTAGONS.has(c.base) && c.digits.slice(0, c.res).every((d) => d === 0);
  const out: string[] = [];
  const walk = (prefix: number[]): void => {
    if (prefix.length === r) {
      out.push(h3Token(c.base, r, prefix));
      return;
    }
    for (let d = 0; d < 7; d++) {
      const next = [...prefix, d];
      if (pentagon && next.slice(c.res).find((x) => x !== 0) === 1) continue;
      walk(next);
    }
  };
  walk(c.digits.slice(0, c.res));
  return out;
}
