// The query editor: Monaco with monaco-kusto, the KQL language service of Azure Data Explorer's web
// UI (colouring, completion and hover from the service's schema, its own syntax diagnostics).
// Loaded only through `await import('./editor')`, so Monaco and the language service land in
// chunks the page fetches after its first paint.
import 'monaco-editor/esm/vs/editor/edcore.main.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
import { getKustoWorker, kustoDefaults, themeNames } from '@kusto/monaco-kusto';
import type { CreateEditor, EditorHandle, PlaygroundSchema } from './contracts';
import { installTabEscape } from './editor-keyboard';
import { placeMarker, type TextOrigin } from './editor-markers';
import { toKustoSchema } from './editor-schema';
import { statementAt } from './editor-statements';
import { markCompletions, supportedSet } from './editor-support';
import { watchUnsupportedCalls } from './editor-unsupported';
import { workerUrl } from './editor-workers';

export { EDITOR_KEYBOARD_HELP } from './editor-help';

/** Marker owner of server errors; monaco-kusto's own diagnostics use the owner 'kusto'. */
const SERVER_OWNER = 'service';

let supported: ReadonlySet<string> | undefined;
let configured = false;
let models = 0;
let schemaVersion = 0;

// Settings are read when the first Kusto model appears, so they are set once, before it.
function configure(): void {
  if (configured) return;
  configured = true;
  self.MonacoEnvironment = {
    getWorker: (_moduleId: string, label: string) => new Worker(workerUrl(label, import.meta.url), { name: label }),
  };
  kustoDefaults.setLanguageSettings({
    ...kustoDefaults.languageSettings,
    // The service runs queries only: no `.show` or other control commands in completion.
    includeControlCommands: false,
    enableHover: true,
    useIntellisenseV2: true,
    // Monarch tokens as well as the worker's semantic colouring: colours before the worker answers,
    // and token types (string, comment) without which Monaco shows no completion while typing.
    useTokenColorization: true,
    onDidProvideCompletionItems: async (list) => ({ ...list, items: markCompletions(list.items, supported) }),
  });
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const follow = (): void => monaco.editor.setTheme(dark.matches ? themeNames.dark : themeNames.light);
  follow();
  dark.addEventListener('change', follow);
}

export const createEditor: CreateEditor = async (el, options) => {
  configure();
  supported = supportedSet(options.schema.functions);
  models += 1;
  const model = monaco.editor.createModel(
    options.initialText,
    'kusto',
    monaco.Uri.parse(`inmemory://playground/query-${models}.kql`),
  );
  const editor = monaco.editor.create(el, {
    model,
    ariaLabel: options.ariaLabel,
    automaticLayout: true,
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    fixedOverflowWidgets: true,
    fontSize: 14,
    tabSize: 4,
    wordWrap: 'on',
    renderLineHighlight: 'line',
  });
  const kusto = await (await getKustoWorker())(model.uri);
  const setSchema = async (schema: PlaygroundSchema): Promise<void> => {
    supported = supportedSet(schema.functions);
    schemaVersion += 1;
    await kusto.setSchema(toKustoSchema(schema, schemaVersion));
    unsupported.refresh();
  };
  const unsupported = watchUnsupportedCalls(model, kusto, () => supported);
  await setSchema(options.schema);

  // Server positions are relative to the text the page last got from the editor (getText or
  // statementAtCursor): that text's start in the document is remembered to place them.
  let handedOut: { text: string; start: number } | undefined;
  const origin = (): TextOrigin => {
    const text = model.getValue();
    if (!handedOut || text.slice(handedOut.start, handedOut.start + handedOut.text.length) !== handedOut.text) {
      return { line: 1, column: 1 };
    }
    const at = model.getPositionAt(handedOut.start);
    return { line: at.lineNumber, column: at.column };
  };
  // A server error describes the text that was run: editing makes its position stale.
  model.onDidChangeContent(() => monaco.editor.setModelMarkers(model, SERVER_OWNER, []));

  const handle: EditorHandle = {
    getText: () => {
      const text = model.getValue();
      handedOut = { text, start: 0 };
      return text;
    },
    setText: (text) => model.setValue(text),
    // A non-empty selection runs as it is, as in Kusto Explorer and Azure Data Explorer.
    statementAtCursor: () => {
      const selection = editor.getSelection();
      if (selection && !selection.isEmpty()) {
        const text = model.getValueInRange(selection);
        handedOut = { text, start: model.getOffsetAt(selection.getStartPosition()) };
        return text;
      }
      const position = editor.getPosition() ?? { lineNumber: 1, column: 1 };
      const statement = statementAt(model.getValue(), model.getOffsetAt(position));
      handedOut = statement ?? { text: '', start: 0 };
      return handedOut.text;
    },
    setMarkers: (markers) => {
      const start = origin();
      const lines = {
        lineCount: model.getLineCount(),
        maxColumn: (line: number) => model.getLineMaxColumn(line),
        wordEnd: (line: number, column: number) => model.getWordAtPosition({ lineNumber: line, column })?.endColumn,
      };
      const placed = markers.map((m) => ({
        ...placeMarker(m, start, lines),
        severity: monaco.MarkerSeverity.Error,
        source: 'service',
      }));
      monaco.editor.setModelMarkers(model, SERVER_OWNER, placed);
    },
    setSchema: (schema) => {
      setSchema(schema).catch((error: unknown) => console.warn('the editor could not take the new schema', error));
    },
    focus: () => editor.focus(),
  };

  editor.addAction({
    id: 'playground.run',
    label: 'Run the statement under the cursor',
    keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
    run: () => options.onRun(handle.statementAtCursor()),
  });
  installTabEscape(editor, el);
  return handle;
};
