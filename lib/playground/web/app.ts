// The playground page: sign in with a query client, pick a window and plants, write KQL, run it
// (Run or Ctrl/Cmd+Enter) and see the rows, the chart of its `render` and the SQL of explain.
// The editor module is heavy (Monaco), so it loads only after sign-in; the chart module with the
// first rendered answer.
import './page.css';
import { ApiError, Session, type QueryRequest } from './api';
import type { EditorHandle, EditorMarker, PlaygroundSchema, QueryAnswer } from './contracts';
import { toCsv, toJson } from './copy-formats';
import { ChartPanel, markersOf, showAnswer } from './results-view';
import { selectTab, wireTabs, type TabName } from './tabs';
import { localInputValue, timeWindow, type WindowPreset } from './time-window';

const INITIAL_QUERY = `States
| summarize avg(todouble(Value)) by bin(Timestamp, 15m), Name
| render timechart with (title="Average value per signal")`;

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
};

const ui = {
  status: $('status'),
  signIn: $<HTMLFormElement>('sign-in'),
  signInError: $('sign-in-error'),
  clientId: $<HTMLInputElement>('client-id'),
  clientSecret: $<HTMLInputElement>('client-secret'),
  signOut: $<HTMLButtonElement>('sign-out'),
  workspace: $('workspace'),
  window: $<HTMLSelectElement>('window'),
  customWindow: $('custom-window'),
  windowStart: $<HTMLInputElement>('window-start'),
  windowEnd: $<HTMLInputElement>('window-end'),
  plants: $<HTMLFieldSetElement>('plants'),
  run: $<HTMLButtonElement>('run'),
  editor: $('query-editor'),
  summary: $('result-summary'),
  truncated: $('truncated'),
  queryError: $('query-error'),
  grid: $('grid'),
  copyCsv: $<HTMLButtonElement>('copy-csv'),
  copyJson: $<HTMLButtonElement>('copy-json'),
  chart: $('chart'),
  explain: $('explain'),
};

let session: Session | undefined;
let editor: EditorHandle | undefined;
let lastAnswer: QueryAnswer | undefined;
let lastRequest: QueryRequest | undefined;
let explained: QueryRequest | undefined;
const chart = new ChartPanel(ui.chart);
let running = false;

function say(text: string): void {
  ui.status.textContent = text;
}

/**
 * The editor handle, recording what it was given on its container too (data-markers), so tools
 * and the browser test read the markers whatever editor implementation draws them.
 */
function recorded(handle: EditorHandle): EditorHandle {
  // Each method forwarded explicitly: a handle may be a class instance, whose methods a spread drops.
  return {
    getText: () => handle.getText(),
    setText: (text) => handle.setText(text),
    statementAtCursor: () => handle.statementAtCursor(),
    setMarkers: (markers: readonly EditorMarker[]) => {
      ui.editor.dataset.markers = JSON.stringify(markers);
      handle.setMarkers(markers);
    },
    setSchema: (schema) => handle.setSchema(schema),
    focus: () => handle.focus(),
  };
}

async function openEditor(schema: PlaygroundSchema): Promise<EditorHandle> {
  if (editor) {
    editor.setSchema(schema);
    return editor;
  }
  say('Loading the editor…');
  const { createEditor } = await import('./editor');
  editor = recorded(
    await createEditor(ui.editor, {
      initialText: INITIAL_QUERY,
      schema,
      onRun: (text) => void run(text),
      ariaLabel: 'KQL query (Ctrl+Enter runs it)',
    }),
  );
  ui.editor.dataset.ready = 'true';
  return editor;
}

function showPlants(plantIds: readonly string[]): void {
  const legend = ui.plants.querySelector('legend');
  ui.plants.replaceChildren(...(legend ? [legend] : []));
  for (const plantId of plantIds) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = plantId;
    box.checked = true;
    label.append(box, document.createTextNode(plantId));
    ui.plants.append(label);
  }
  if (plantIds.length === 0) ui.plants.append(document.createTextNode('this client may see no plant'));
}

