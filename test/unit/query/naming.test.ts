// Naming helpers that must stay cheap whatever the input: "did you mean" hints (bounded edit
// distance), project-away wildcards (no regular expression to backtrack), free column names
// (no quadratic search).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundedEditDistance,
  closest,
  HINT_MAX_CANDIDATES,
  HINT_MAX_NAME_LENGTH,
  matchesWildcard,
  NameAllocator,
  OutputNames,
} from '../../../lib/query/naming';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';

/** The textbook Levenshtein distance, the reference for the bounded one. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

const shortText = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A'), maxLength: 12 });

describe('closest (did you mean)', () => {
  it('keeps the hints it gave before', () => {
    expect(closest('Vaule', ['Timestamp', 'Value', 'Name'])).toBe('Value');
    expect(closest('DeviceID', ['DeviceId', 'Uid'])).toBe('DeviceId');
    expect(closest('Stats', ['States', 'Events'])).toBe('States');
    expect(closest('zzzzzz', ['States', 'Events'])).toBeUndefined();
  });

  it('gives no hint for a name longer than the bound, without looking at the candidates', () => {
    const name = 'n'.repeat(HINT_MAX_NAME_LENGTH + 1);
    expect(closest(name, [name])).toBeUndefined();
    expect(closest('n'.repeat(HINT_MAX_NAME_LENGTH), ['n'.repeat(HINT_MAX_NAME_LENGTH)])).toBe(
      'n'.repeat(HINT_MAX_NAME_LENGTH),
    );
  });

  it(`computes at most ${HINT_MAX_CANDIDATES} distances: a match behind that many near misses is not looked at`, () => {
    const misses = Array.from({ length: HINT_MAX_CANDIDATES }, (_, i) => `zz${String(i).padStart(4, '0')}`);
    expect(closest('Value1', [...misses, 'Value1'])).toBeUndefined();
    expect(closest('Value1', [...misses.slice(1), 'Value1'])).toBe('Value1');
  });

  it('skips candidates of a too different length without computing anything', () => {
    const far = Array.from({ length: 10_000 }, (_, i) => `${'w'.repeat(200)}${i}`);
    expect(closest('Value', [...far, 'Valeu'])).toBe('Valeu');
  });

  it('picks the first of the nearest candidates, as the unbounded version did', () => {
    fc.assert(
      fc.property(shortText, fc.array(shortText, { maxLength: 8 }), (name, candidates) => {
        const lower = name.toLowerCase();
        let best: string | undefined;
        let bestDistance = Infinity;
        for (const c of candidates) {
          const d = levenshtein(lower, c.toLowerCase());
          if (d < bestDistance) [best, bestDistance] = [c, d];
        }
        const expected =
          best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
        expect(closest(name, candidates)).toBe(expected);
      }),
      { seed: 12, numRuns: 500 },
    );
  });
});

describe('boundedEditDistance', () => {
  it('equals the Levenshtein distance up to the bound, and bound + 1 past it', () => {
    fc.assert(
      fc.property(shortText, shortText, fc.integer({ min: 0, max: 8 }), (a, b, max) => {
        const d = levenshtein(a, b);
        expect(boundedEditDistance(a, b, max)).toBe(d <= max ? d : max + 1);
      }),
      { seed: 7, numRuns: 1000 },
    );
  });
});

describe('matchesWildcard', () => {
  const viaRegex = (pattern: string, name: string): boolean =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      's',
    ).test(name);

  it('matches as the regular expression it replaces', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '*', '.'), maxLength: 10 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 10 }),
        (pattern, name) => {
          expect(matchesWildcard(pattern, name)).toBe(viaRegex(pattern, name));
        },
      ),
      { seed: 3, numRuns: 2000 },
    );
  });

  it('handles the patterns of project-away', () => {
    expect(matchesWildcard('Message*', 'MessageId')).toBe(true);
    expect(matchesWildcard('*Id', 'DeviceId')).toBe(true);
    expect(matchesWildcard('*ice*', 'DeviceId')).toBe(true);
    expect(matchesWildcard('*Id', 'Name')).toBe(false);
  });

  it('answers a pattern of many stars against a long name without exponential backtracking', () => {
    // A regular expression ^a.*a.*a...b$ backtracks exponentially on 'aaaa...'; this is O(pattern x name).
    expect(matchesWildcard(`${'a*'.repeat(200)}b`, 'a'.repeat(1024))).toBe(false);
  });
});

describe('NameAllocator', () => {
  it('hands out base, base1, base2 ... and Column1, Column2 ... skipping taken names', () => {
    const names = new NameAllocator(['x', 'x1', 'Column2']);
    const got: string[] = [];
    for (const base of ['x', 'x', undefined, undefined, 'y']) {
      const name = names.derivedOrColumnN(base);
      names.add(name);
      got.push(name);
    }
    expect(got).toEqual(['x2', 'x3', 'Column1', 'Column3', 'y']);
  });

  it('names 20,000 unnamed columns Column1 ... Column20000 in order (resuming each search, not restarting it)', () => {
    const names = new NameAllocator();
    for (let i = 0; i < 20_000; i++) names.add(names.columnN());
    expect(names.has('Column20000')).toBe(true);
    expect(names.columnN()).toBe('Column20001');
  });
});

describe('OutputNames (one summarize or project output, as Kusto.Language names it)', () => {
  it('makes a written name meeting a generated one unique, and numbers the k-th unnamed Column{k}', () => {
    // Prepare
    const names = new OutputNames();
    // Act
    const got = [
      names.generated('sum_v'),
      names.written('sum_v'),
      names.generated(undefined),
      names.written('Column2'),
      names.generated(undefined),
    ];
    // Assess
    expect(got).toEqual(['sum_v', 'sum_v1', 'Column1', 'Column2', 'Column21']);
    expect(['sum_v', 'sum_v1', 'Column1', 'Column2'].map((n) => names.isDeclared(n))).toEqual([
      false,
      true,
      false,
      true,
    ]);
  });
});

describe('summarize and project names that clash (Kusto.Language, which accepts them)', () => {
  const duckdb = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };
  const data = 'datatable(v:long, k:string)[1, "a"]';
  const columns = (ops: string): string[] =>
    compile(`${data} | ${ops}`, duckdb).columns.map((c) => `${c.name}:${c.type}`);

  it.each([
    ['summarize sum(v), sum_v = max(k)', ['sum_v:long', 'sum_v1:string']],
    ['summarize sum_v = max(k), sum(v)', ['sum_v:string', 'sum_v1:long']],
    ['summarize count(), count_1 = max(k), count_ = max(v)', ['count_:long', 'count_1:string', 'count_2:long']],
    ['summarize sum(v), sum_v = max(k) by sum_v1 = k', ['sum_v1:string', 'sum_v:long', 'sum_v2:string']],
    ['summarize tostring(sum(v)), sum_v = count()', ['sum_v:string', 'sum_v1:long']],
    ['summarize arg_max(v, k), v = max(k)', ['v:long', 'k:string', 'v1:string']],
    ['summarize Column1 = count(), sum(v) * 2', ['Column1:long', 'Column11:long']],
    ['summarize sum(v) * 2, Column1 = count() by v + 1', ['Column1:long', 'Column2:long', 'Column11:long']],
    ['project Column1 = 5, v + 1', ['Column1:long', 'Column11:long']],
    ['project v + 1, Column1 = "a"', ['Column1:long', 'Column11:string']],
    ['project strlen(k), strlen_k = "a", strlen_k = 1', ['strlen_k:long', 'strlen_k1:string', 'strlen_k2:long']],
    // A written name that is also an input column's, meeting a generated one: made unique all the same.
    ['project round(v), v = "a"', ['v:long', 'v1:string']],
    ['extend Column1 = 1 | project v + 1, Column1 = "a"', ['Column1:long', 'Column11:string']],
    // extend: Column{k} skips the input's names and the extend's own generated names, not its written
    // ones; meeting a written name it replaces it in place, as a later item of an extend does.
    ['extend Column1 = "a", v + 1', ['v:long', 'k:string', 'Column1:long']],
    ['extend v + 1, Column1 = "a"', ['v:long', 'k:string', 'Column1:string']],
    ['extend Column2 = "a", v + 1, v * 2', ['v:long', 'k:string', 'Column2:long', 'Column1:long']],
    ['extend Column1 = "a" | extend v + 1', ['v:long', 'k:string', 'Column1:string', 'Column2:long']],
  ])('%s gives %j', (ops, expected) => {
    // Act / Assess
    expect(columns(ops)).toEqual(expected);
  });

  // Kusto.Language numbers the unnamed columns across the query, not per operator: a later operator's
  // first unnamed column is not Column1 again once an earlier one had that number (schemafuzz S2).
  it.each([
    ['extend v + 1 | project v, v * 2', ['v:long', 'Column2:long']],
    ['extend v + 1 | project-away Column1 | project v * 2', ['Column2:long']],
    ['project v + 1 | project Column1 * 2', ['Column2:long']],
    ['extend v + 1 | summarize count() by v * 2', ['Column2:long', 'count_:long']],
    ['extend Column1 = 1 | extend v + 1 | project v * 3', ['Column3:long']],
    ['summarize Column1 = count(), sum(v) * 2 | project Column1 + 1', ['Column2:long']],
    ['extend v + 1 | make-series count() on v step 1 by v * 2', ['Column2:long', 'count_:dynamic', 'v:dynamic']],
    [
      'extend v + 1 | join (print v = 1 | extend v + 2) on v',
      ['v:long', 'k:string', 'Column1:long', 'v1:long', 'Column2:long'],
    ],
    ['mv-expand pack_array(1) | project v * 2', ['Column2:long']],
    ['extend v + 1 | mv-expand pack_array(1)', ['v:long', 'k:string', 'Column1:long', 'Column2:dynamic']],
  ])('%s gives %j, numbered across the query', (ops, expected) => {
    // Act / Assess
    expect(columns(ops)).toEqual(expected);
  });

  // schemafuzz S5: an element at a computed index is named after its array with an empty suffix.
  it.each([
    ['project d[i], d[-1], d[0], split(k, ",")[-1]', ['d_:dynamic', 'd_1:dynamic', 'd_0:dynamic', 'k_:dynamic']],
    ['summarize any(d[-1]), max(tolong(d[v]))', ['any_d_:dynamic', 'max_d_:long']],
    ['extend split(k, ",")[-1]', ['v:long', 'k:string', 'd:dynamic', 'i:long', 'k_:dynamic']],
  ])('%s gives %j, a computed index naming nothing after the underscore', (ops, expected) => {
    // Act
    const got = compile(`${data} | extend d = dynamic([1, 2]), i = 1 | ${ops}`, duckdb).columns;
    // Assess
    expect(got.map((c) => `${c.name}:${c.type}`)).toEqual(expected);
  });

  it('numbers a let body once, however often the query reads it', () => {
    // Act
    const got = compile(`let T = ${data} | extend v + 1; T | union T | project v, v * 2`, duckdb).columns;
    // Assess
    expect(got.map((c) => c.name)).toEqual(['v', 'Column2']);
  });

  it.each([
    ['summarize count(), count_ = max(k), count_1 = max(v)', "duplicate column name 'count_1'", '1:75'],
    ['summarize a = sum(v), a = max(v)', "duplicate column name 'a'", '1:61'],
    ['summarize v = sum(v) by v', "duplicate column name 'v'", '1:49'],
    // The renamed strlen_k1 is a written name; round(v) named v as the input column, v = k a bare column (Kusto.Language keeps one).
    ['project strlen(k), strlen_k = "a", strlen_k1 = 1', "duplicate column name 'strlen_k1'", '1:74'],
    ['project round(v), v = k', "duplicate column name 'v'", '1:57'],
    // A written name whose value is a bare column: Kusto.Language keeps one of the two columns (review).
    ['project strlen(k), strlen_k = v', "duplicate column name 'strlen_k'", '1:58'],
    ['project v + 1, Column1 = k', "duplicate column name 'Column1'", '1:54'],
  ])('%s stays a 400 at the second written name, as Kusto.Language errs', (ops, message, position) => {
    // Act / Assess
    expectRefusedAt(`${data} | ${ops}`, duckdb, { code: 'QUERY_SEMANTIC', message, position });
  });
});
