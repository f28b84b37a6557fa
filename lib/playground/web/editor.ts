// Placeholder until the Monaco + monaco-kusto editor lands (branch playground-editor): a textarea
// with the same handle, so the page works without it.
import type { CreateEditor, EditorHandle, EditorMarker } from './contracts';

export const createEditor: CreateEditor = async (el, options) => {
  const area = document.createElement('textarea');
  area.value = options.initialText;
  area.setAttribute('aria-label', options.ariaLabel);
  area.spellcheck = false;
  el.replaceChildren(area);
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      options.onRun(handle.statementAtCursor());
    }
  });
  let markers: readonly EditorMarker[] = [];
  const handle: EditorHandle = {
    getText: () => area.value,
    setText: (text) => {
      area.value = text;
    },
    statementAtCursor: () => area.value,
    setMarkers: (m) => {
      markers = m;
      area.title = markers.map((x) => `${x.line}:${x.column} ${x.message}`).join('\n');
    },
    setSchema: () => undefined,
    focus: () => area.focus(),
  };
  return handle;
};
