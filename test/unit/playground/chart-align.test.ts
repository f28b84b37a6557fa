// Putting several series on one x array (chart-align.ts), and the value transforms of accumulate
// and kind=stacked / stacked100.
import { describe, expect, it } from 'vitest';
import {
  accumulate,
  alignCategories,
  alignNumeric,
  cumulative,
  percentOfTotal,
} from '../../../lib/playground/web/chart-align';

describe('alignNumeric', () => {
  it('sorts unsorted series, shares equal x values and keeps the answer order of repeated ones', () => {
    const aligned = alignNumeric([
      { name: 'a', xs: [3, 1, 2, 1], ys: [30, 10, 20, 11] },
      { name: 'b', xs: [2, 4], ys: [200, 400] },
    ]);
    expect(aligned.x).toEqual([1, 1, 2, 3, 4]);
    expect(aligned.values).toEqual([
      [10, 11, 20, 30, null],
      [null, null, 200, null, 400],
    ]);
  });

  it('handles no series and empty series', () => {
    expect(alignNumeric([])).toEqual({ x: [], values: [], replaced: 0 });
    expect(alignNumeric([{ name: 'a', xs: [], ys: [] }])).toEqual({ x: [], values: [[]], replaced: 0 });
  });
});

describe('alignCategories', () => {
  it('orders categories by first appearance across series and counts replaced values', () => {
    const aligned = alignCategories([
      { name: 'a', xs: ['b', 'a', 'b'], ys: [1, 2, 3] },
      { name: 'c', xs: ['c', 'a'], ys: [4, 5] },
    ]);
    expect(aligned.x).toEqual(['b', 'a', 'c']);
    expect(aligned.values).toEqual([
      [3, 2, null],
      [null, 5, 4],
    ]);
    expect(aligned.replaced).toBe(1);
  });
});

describe('value transforms', () => {
  it('accumulate keeps gaps and sums the values before them', () => {
    expect(accumulate([[1, null, 2, 3]])).toEqual([[1, null, 3, 6]]);
  });

  it('percentOfTotal divides by the sum of magnitudes at each x and leaves empty slots alone', () => {
    expect(
      percentOfTotal([
        [1, null, 0],
        [3, 5, 0],
      ]),
    ).toEqual([
      [25, null, 0],
      [75, 100, 0],
    ]);
  });

  it('cumulative stacks each series on the ones before it', () => {
    expect(
      cumulative([
        [1, 2, null],
        [10, null, 5],
        [100, 200, 300],
      ]),
    ).toEqual([
      [1, 2, null],
      [11, null, 5],
      [111, 202, 305],
    ]);
  });
});
