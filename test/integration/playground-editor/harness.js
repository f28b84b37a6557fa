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
    { name: 'Events', columns: [{ name: 'Timestamp', type: 'datetime' }, { name: 'Severity', type: 'dynamic' }] },
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
