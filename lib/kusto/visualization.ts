// The `Visualization` property Kusto writes into @ExtendedProperties for every query: the
// `render` operator's kind and properties, all null without a `render` (Kusto docs, "render
// operator": title, xcolumn, ycolumns, series, xtitle, ytitle, xaxis, yaxis, legend, ysplit,
// accumulate, kind, ymin, ymax, xmin, xmax).
import type { RenderHint } from '../query';

/** Property names as `render ... with (...)` spells them -> the Visualization JSON's keys. */
const KEYS: Readonly<Record<string, string>> = {
  title: 'Title',
  xcolumn: 'XColumn',
  series: 'Series',
  ycolumns: 'YColumns',
  anomalycolumns: 'AnomalyColumns',
  xtitle: 'XTitle',
  ytitle: 'YTitle',
  xaxis: 'XAxis',
  yaxis: 'YAxis',
  legend: 'Legend',
  ysplit: 'YSplit',
  accumulate: 'Accumulate',
  kind: 'Kind',
  ymin: 'Ymin',
  ymax: 'Ymax',
  xmin: 'Xmin',
  xmax: 'Xmax',
};

export interface Visualization {
  readonly Visualization: string | null;
  readonly [key: string]: unknown;
}

/** A render property's source text as a value: string literals unquoted, booleans and numbers parsed. */
function propertyValue(key: string, text: string): unknown {
  const quoted = /^(["'])(.*)\1$/s.exec(text.trim());
  if (quoted) return quoted[2];
  if (key === 'Accumulate') return text.trim().toLowerCase() === 'true';
  if ((key === 'Ymin' || key === 'Ymax') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text.trim();
}

export function visualization(render: RenderHint | undefined): Visualization {
  const base: Record<string, unknown> = {
    Visualization: render?.visualization ?? null,
    Title: null,
    XColumn: null,
    Series: null,
    YColumns: null,
    AnomalyColumns: null,
    XTitle: null,
    YTitle: null,
    XAxis: null,
    YAxis: null,
    Legend: null,
    YSplit: null,
    Accumulate: false,
    IsQuerySorted: false,
    Kind: null,
    Ymin: 'NaN',
    Ymax: 'NaN',
    Xmin: null,
    Xmax: null,
  };
  for (const [name, text] of Object.entries(render?.properties ?? {})) {
    const key = KEYS[name.toLowerCase()];
    if (key !== undefined) base[key] = propertyValue(key, text);
  }
  return base as Visualization;
}
