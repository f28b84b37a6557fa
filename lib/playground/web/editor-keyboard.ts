// Leaving the editor with the keyboard. Monaco keeps Tab for indenting (a keyboard trap for people
// who do not know Ctrl+M, Monaco's own "Tab moves focus" toggle), so Esc then Tab leaves it too:
// Esc arms (it still closes a widget such as the completion list), and a Tab right after moves the
// focus to the next focusable element of the page (Shift+Tab: the previous one). Any other key
// disarms.
import type * as monaco from 'monaco-editor/esm/vs/editor/editor.api';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta']);

/** The focusable element after (or before) the container in document order, outside it. */
function neighbour(container: HTMLElement, backwards: boolean): HTMLElement | undefined {
  const side = backwards ? Node.DOCUMENT_POSITION_PRECEDING : Node.DOCUMENT_POSITION_FOLLOWING;
  const candidates = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (e) => !container.contains(e) && e.getClientRects().length > 0 && container.compareDocumentPosition(e) & side,
  );
  return backwards ? candidates.at(-1) : candidates[0];
}

export function installTabEscape(editor: monaco.editor.IStandaloneCodeEditor, container: HTMLElement): void {
  let armed = false;
  editor.onKeyDown((e) => {
    const key = e.browserEvent.key;
    // Pressing Shift for Shift+Tab is a key press of its own: modifiers alone keep the state.
    if (MODIFIERS.has(key)) return;
    if (key === 'Escape') {
      armed = true;
      return;
    }
    const leave = armed && key === 'Tab' && !e.ctrlKey && !e.altKey && !e.metaKey;
    armed = false;
    if (!leave) return;
    e.preventDefault();
    e.stopPropagation();
    const target = neighbour(container, e.shiftKey);
    // Nothing focusable on that side: blur, so the browser's next Tab starts from the page's edge.
    if (target) target.focus();
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  editor.onDidBlurEditorText(() => {
    armed = false;
  });
}
