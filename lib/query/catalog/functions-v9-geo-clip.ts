// The area of two overlapping convex polygons' union for geo_polygon_area (its page measures a
// MultiPolygon's union and prints 10889971.5343487 m² for two overlapping parts): area(A) + area(B)
// − area(A ∩ B), the intersection cut by Sutherland–Hodgman clipping. Clipping by a convex ring is
// exact on the sphere as in the plane: geodesic edges are straight lines under the gnomonic
// projection, so each clip edge's great circle halves the sphere and a subject edge crosses it once.
// Only single-ring convex parts are cut; any other overlap keeps its null (no general polygon
// clipping here). DuckDB SQL over rings of unit vectors without closing vertex (polygonVectors).
import { bind, cross, dot, plus, scale, minus, triple } from './functions-v9-geo-sphere';

/** Ring `r` runs counterclockwise around the region it bounds, given its orientation sign `sign`. */
export const counterclockwise = (r: string, sign: string): string =>
  `CASE WHEN ${sign} > 0 THEN ${r} ELSE list_reverse(${r}) END`;

/**
 * Counterclockwise ring gcC is convex: no other vertex lies right of an edge's great circle (an
 * edge's own ends are left out: their rounding noise has either sign).
 */
const convex =
  'NOT coalesce(list_bool_or(list_transform(range(1, len(gcC) + 1), gcJ -> list_bool_or(list_transform(range(1, len(gcC) + 1), gcK -> ' +
  `gcK <> gcJ AND gcK <> gcJ % len(gcC) + 1 AND ${triple('gcC[gcJ]', 'gcC[gcJ % len(gcC) + 1]', 'gcC[gcK]')} < 0E0)))), true)`;

/** The unit vector where edge p→q meets the plane whose sides give p and q the signed heights gcd. */
const crossing = (p: string, q: string): string =>
  bind(
    plus(p, scale('gcd[1] / (gcd[1] - gcd[2])', minus(q, p))),
    'gcx',
    scale(`1E0 / sqrt(${dot('gcx', 'gcx')})`, 'gcx'),
  );

/** Subject ring gcS cut to the left of clip edge gcE (Sutherland–Hodgman's step). */
const clipStep = bind(
  cross('gcE[1]', 'gcE[2]'),
  'gcN',
  'flatten(list_transform(range(1, len(gcS) + 1), gcJ -> ' +
    bind(
      `[${dot('gcN', 'gcS[gcJ]')}, ${dot('gcN', 'gcS[gcJ % len(gcS) + 1]')}]`,
      'gcd',
      `CASE WHEN gcd[1] >= 0E0 AND gcd[2] >= 0E0 THEN [gcS[gcJ % len(gcS) + 1]] ` +
        `WHEN gcd[1] >= 0E0 THEN [${crossing('gcS[gcJ]', 'gcS[gcJ % len(gcS) + 1]')}] ` +
        `WHEN gcd[2] >= 0E0 THEN [${crossing('gcS[gcJ]', 'gcS[gcJ % len(gcS) + 1]')}, gcS[gcJ % len(gcS) + 1]] ` +
        'ELSE []::DOUBLE[][] END',
    ) +
    '))',
);

/** Counterclockwise ring `subject` cut by every edge of counterclockwise convex ring `clip`. */
const clipped = (subject: string, clip: string): string =>
  bind(
    clip,
    'gcC',
    `list_reduce(list_transform(range(1, len(gcC) + 1), gcJ -> [gcC[gcJ], gcC[gcJ % len(gcC) + 1]]), ` +
      `(gcS, gcE) -> ${clipStep}, ${subject})`,
  );

/**
 * The union's area (in steradians) of the two counterclockwise rings in list gcR when both are
 * convex, else null; `area` gives a ring gv's unsigned area (written once: it is long).
 */
export const convexUnionArea = (area: string): string =>
  `CASE WHEN list_bool_and(list_transform(gcR, gcC -> ${convex})) THEN ` +
  bind(
    `list_transform([gcR[1], gcR[2], ${bind('gcR[1]', 'gcA', clipped('gcA', 'gcR[2]'))}], gv -> CASE WHEN len(gv) >= 3 THEN ${area} ELSE 0E0 END)`,
    'gcU',
    'gcU[1] + gcU[2] - gcU[3]',
  ) +
  ' END';
