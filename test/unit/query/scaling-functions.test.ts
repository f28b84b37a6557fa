// The functions rewritten so that their cost on one value grows linearly (issue 15: DuckDB cannot
// interrupt one function call on one value, docs/query-api.md "Limits of functions"), against
// references written in TypeScript from the functions' definitions, over a few hundred inputs: arrays
// of 0 to 40 elements with repeats (set operations, rotations, shifts, zip, index_of) and texts of
// 0 to 300 characters, ASCII and multi-byte (countof, indexof, hash around its 8-byte lanes and
// 32-byte stripes). Their old forms gave the same answers on these inputs and on nulls and
// non-arrays (compared during the rewrite); the conformance corpus pins the pages' examples.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { xxh64 } from './xxh64-reference';

type Json = unknown;
const ELEMENTS: readonly Json[] = [1, 2, 'a', 1.5, '1', true, { k: 1 }, [1], 7, 'b'];
/** Array i: 0 to 40 elements, with repeats, a different mix for each i. */
const arrayOf = (i: number): Json[] =>
  Array.from({ length: (i * 7) % 41 }, (_, k) => ELEMENTS[(i * 3 + k * k + k) % ELEMENTS.length]);
const ARRAYS = Array.from({ length: 120 }, (_, i) => arrayOf(i));
const key = (e: Json): string => JSON.stringify(e);

const distinct = (xs: readonly Json[]): Json[] => xs.filter((e, i) => xs.findIndex((f) => key(f) === key(e)) === i);
const has = (xs: readonly Json[], e: Json): boolean => xs.some((f) => key(f) === key(e));
const mod = (a: number, n: number): number => ((a % n) + n) % n;

// A stopped clock: the datatables of a few hundred rows must not meet the compile budget (wall time)
// on a loaded machine; limits.test.ts tests the budget.
const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const, rowLimit: 10_000, clock: () => 0 };

