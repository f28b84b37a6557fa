// H3's point-to-cell algorithm in DuckDB SQL, written from the H3 library's construction (its C
// source, uber/h3, and h3geo.org "Indexing": icosahedron faces with a gnomonic projection each, hexagons of aperture 7
// alternating Class II and Class III, 122 base cells). A point goes to the face whose center is
// nearest (squared chord distance); its azimuth and angular distance from that center, projected
// gnomonically and scaled by sqrt(7) a resolution, give 2D hex coordinates, rounded to the hexagon
// that holds them. Walking up the resolutions (aperture-7 parent, and the digit 0 to 6 of the
// child's offset from the parent's center) gives the digits and the resolution-0 position, which a
// table turns into the base cell and the 60° rotations into its orientation (pentagons skip the
// deleted k-axis subsequence). The hex coordinates are kept axial (i - k, j - k), so each aperture
// step is two integer formulas. The arithmetic follows the library's in doubles step by step
// (the repeated sqrt(7) product included), so points on a cell boundary land where it puts them.
import { bindAs } from './functions-v9-geocell-common';
import {
  AP7_ROT_RADS,
  CCW_BY_N,
  DEG_TO_RAD,
  EPSILON,
  list,
  PENTAGONS,
  posAngle,
  RES0_U_GNOMONIC,
  rotateCcw,
  RSIN60,
  SQRT7,
  upAp7,
  upAp7r,
} from './functions-v9-geoh3-common';
import {
  FACE_AXIS_AZ,
  FACE_CENTER_GEO,
  FACE_CENTER_XYZ,
  FACE_IJK_BASE_CELLS,
  PENTAGON_CW_OFFSET_FACES,
} from './functions-v9-geoh3-tables';

/** Digit of an axial unit offset (di, dj), indexed by (di + 1)·3 + (dj + 1) + 1; 7 never occurs. */
const DIGIT_OF_OFFSET = '[1, 3, 7, 5, 0, 2, 7, 4, 6]';

/**
 * The ccw rotations a pentagon base cell's digits get (H3's _faceIjkToH3): out of the deleted
 * k-axis subsequence first (cw on the cell's two cw-offset faces) when the leading digit is 1, then
 * `rots` pentagon rotations, each of which turns once more when it makes the leading digit 1.
 * Indexed by ((cwOffset·7 + leading)·6 + rots) + 1, computed here once.
 */
const PENT_ROTATIONS = `[${[0, 1]
  .flatMap((cwOffset) =>
    [0, 1, 2, 3, 4, 5, 6].flatMap((leading) =>
      [0, 1, 2, 3, 4, 5].map((rots) => {
        let total = 0;
        if (leading === 1) total = cwOffset ? -1 : 1;
        for (let k = 0; k < rots; k++) {
          total += 1;
          if (rotateCcw(leading, total) === 1) total += 1;
        }
        return ((total % 6) + 6) % 6;
      }),
    ),
  )
  .join(', ')}]`;

/**
 * Per face and resolution-0 position (i, j, k): (baseCell · 8 + rotations) · 2 + (1 when the face is
 * one of the pentagon's cw-offset faces), three hex digits an entry, 27 entries a face.
 */
const BASE_CELL_OF = FACE_IJK_BASE_CELLS.flatMap((row, face) =>
  Array.from({ length: 27 }, (_, p) => {
    const bc = row[2 * p]!;
    const cw = PENTAGON_CW_OFFSET_FACES[bc]?.includes(face) ? 1 : 0;
    return ((bc * 8 + row[2 * p + 1]!) * 2 + cw).toString(16).padStart(3, '0');
  }),
).join('');

/**
 * The face nearest the unit vector v ({x, y, z}, a plain reference) and its squared chord distance:
 * {f (0 to 19), sqd}; the first face on a tie, as H3's strict comparison keeps it.
 */
function nearestFace(v: string): string {
  const centers = `[${FACE_CENTER_XYZ.map((c) => list(c)).join(', ')}]`;
  const all = `list_transform(${centers}, hfc -> (hfc[1] - ${v}.x) * (hfc[1] - ${v}.x) + (hfc[2] - ${v}.y) * (hfc[2] - ${v}.y) + (hfc[3] - ${v}.z) * (hfc[3] - ${v}.z))`;
  return bindAs(all, 'hds', `{'f': list_position(hds, list_min(hds)) - 1, 'sqd': list_min(hds)}`);
}

