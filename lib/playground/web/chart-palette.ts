// Series colours that keep 3:1 contrast (WCAG 2.1, 1.4.11 non-text contrast) against both a white
// and a dark (#1e1e1e) page, so one palette serves both themes; test/unit/playground/chart-palette
// checks every colour. Beyond ten series the colours repeat (the legend still names each one).
// Pure and DOM-free.

export const PALETTE: readonly string[] = [
  '#1f77b4', // blue
  '#d9480f', // orange
  '#2b8a3e', // green
  '#845ef7', // violet
  '#0c8599', // teal
  '#d6336c', // pink
  '#8a6d00', // olive
  '#868e96', // grey
  '#9b6a2f', // brown
  '#5c940d', // lime
];

export const seriesColor = (index: number): string => PALETTE[index % PALETTE.length] as string;

const channel = (c: number): number => {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};

/** Relative luminance of #rrggbb (WCAG 2.1 definition). */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.2126 * channel(r ?? 0) + 0.7152 * channel(g ?? 0) + 0.0722 * channel(b ?? 0);
}

/** WCAG contrast ratio of two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A CSS rgb()/rgba() colour (as getComputedStyle gives it) with another alpha; other forms unchanged. */
export function withAlpha(css: string, alpha: number): string {
  const m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(css);
  return m ? `rgba(${m[1]}, ${m[2]}, ${m[3]}, ${alpha})` : css;
}

/** #rrggbb with an alpha, for area fills. */
export const hexAlpha = (hex: string, alpha: number): string =>
  `${hex}${Math.round(alpha * 255)
    .toString(16)
    .padStart(2, '0')}`;
