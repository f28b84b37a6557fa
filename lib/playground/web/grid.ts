// The results grid: one table with a header per column (its KQL type shown), datetimes readable,
// numbers aligned right, dynamic values expandable (<details>, so keyboard and screen readers
// know them). Copying the answer: copy-formats.ts.
import type { QueryAnswer } from './contracts';

/** Rows drawn into the page; copying always takes the whole answer. */
export const GRID_ROW_CAP = 2000;

const NUMERIC = new Set(['long', 'int', 'real', 'decimal']);

/** 2026-11-25T20:00:00.5Z -> 2026-11-25 20:00:00.5 (UTC, as the column header says). */
function readableDatetime(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/.exec(value);
  return m ? `${m[1]} ${m[2]}` : value;
}

function cell(value: unknown, type: string): HTMLTableCellElement {
  const td = document.createElement('td');
  if (value === null || value === undefined) {
    td.className = 'null';
    td.textContent = 'null';
    return td;
  }
  if (NUMERIC.has(type)) td.className = 'num';
  if (type === 'datetime' && typeof value === 'string') {
    const time = document.createElement('time');
    time.dateTime = value;
    time.textContent = readableDatetime(value);
    td.append(time);
  } else if (typeof value === 'object') {
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    const text = JSON.stringify(value);
    summary.textContent = text.length > 60 ? `${text.slice(0, 57)}…` : text;
    const pre = document.createElement('pre');
    pre.textContent = JSON.stringify(value, null, 2);
    details.append(summary, pre);
    td.append(details);
  } else {
    td.textContent = String(value);
  }
  return td;
}

/** Draws the answer's rows (at most GRID_ROW_CAP) into el; returns how many were drawn. */
export function renderGrid(el: HTMLElement, answer: QueryAnswer): number {
  const table = document.createElement('table');
  const caption = document.createElement('caption');
  caption.className = 'visually-hidden';
  caption.textContent = `Query result: ${answer.data.rows.length} rows`;
  const head = document.createElement('thead');
  const headRow = document.createElement('tr');
  for (const column of answer.data.columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.dataset.type = column.columnType;
    const type = document.createElement('span');
    type.className = 'type';
    type.textContent = column.columnType === 'datetime' ? 'datetime (UTC)' : column.columnType;
    th.append(document.createTextNode(column.name), type);
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement('tbody');
  const drawn = answer.data.rows.slice(0, GRID_ROW_CAP);
  for (const row of drawn) {
    const tr = document.createElement('tr');
    answer.data.columns.forEach((column, i) => tr.append(cell(row[i], column.columnType)));
    body.append(tr);
  }
  table.append(caption, head, body);
  table.dataset.rows = String(drawn.length);
  el.replaceChildren(table);
  return drawn.length;
}
