// Where Monaco finds its web workers (editor.ts sets MonacoEnvironment.getWorker with it; pure,
// so that it is unit-tested in Node). The build (infra/playground/build.mjs) makes each
// lib/playground/web/*.worker.ts a classic worker script next to app.js (dist/editor.worker.js,
// dist/kusto.worker.js); this module is bundled into a lazily loaded chunk under dist/chunks/, so
// the workers are one folder up from the chunk's own URL. Classic, not module, workers: the
// Kusto worker loads the language service's scripts with importScripts (see build.mjs).

const WORKER_FILES: Readonly<Record<string, string>> = {
  // monaco-kusto creates its worker with the label 'kusto'; every other label is Monaco's own.
  kusto: 'kusto.worker.js',
  editorWorkerService: 'editor.worker.js',
};

export function workerUrl(label: string, chunkUrl: string): URL {
  const file = WORKER_FILES[label] ?? 'editor.worker.js';
  // Built from a variable on purpose: a literal `new URL('..', import.meta.url)` is a pattern
  // bundlers may try to resolve at build time.
  return new URL(`../${file}`, chunkUrl);
}
