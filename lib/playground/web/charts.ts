// Placeholder until the chart module lands (branch playground-charts): says what it would draw.
import type { RenderChart } from './contracts';

export const renderChart: RenderChart = (el, answer, hint) => {
  const note = document.createElement('p');
  note.textContent = `${hint.visualization}: ${answer.data.rows.length} rows (charts are not built yet)`;
  el.replaceChildren(note);
  return { kind: hint.visualization, series: [], dispose: () => note.remove() };
};