/** H3's _hex2dToCoordIJK on (x, y) (plain references): the axial [i, j] of the hexagon holding it. */
function hexOfPoint(x: string, y: string): string {
  const folded = (r1: string, r2: string, m1: string, m2: string): string => {
    const i = `CASE WHEN ${r1} < 0.5 THEN CASE WHEN ${r1} < 1.0::DOUBLE / 3.0 THEN ${m1} WHEN (1.0 - ${r1}) <= ${r2} AND ${r2} < (2.0 * ${r1}) THEN ${m1} + 1 ELSE ${m1} END WHEN ${r1} < 2.0::DOUBLE / 3.0 THEN CASE WHEN (2.0 * ${r1} - 1.0) < ${r2} AND ${r2} < (1.0 - ${r1}) THEN ${m1} ELSE ${m1} + 1 END ELSE ${m1} + 1 END`;
    const j = `CASE WHEN ${r1} < 0.5 AND ${r1} < 1.0::DOUBLE / 3.0 THEN CASE WHEN ${r2} < (1.0 + ${r1}) / 2.0 THEN ${m2} ELSE ${m2} + 1 END WHEN ${r1} < 2.0::DOUBLE / 3.0 THEN CASE WHEN ${r2} < (1.0 - ${r1}) THEN ${m2} ELSE ${m2} + 1 END ELSE CASE WHEN ${r2} < ${r1} / 2.0 THEN ${m2} ELSE ${m2} + 1 END END`;
    return `[${i}, ${j}]`;
  };
  const quantized = bindAs(
    `{'x1': abs(${x}) + abs(${y}) * ${RSIN60} / 2.0, 'x2': abs(${y}) * ${RSIN60}}`,
    'hq',
    bindAs(
      `{'m1': CAST(trunc(hq.x1) AS BIGINT), 'm2': CAST(trunc(hq.x2) AS BIGINT), 'r1': hq.x1 - trunc(hq.x1), 'r2': hq.x2 - trunc(hq.x2)}`,
      'hm',
      folded('hm.r1', 'hm.r2', 'hm.m1', 'hm.m2'),
    ),
  );
  // Fold across the axes for negative x, then y (the C code's integer division truncates).
  const xFold = `CASE WHEN ${x} < 0 THEN CASE WHEN hu[2] % 2 = 0 THEN [hu[1] - 2 * (hu[1] - hu[2] // 2), hu[2]] ELSE [hu[1] - (2 * (hu[1] - (hu[2] + 1) // 2) + 1), hu[2]] END ELSE hu END`;
  const yFold = `CASE WHEN ${y} < 0 THEN [hv[1] - (2 * hv[2] + 1) // 2, -hv[2]] ELSE hv END`;
  return bindAs(bindAs(quantized, 'hu', xFold), 'hv', yFold);
}

/**
 * The digit walk from resolution res up to 0: state [i, j, digits] in axial coordinates, the digits
 * packed as in the index (digit r at bit 3·(15 - r)), one fold step a resolution (Class III
 * resolutions are odd: aperture 7 ccw, else cw). Fixed-size state: no list grows in the fold.
 */
function digitWalk(ij: string, res: string): string {
  const odd = '(he[1] % 2 = 1)';
  const up = `CASE WHEN ${odd} THEN ${upAp7('hs[1]', 'hs[2]')} ELSE ${upAp7r('hs[1]', 'hs[2]')} END`;
  const di = `hs[1] - CASE WHEN ${odd} THEN 2 * hp[1] + hp[2] ELSE 3 * hp[1] - hp[2] END`;
  const dj = `hs[2] - CASE WHEN ${odd} THEN 3 * hp[2] - hp[1] ELSE hp[1] + 2 * hp[2] END`;
  const digit = `${DIGIT_OF_OFFSET}[(${di} + 1) * 3 + (${dj} + 1) + 1]`;
  const step = bindAs(up, 'hp', `[hp[1], hp[2], hs[3] | (${digit} << (3 * (15 - he[1])))]`);
  // Each element is [r + 1], the resolution whose digit the step finds; finest first.
  const levels = `list_transform(range(${res}), hk -> [${res} - hk])`;
  return `list_reduce(list_prepend(list_append(${ij}, 0::BIGINT), ${levels}), (hs, he) -> ${step})`;
}