describe('functions rewritten to linear cost: equal to their definitions', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  /** Runs `| project i, <columns>` over the arrays (a, b = the array 37 further on) and returns the rows by i. */
  async function overArrays(columns: string): Promise<unknown[][]> {
    const rows = ARRAYS.map(
      (x, i) => `${i}, dynamic(${JSON.stringify(x)}), dynamic(${JSON.stringify(ARRAYS[(i + 37) % ARRAYS.length])})`,
    );
    const compiled = compile(
      `datatable(i:long, a:dynamic, b:dynamic) [${rows.join(', ')}] | project i, ${columns} | order by i asc`,
      options,
    );
    return convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
  }

  it('set_union, set_intersect, set_difference keep the first occurrences in order', async () => {
    // Act
    const rows = await overArrays('u = set_union(a, b), n = set_intersect(a, b), d = set_difference(a, b)');
    // Assess
    expect(rows).toHaveLength(ARRAYS.length);
    for (const [i, u, n, d] of rows as [number, Json[], Json[], Json[]][]) {
      const [a, b] = [ARRAYS[i]!, ARRAYS[(i + 37) % ARRAYS.length]!];
      expect(u, `set_union ${i}`).toEqual(distinct([...a, ...b]));
      expect(n, `set_intersect ${i}`).toEqual(distinct(a.filter((e) => has(b, e))));
      expect(d, `set_difference ${i}`).toEqual(distinct(a.filter((e) => !has(b, e))));
    }
  });

  it('array_rotate_left, array_shift_right, zip and repeat place each element where the definition does', async () => {
    // Act
    const rows = await overArrays(
      'r = array_rotate_left(a, i % 9 - 4), s = array_shift_right(a, i % 7 - 3, "f"), z = zip(a, b), p = repeat(i, i % 6)',
    );
    // Assess
    for (const [i, r, s, z, p] of rows as [number, Json[], Json[], Json[][], Json[]][]) {
      const [a, b] = [ARRAYS[i]!, ARRAYS[(i + 37) % ARRAYS.length]!];
      const k = (i % 9) - 4;
      const shift = (i % 7) - 3;
      expect(r, `rotate ${i}`).toEqual(a.map((_, j) => a[mod(j + k, a.length)]));
      expect(s, `shift ${i}`).toEqual(a.map((_, j) => (j - shift >= 0 && j - shift < a.length ? a[j - shift] : 'f')));
      const longest = Math.max(a.length, b.length);
      expect(z, `zip ${i}`).toEqual(Array.from({ length: longest }, (_, j) => [a[j] ?? null, b[j] ?? null]));
      expect(p, `repeat ${i}`).toEqual(Array.from({ length: i % 6 }, () => i));
    }
  });

  it('jaccard_index divides the shared distinct elements by all distinct elements', async () => {
    // Act
    const rows = await overArrays('j = jaccard_index(a, b)');
    // Assess
    for (const [i, j] of rows as [number, number | null][]) {
      const [a, b] = [distinct(ARRAYS[i]!), distinct(ARRAYS[(i + 37) % ARRAYS.length]!)];
      const shared = a.filter((e) => has(b, e)).length;
      const all = a.length + b.length - shared;
      if (all === 0) expect(j === null || Number.isNaN(j), `jaccard ${i}: ${String(j)}`).toBe(true);
      else expect(j, `jaccard ${i}`).toBeCloseTo(shared / all, 12);
    }
  });

  it('array_index_of finds the first equal element, and the second from a start', async () => {
    // Act
    const rows = await overArrays('f = array_index_of(a, 1), g = array_index_of(a, "a", 2, -1, 2)');
    // Assess
    for (const [i, f, g] of rows as [number, number, number][]) {
      const a = ARRAYS[i]!;
      const positions = a.flatMap((e, j) => (key(e) === '"a"' && j >= 2 ? [j] : []));
      expect(f, `first ${i}`).toBe(a.findIndex((e) => key(e) === '1'));
      expect(g, `second ${i}`).toBe(positions[1] ?? -1);
    }
  });

  describe('on texts', () => {
    const alphabet = [...'ab Z9-é€😀a'];
    /** 0 to 99 characters, then 100 lengths around multiples of 8 and 32 up to about 300. */
    const lengths = [
      ...Array.from({ length: 100 }, (_, n) => n),
      ...Array.from({ length: 100 }, (_, n) => 100 + 2 * n),
    ];
    const TEXTS = lengths.map((n, i) =>
      Array.from({ length: n }, (_, k) => alphabet[(i * 5 + k * 3 + ((k * k) % 7)) % alphabet.length]).join(''),
    );

    async function overTexts(columns: string): Promise<unknown[][]> {
      const compiled = compile(
        `datatable(i:long, s:string) [${TEXTS.map((t, i) => `${i}, '${t}'`).join(', ')}] | project i, ${columns} | order by i asc`,
        options,
      );
      return convertRows(
        await runSql(db, compiled.sql),
        compiled.columns.map((c) => c.type),
      );
    }
    /** Overlapping occurrences over code points, as countof's "normal" kind counts them. */
    const count = (text: string, search: string): number => {
      const [t, s] = [[...text], [...search]];
      if (s.length === 0) return 0;
      let n = 0;
      for (let i = 0; i + s.length <= t.length; i++) if (s.every((c, j) => t[i + j] === c)) n++;
      return n;
    };
    const indexOf = (text: string, search: string): number => {
      const [t, s] = [[...text], [...search]];
      for (let i = 0; i + s.length <= t.length; i++) if (s.every((c, j) => t[i + j] === c)) return i;
      return -1;
    };

    it('countof counts overlapping occurrences and indexof finds the first, in characters', async () => {
      // Act
      const rows = await overTexts(
        'c = countof(s, "aa"), e = countof(s, "😀a"), x = indexof(s, "€😀"), y = indexof(s, "a a")',
      );
      // Assess
      expect(rows).toHaveLength(TEXTS.length);
      for (const [i, c, e, x, y] of rows as [number, number, number, number, number][]) {
        const t = TEXTS[i]!;
        expect([c, e, x, y], JSON.stringify(t)).toEqual([
          count(t, 'aa'),
          count(t, '😀a'),
          indexOf(t, '€😀'),
          indexOf(t, 'a a'),
        ]);
      }
    });

    it('hash equals XXH64 of the UTF-8 bytes at every length around its lanes and stripes', async () => {
      // Act
      const rows = await overTexts('h = tostring(hash(s))');
      // Assess
      for (const [i, h] of rows as [number, string][]) {
        expect(h, `length ${lengths[i]}`).toBe(String(xxh64(new TextEncoder().encode(TEXTS[i]!))));
      }
    });
  });
});
