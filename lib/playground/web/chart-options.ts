// The `with (...)` properties of a render hint as the chart uses them, and a note for each one it
// does not honour (https://learn.microsoft.com/kusto/query/render-operator#supported-properties).
// Pure and DOM-free.
import { columnList, toNumber } from './chart-values';

export type Stack = 'none' | 'stacked' | 'stacked100';

export interface ChartOptions {
  readonly title?: string;
  readonly xtitle?: string;
  readonly ytitle?: string;
  /** `legend=hidden` hides it; visible is the default. */
  readonly legend: boolean;
  readonly xcolumn?: string;
  readonly ycolumns: readonly string[];
  readonly series: readonly string[];
  readonly stack: Stack;
  readonly accumulate: boolean;
  readonly ymin?: number;
  readonly ymax?: number;
}

/** Visualizations whose `kind` stacks (render operator, "kind property": area, bar, column). */
const STACKING = new Set(['areachart', 'barchart', 'columnchart']);
const HANDLED = new Set([
  'title',
  'xtitle',
  'ytitle',
  'legend',
  'xcolumn',
  'ycolumns',
  'series',
  'kind',
  'accumulate',
  'ymin',
  'ymax',
]);

/** A property value without the quotes a query may have kept around it. */
function unquote(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return /^(['"]).*\1$/s.test(text) ? text.slice(1, -1) : text;
}

export function chartOptions(
  visualization: string,
  properties: Readonly<Record<string, unknown>>,
): { options: ChartOptions; notes: string[] } {
  const notes: string[] = [];
  // Kusto property names are written in lower case; a hint that capitalised one still means it.
  const props = new Map<string, string>();
  for (const [key, value] of Object.entries(properties ?? {})) {
    const text = unquote(value);
    if (text !== undefined) props.set(key.toLowerCase(), text);
  }
  for (const key of props.keys()) {
    if (key === 'ysplit') notes.push('ysplit is ignored: one y axis is drawn');
    else if (!HANDLED.has(key)) notes.push(`${key} is ignored`);
  }
  const kind = (props.get('kind') ?? 'default').toLowerCase();
  let stack: Stack = 'none';
  if (STACKING.has(visualization) && (kind === 'stacked' || kind === 'stacked100')) stack = kind;
  else if (kind !== 'default' && kind !== 'unstacked') notes.push(`kind=${kind} is ignored for ${visualization}`);
  const number = (key: string): number | undefined => {
    const value = props.get(key);
    if (value === undefined) return undefined;
    const n = toNumber(value);
    if (n === null) notes.push(`${key}=${value} is not a number and is ignored`);
    return n ?? undefined;
  };
  const text = (key: string): string | undefined => (props.get(key) ? props.get(key) : undefined);
  const options: ChartOptions = {
    title: text('title'),
    xtitle: text('xtitle'),
    ytitle: text('ytitle'),
    legend: (props.get('legend') ?? 'visible').toLowerCase() !== 'hidden',
    xcolumn: text('xcolumn'),
    ycolumns: columnList(props.get('ycolumns')),
    series: columnList(props.get('series')),
    stack,
    accumulate: (props.get('accumulate') ?? 'false').toLowerCase() === 'true',
    ymin: number('ymin'),
    ymax: number('ymax'),
  };
  return { options, notes };
}