/** The H3 token of the point (lng, lat) in degrees at resolution res (all plain references, valid). */
export function h3TokenOfPoint(lng: string, lat: string, res: string): string {
  const rad = `{'la': ${lat} * ${DEG_TO_RAD}, 'lo': ${lng} * ${DEG_TO_RAD}}`;
  const xyz = `{'x': cos(hg.la) * cos(hg.lo), 'y': cos(hg.la) * sin(hg.lo), 'z': sin(hg.la)}`;
  const faceLat = `${list(FACE_CENTER_GEO.map((g) => g[0]))}[hn.f + 1]`;
  const faceLng = `${list(FACE_CENTER_GEO.map((g) => g[1]))}[hn.f + 1]`;
  const azimuth = `atan2(cos(hg.la) * sin(hg.lo - ${faceLng}), cos(${faceLat}) * sin(hg.la) - sin(${faceLat}) * cos(hg.la) * cos(hg.lo - ${faceLng}))`;
  const theta0 = bindAs(
    bindAs(azimuth, 'ha', posAngle('ha')),
    'hb',
    bindAs(`${list(FACE_AXIS_AZ)}[hn.f + 1] - hb`, 'ht', posAngle('ht')),
  );
  const theta = bindAs(
    theta0,
    'ht',
    `CASE WHEN ${res} % 2 = 1 THEN ${bindAs(`ht - ${AP7_ROT_RADS}`, 'ht3', posAngle('ht3'))} ELSE ht END`,
  );
  // r scaled by sqrt(7) once a resolution, as the library multiplies (not by a power of sqrt(7)).
  const scaled = `list_reduce(list_prepend(tan(hr) / ${RES0_U_GNOMONIC}, list_transform(range(${res}), hk -> ${SQRT7})), (hx, hy) -> hx * hy)`;
  const hex = bindAs(`{'r': ${scaled}, 't': ${theta}}`, 'hh', hexOfPoint('hh.r * cos(hh.t)', 'hh.r * sin(hh.t)'));
  const ij = bindAs(
    `acos(1 - hn.sqd / 2)`,
    'hr',
    `CASE WHEN hr < ${EPSILON} THEN [0::BIGINT, 0::BIGINT] ELSE ${hex} END`,
  );
  const walked = bindAs(ij, 'hij', digitWalk('hij', res));
  const assembled = bindAs(walked, 'hw', cellId('hw', res));
  return bindAs(rad, 'hg', bindAs(bindAs(xyz, 'hv3', nearestFace('hv3')), 'hn', assembled));
}

/** The token from the walk's final state w ([i, j, digits...]) on face hn.f at resolution res. */
function cellId(w: string, res: string): string {
  const m = `least(${w}[1], ${w}[2], 0)`;
  const position = `((${w}[1] - ${m}) * 3 + (${w}[2] - ${m})) * 3 - ${m}`;
  const code = `CAST(('0x' || substr('${BASE_CELL_OF}', CAST((hn.f * 27 + ${position}) * 3 + 1 AS INTEGER), 3)) AS BIGINT)`;
  const info = bindAs(
    code,
    'hbc',
    `[hbc >> 4, (hbc >> 1) & 7, CASE WHEN list_contains(${PENTAGONS}, hbc >> 4) THEN 1 ELSE 0 END, hbc & 1]`,
  );
  const raw = `list_transform(range(1, ${res} + 1), hq -> (${w}[3] >> (3 * (15 - hq))) & 7)`;
  const leading = `coalesce(list_filter(hd0, hz -> hz <> 0)[1], 0)`;
  const rots = `CASE WHEN hb4[3] = 1 THEN ${PENT_ROTATIONS}[(hb4[4] * 7 + ${leading}) * 6 + hb4[2] + 1] ELSE hb4[2] END`;
  const packed = `coalesce(list_sum(list_transform(range(1, ${res} + 1), hq -> ${CCW_BY_N}[hnr * 8 + hd0[hq] + 1] << (3 * (15 - hq)))), 0)`;
  // Unrotated digits need no second pass (a hexagon base cell in its home orientation).
  const digits = `CASE WHEN hnr = 0 THEN ${w}[3] ELSE ${packed} END`;
  const below = `((1::BIGINT << (3 * (15 - ${res}))) - 1)`;
  const id = `((1::BIGINT << 59) | (${res} << 52) | (hb4[1] << 45) | hdp | ${below})`;
  return bindAs(info, 'hb4', bindAs(raw, 'hd0', bindAs(rots, 'hnr', bindAs(digits, 'hdp', `lower(hex(${id}))`))));
}
