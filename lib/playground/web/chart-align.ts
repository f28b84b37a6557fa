// Puts the points of several series on one shared x array, as uPlot draws them (one x array, one
// y array per series, null where a series has no point) and as ECharts reads category data.
// Pure and DOM-free; nothing here throws.

export interface RawSeries<X> {
  readonly name: string;
  readonly xs: readonly X[];
  readonly ys: readonly (number | null)[];
}

export interface Aligned<X> {
  readonly x: readonly X[];
  readonly values: readonly (number | null)[][];
  /** Points that shared a category with an earlier point of their series (the later one is kept). */
  readonly replaced: number;
}

/** A series' point indexes in ascending x order (stable: repeated x values keep the answer's order). */
function sortedOrder(xs: readonly number[]): Int32Array {
  const order = Int32Array.from(xs, (_, i) => i);
  for (let i = 1; i < xs.length; i++) {
    if ((xs[i] as number) < (xs[i - 1] as number)) {
      return Int32Array.from([...order].sort((a, b) => (xs[a] as number) - (xs[b] as number) || a - b));
    }
  }
  return order;
}

/**
 * Numeric or time x: the sorted union of the series' x values. A value that occurs k times in one
 * series (a scatter of repeated readings) gets k slots, so no point is lost, while series that share
 * their x values (devices binned by the same minute) share slots and the union stays short.
 * Typed arrays and merges of sorted runs, no maps: 100k points take milliseconds.
 */
export function alignNumeric(series: readonly RawSeries<number>[]): Aligned<number> {
  const all = new Float64Array(series.reduce((n, s) => n + s.xs.length, 0));
  let n = 0;
  for (const s of series) for (const x of s.xs) all[n++] = x;
  all.sort();
  const keys: number[] = [];
  for (const x of all) if (keys.length === 0 || keys[keys.length - 1] !== x) keys.push(x);
  const orders = series.map((s) => sortedOrder(s.xs));
  // slots[k]: the most times key k occurs in one series.
  const slots = new Int32Array(keys.length);
  series.forEach((s, si) => {
    let k = 0;
    let run = 0;
    for (const i of orders[si] as Int32Array) {
      const x = s.xs[i] as number;
      if (keys[k] !== x) {
        while (keys[k] !== x) k++;
        run = 0;
      }
      run += 1;
      if (run > (slots[k] as number)) slots[k] = run;
    }
  });
  const start = new Int32Array(keys.length);
  const x: number[] = [];
  keys.forEach((key, k) => {
    start[k] = x.length;
    for (let i = 0; i < (slots[k] as number); i++) x.push(key);
  });
  const values = series.map((s, si) => {
    const column = new Array<number | null>(x.length).fill(null);
    let k = 0;
    let run = 0;
    for (const i of orders[si] as Int32Array) {
      const xv = s.xs[i] as number;
      if (keys[k] !== xv) {
        while (keys[k] !== xv) k++;
        run = 0;
      }
      column[(start[k] as number) + run] = s.ys[i] ?? null;
      run += 1;
    }
    return column;
  });
  return { x, values, replaced: 0 };
}

/** Category x: categories in order of first appearance (the answer's sort order is the axis order). */
export function alignCategories(series: readonly RawSeries<string>[]): Aligned<string> {
  const index = new Map<string, number>();
  for (const s of series) for (const x of s.xs) if (!index.has(x)) index.set(x, index.size);
  let replaced = 0;
  const values = series.map((s) => {
    const column = new Array<number | null>(index.size).fill(null);
    const seen = new Set<string>();
    s.xs.forEach((key, i) => {
      if (seen.has(key)) replaced += 1;
      seen.add(key);
      column[index.get(key) ?? 0] = s.ys[i] ?? null;
    });
    return column;
  });
  return { x: [...index.keys()], values, replaced };
}

/** `accumulate=true`: each value becomes the sum of its series' values up to it. */
export function accumulate(values: readonly (number | null)[][]): (number | null)[][] {
  return values.map((column) => {
    let sum = 0;
    return column.map((v) => (v === null ? null : (sum += v)));
  });
}

/** `kind=stacked100`: each value as a percentage of the sum of magnitudes at its x. */
export function percentOfTotal(values: readonly (number | null)[][]): (number | null)[][] {
  const length = values[0]?.length ?? 0;
  const totals = new Array<number>(length).fill(0);
  for (const column of values) column.forEach((v, i) => (totals[i] = (totals[i] ?? 0) + Math.abs(v ?? 0)));
  return values.map((column) =>
    column.map((v, i) => (v === null || !totals[i] ? v : (v / (totals[i] as number)) * 100)),
  );
}

/** Stacked series for a renderer without stacking (uPlot): each series drawn on top of the previous. */
export function cumulative(values: readonly (number | null)[][]): (number | null)[][] {
  const length = values[0]?.length ?? 0;
  const base = new Array<number>(length).fill(0);
  return values.map((column) =>
    column.map((v, i) => {
      if (v === null) return null;
      base[i] = (base[i] ?? 0) + v;
      return base[i] as number;
    }),
  );
}
