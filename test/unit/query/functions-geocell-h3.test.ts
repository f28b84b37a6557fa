// H3's index functions (lib/query/catalog/functions-v9-geocell-h3.ts): argument errors, the
// Timestream refusal, the refusal of H3's geometric functions with their reason, hostile values, and
// the SQL against the reference of geocell-reference.ts over 400 valid and corrupted indexes. The
// printed examples: fn-geocell-h3-* conformance cases.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileFailure, expectRefusedAt } from './compile-failure';
import { duck, queryRunner, ts } from './geocell-queries';
import { seededRandom } from './seeded-random';
import { h3Children, h3Index, h3Parent } from './geocell-reference';

let rowsOf: (query: string) => Promise<unknown[][]>;
beforeAll(async () => {
  rowsOf = await queryRunner();
});

/**
 * 400 H3 tokens: valid cells of every resolution (the pentagon base cells often, with digits 0 and 1
 * often, to reach the missing pentagon children), and one in four with one bit flipped anywhere.
 */
function h3Tokens(): string[] {
  const next = seededRandom(7);
  const pick = (n: number): number => Math.floor(next() * n);
  const out: string[] = [];
  while (out.length < 400) {
    const base = next() < 0.3 ? [4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117][pick(12)]! : pick(122);
    const res = pick(16);
    let id = (1n << 59n) | (BigInt(res) << 52n) | (BigInt(base) << 45n);
    for (let r = 1; r <= 15; r++) {
      const d = r > res ? 7 : next() < 0.5 ? pick(2) : pick(7);
      id |= BigInt(d) << BigInt(3 * (15 - r));
    }
    if (next() < 0.25) id ^= 1n << BigInt(pick(64));
    out.push(id.toString(16));
  }
  return out;
}

describe('H3 level, parent and children: argument errors and the Timestream refusal', () => {
  it.each([
    ['print geo_h3cell_level(1)', "argument 'h3cell' must be a string, got long", '1:24'],
    ['print geo_h3cell_parent("8", 1.5)', "argument 'resolution' must be an integer, got real", '1:30'],
    ['print geo_h3cell_children()', 'geo_h3cell_children() takes (h3cell: string, [resolution: integer])', '1:7'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it.each(['geo_h3cell_level("8")', 'geo_h3cell_parent("8")', 'geo_h3cell_children("8")'])(
    'refuses %s on Timestream naming the function and the engine',
    (call) => {
      // Act
      const error = compileFailure(`print x = ${call}`, ts);
      // Assess
      expect(error.code).toBe('QUERY_UNSUPPORTED');
      expect(error.message).toMatch(/^1:11: geo_h3cell_\w+\(\) is not supported on the Timestream engine/);
    },
  );

  it.each([
    'geo_polygon_to_h3cells(dynamic(null), 3)',
    'geo_h3cell_rings("862a1072fffffff", 1)',
    'geo_polygon_to_s2cells(dynamic(null))',
  ])('refuses %s at its name with the reason', (call) => {
    // Act
    const error = compileFailure(`print x = ${call}`, duck);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:11: the function 'geo_\w+' is not supported: .*(H3|covering)/);
  });
});

describe('H3 level, parent and children: hostile values give what the pages print, never an error', () => {
  it('gives null, or an empty parent, for tokens that name no cell and for resolutions out of range', async () => {
    // Arrange: mode 2 (an edge), a reserved bit, base cell 122, a digit 7 above the resolution, a
    // digit other than 7 below it, a pentagon's missing child (base cell 4, first digit 1), not hex,
    // too long, empty; then a valid cell with resolutions out of range or null.
    const bad = [
      '1162a1072fffffff',
      '862a1072fffffff0',
      '8af4000000000000',
      '8cf3fffffffffff',
      '85f4000000000000',
      '852a107ffffffff',
      '852a1072fffffff',
      '8109fffffffffff',
      '81087ffffffffff',
      'xyz',
      '8862a1072fffffff',
      '',
    ];
    const calls = bad.map((t) => `geo_h3cell_level("${t}"), geo_h3cell_parent("${t}"), geo_h3cell_children("${t}")`);
    const cell = '862a1072fffffff';
    const ranges = [
      `geo_h3cell_parent("${cell}", -1)`,
      `geo_h3cell_parent("${cell}", 7)`,
      `geo_h3cell_parent("${cell}", long(null))`,
      `geo_h3cell_parent("8001fffffffffff")`,
      `geo_h3cell_children("${cell}", 5)`,
      `geo_h3cell_children("${cell}", 12)`,
      `geo_h3cell_children("${cell}", 16)`,
      `geo_h3cell_children("${cell}", long(null))`,
      `geo_h3cell_children("8f2a1072ffffff0")`,
    ];
    // Act
    const rows = await rowsOf(`print ${[...calls, ...ranges].join(', ')}`);
    // Assess
    expect(rows).toEqual([[...bad.flatMap(() => [null, '', null]), '', '', '', '', null, null, null, null, null]]);
    for (const t of bad) expect(h3Index(t), t).toBeUndefined();
  });

  it("lists a pentagon's children without the missing one", async () => {
    // Act: base cell 4 is a pentagon; 8009fffffffffff is its resolution 0 cell.
    const rows = await rowsOf(
      'print geo_h3cell_children("8009fffffffffff"), array_length(geo_h3cell_children("8009fffffffffff", 2))',
    );
    // Assess: 6 children (digit 1 missing); at resolution 2, the pentagon child's 6 and 5 hexagons' 7 each.
    expect(rows).toEqual([[h3Children('8009fffffffffff'), 41]]);
    expect((rows[0]![0] as string[]).length).toBe(6);
  });
});

describe('H3 level, parent and children: the SQL against the reference', () => {
  it('agrees on 400 tokens, valid and corrupted, at default and chosen resolutions', async () => {
    // Arrange
    const next = seededRandom(11);
    const tokens = h3Tokens().map((t) => [t, Math.floor(next() * 16), 1 + Math.floor(next() * 15)] as const);
    const query = [
      `datatable(t: string, pr: long, cr: long) [${tokens.map(([t, p, c]) => `"${t}", ${p}, ${c}`).join(', ')}]`,
      '| project t, pr, cr, l = geo_h3cell_level(t), p = geo_h3cell_parent(t), p2 = geo_h3cell_parent(t, pr),',
      '          c = geo_h3cell_children(t), c2 = geo_h3cell_children(t, iff(cr > geo_h3cell_level(t) + 2, geo_h3cell_level(t) + 2, cr))',
    ].join('\n');
    // Act
    const rows = await rowsOf(query);
    // Assess
    expect(rows.length).toBe(400);
    expect(rows.filter((r) => r[3] !== null).length).toBeGreaterThan(250);
    for (const [t, pr, cr, l, p, p2, c, c2] of rows as [
      string,
      number,
      number,
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
    ][]) {
      const cell = h3Index(t);
      expect(l, t).toBe(cell ? cell.res : null);
      expect(p, t).toBe(h3Parent(t));
      expect(p2, t).toBe(h3Parent(t, pr));
      expect(c, t).toEqual(h3Children(t));
      expect(c2, t).toEqual(h3Children(t, cell && cr > cell.res + 2 ? cell.res + 2 : cr));
    }
  });
});
