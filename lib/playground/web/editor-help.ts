// The editor's keyboard help for the page's help text. Its own module so that the page shows it
// without loading the editor (editor.ts and Monaco load lazily).

/** How to use the editor from the keyboard, leaving it included (Monaco keeps Tab for indenting). */
export const EDITOR_KEYBOARD_HELP =
  'Ctrl+Enter (Cmd+Enter on macOS) runs the statement under the cursor, or the selection; statements are ' +
  'separated by blank lines. Ctrl+Space lists completions. In the editor Tab indents: to leave it with the ' +
  'keyboard, press Esc then Tab (or Shift+Tab), or press Ctrl+M (Ctrl+Shift+M on macOS) to make Tab move ' +
  'the focus, and Ctrl+M again to make it indent.';