/** The request for text: the window and, when not every plant is ticked, the ticked plants. */
function requestFor(text: string): QueryRequest {
  const window = timeWindow(ui.window.value as WindowPreset, { start: ui.windowStart.value, end: ui.windowEnd.value });
  const boxes = [...ui.plants.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
  const ticked = boxes.filter((b) => b.checked).map((b) => b.value);
  if (boxes.length > 0 && ticked.length === 0) throw new Error('tick at least one plant');
  return { query: text, ...window, ...(ticked.length < boxes.length ? { plantIds: ticked } : {}) };
}

async function run(text: string): Promise<void> {
  if (!session || running) return;
  let request: QueryRequest;
  try {
    request = requestFor(text);
  } catch (error) {
    say(`Not run: ${(error as Error).message}.`);
    return;
  }
  running = true;
  ui.run.disabled = true;
  ui.queryError.textContent = '';
  editor?.setMarkers([]);
  say('Running the query…');
  const started = performance.now();
  try {
    const answer = await session.query(request);
    const ms = Math.round(performance.now() - started);
    lastRequest = request;
    explained = undefined;
    lastAnswer = answer;
    showAnswer(ui, answer, ms);
    const drawn = await chart.show(answer);
    say(`Done: ${answer.data.rows.length} rows in ${ms} ms${drawn ? `, ${drawn} drawn` : ''}.`);
    // `render table` draws no chart: its rows are the result.
    selectTab(drawn && drawn !== 'table' ? 'chart' : 'results');
  } catch (error) {
    const e = error instanceof ApiError ? error : new ApiError(0, 'PAGE', (error as Error).message);
    ui.queryError.textContent = `${e.code}: ${e.message}`;
    editor?.setMarkers(markersOf(e));
    selectTab('results');
    say(`The query failed: ${e.message}`);
  } finally {
    running = false;
    ui.run.disabled = false;
  }
}

async function showExplain(): Promise<void> {
  if (!session || !lastRequest || explained === lastRequest) {
    if (!lastRequest) ui.explain.textContent = 'Run a query first: its SQL appears here.';
    return;
  }
  explained = lastRequest;
  ui.explain.textContent = 'Compiling…';
  try {
    const answer = await session.explain(lastRequest);
    ui.explain.textContent = `-- ${answer.data.dialect}\n${answer.data.sql}`;
  } catch (error) {
    ui.explain.textContent = (error as Error).message;
  }
}

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    say(`Copied the rows as ${what}.`);
  } catch {
    say(`The browser refused the clipboard; ${what} not copied.`);
  }
}

async function signIn(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  ui.signInError.textContent = '';
  say('Signing in…');
  try {
    session = await Session.signIn(ui.clientId.value.trim(), ui.clientSecret.value, (e) => {
      say(`The token could not be renewed (${e.message}); sign in again.`);
    });
    ui.clientSecret.value = '';
    const [whoami, schema] = await Promise.all([session.whoami(), session.schema()]);
    showPlants(whoami.plantIds);
    ui.signIn.hidden = true;
    ui.workspace.hidden = false;
    ui.signOut.hidden = false;
    const handle = await openEditor(schema);
    say(
      `Signed in as ${whoami.clientId ?? ui.clientId.value} (customer ${whoami.customerId}). Ctrl+Enter runs the query.`,
    );
    handle.focus();
  } catch (error) {
    session?.signOut();
    session = undefined;
    ui.signInError.textContent = error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
    say('Sign-in failed.');
  }
}

function signOut(): void {
  session?.signOut();
  session = undefined;
  lastAnswer = undefined;
  lastRequest = undefined;
  ui.workspace.hidden = true;
  ui.signOut.hidden = true;
  ui.signIn.hidden = false;
  ui.grid.replaceChildren();
  ui.clientId.focus();
  say('Signed out; the token is forgotten.');
}

ui.signIn.addEventListener('submit', (e) => void signIn(e));
ui.signOut.addEventListener('click', signOut);
ui.run.addEventListener('click', () => {
  if (editor) void run(editor.statementAtCursor());
});
ui.window.addEventListener('change', () => {
  const custom = ui.window.value === 'custom';
  ui.customWindow.hidden = !custom;
  if (custom && !ui.windowStart.value) {
    ui.windowStart.value = localInputValue(Date.now() - 86_400_000);
    ui.windowEnd.value = localInputValue(Date.now());
  }
});
ui.copyCsv.addEventListener('click', () => lastAnswer && void copy(toCsv(lastAnswer), 'CSV'));
ui.copyJson.addEventListener('click', () => lastAnswer && void copy(toJson(lastAnswer), 'JSON'));
wireTabs((tab: TabName) => {
  if (tab === 'explain') void showExplain();
});
document.body.dataset.ready = 'true';
