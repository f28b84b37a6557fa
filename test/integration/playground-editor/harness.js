// The browser test's page module: loads the editor lazily as app.ts does and exposes its handle
// and what Ctrl/Cmd+Enter ran to the test (window.harness). Built by the test with build.mjs.
/* global document, window */
const runs = [];
const schema = {
  database: 'telemetry',
  tables: [
    {
      name: 'States',
      docstring: 'One row per value of a state message',
      columns: [
        { name: 'Timestamp', type: 'datetime' },
        { name: 'PlantId', type: 'string', docstring: 'The plant of the message' },
        { name: 'NameId', type: 'string' },
        { name: 'Value', type: 'dynamic' },
      ],
    },
    {
      name: 'Events',
      columns: [
        { name: 'Timestamp', type: 'datetime' },
        { name: 'Severity', type: 'dynamic' },
      ],
    },
  ],
  functions: ['ago', 'bin', 'count', 'avg', 'tostring', 'todouble'],
};
const { createEditor, EDITOR_KEYBOARD_HELP } = await import('../../../lib/playground/web/editor.ts');
const handle = await createEditor(document.getElementById('editor'), {
  initialText: 'States | take 10',
  schema,
  onRun: (text) => runs.push(text),
  ariaLabel: 'KQL query',
});
document.getElementById('help').textContent = EDITOR_KEYBOARD_HELP;
window.harness = { handle, runs, schema };

// What the test measures in the page. Lines are told apart by their on-screen top (the documents
// of the test fit in the editor, so line n is the n-th line from the top).
function lines() {
  return [...document.querySelectorAll('.view-lines .view-line')]
    .map((element) => {
      const content = element.firstElementChild.getBoundingClientRect();
      const text = element.textContent.replace(/\u00a0/g, ' ');
      return { top: element.getBoundingClientRect().top, height: content.height, left: content.left, text, content };
    })
    .sort((a, b) => a.top - b.top);
}
function charWidth() {
  const measured = lines().find((l) => l.text.length > 0);
  return measured.content.width / measured.text.length;
}
window.harness.squiggles = (className) => {
  const all = lines();
  const width = charWidth();
  return [...document.querySelectorAll(`.${className}`)].map((squiggle) => {
    const box = squiggle.getBoundingClientRect();
    const index = all.findIndex((l) => Math.abs(l.top - box.top) < l.height / 2);
    const column = Math.round((box.left - all[index].left) / width) + 1;
    const text = all[index].text.slice(column - 1, column - 1 + Math.round(box.width / width));
    return { line: index + 1, column, text };
  });
};
// Null until the editor shows the model's text: Monaco renders a new text at a later frame, so
// right after setText the lines on screen can still be the old ones, or fewer.
window.harness.pointAt = (line, column) => {
  const shown = lines();
  const model = handle.getText().split('\n');
  if (shown.length < model.length || shown.some((l, i) => i < model.length && l.text !== model[i])) return null;
  const target = shown[line - 1];
  return { x: target.left + (column - 0.5) * charWidth(), y: target.top + target.height / 2 };
};
window.harness.focusedId = () => document.activeElement?.id;
