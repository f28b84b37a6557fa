// The playground page (placeholder until branch playground-page lands): loads the editor lazily.
const root = document.getElementById('app');
if (root) {
  const { createEditor } = await import('./editor');
  await createEditor(root, {
    initialText: 'States | take 10',
    schema: { database: 'telemetry', tables: [], functions: [] },
    onRun: () => undefined,
    ariaLabel: 'KQL query',
  });
}
export {};
