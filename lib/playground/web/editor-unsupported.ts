// Warnings on calls of Kusto functions the service does not compile (see editor-support.ts for
// why and how they are found). Kept up to date half a second after the last edit, like
// monaco-kusto's own diagnostics, and when the schema (with its function list) changes.
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
import type { KustoWorker } from '@kusto/monaco-kusto';
import { splitStatements } from './editor-statements';
import { UNSUPPORTED_DETAIL, unsupportedCalls } from './editor-support';

/** Marker owner of these warnings (monaco-kusto's are 'kusto', server errors 'service'). */
export const UNSUPPORTED_OWNER = 'service-functions';
const DELAY_MS = 500;

async function findCalls(model: monaco.editor.ITextModel, kusto: KustoWorker, supported: ReadonlySet<string>) {
  const version = model.getVersionId();
  const markers: monaco.editor.IMarkerData[] = [];
  for (const statement of splitStatements(model.getValue())) {
    // The language service resolves names per statement (a block between blank lines), as here.
    const symbols = await kusto.getReferencedSymbols(model.uri.toString(), statement.start).catch(() => []);
    const functions = symbols.filter((s) => s.kind === 'Function').map((s) => s.name);
    for (const call of unsupportedCalls(statement, functions, supported)) {
      const from = model.getPositionAt(call.start);
      const to = model.getPositionAt(call.end);
      markers.push({
        severity: monaco.MarkerSeverity.Warning,
        message: `${call.name}: ${UNSUPPORTED_DETAIL} (the query will be refused)`,
        source: 'service',
        startLineNumber: from.lineNumber,
        startColumn: from.column,
        endLineNumber: to.lineNumber,
        endColumn: to.column,
      });
    }
  }
  // The text changed while the worker answered: a newer check is on its way.
  if (!model.isDisposed() && model.getVersionId() === version) {
    monaco.editor.setModelMarkers(model, UNSUPPORTED_OWNER, markers);
  }
}

export function watchUnsupportedCalls(
  model: monaco.editor.ITextModel,
  kusto: KustoWorker,
  supported: () => ReadonlySet<string> | undefined,
): { refresh(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const names = supported();
      if (!names) return monaco.editor.setModelMarkers(model, UNSUPPORTED_OWNER, []);
      findCalls(model, kusto, names).catch((error: unknown) =>
        console.warn('unsupported-function check failed', error),
      );
    }, DELAY_MS);
  };
  model.onDidChangeContent(refresh);
  model.onWillDispose(() => clearTimeout(timer));
  return { refresh };
}
