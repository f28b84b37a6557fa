// monaco-kusto's worker (the Kusto language service: parsing, completion, hover, diagnostics),
// built as dist/kusto.worker.js. The language service's four scripts (about 8 MB) are not bundled
// into it: build.mjs turns their imports into importScripts calls of copies under dist/chunks/,
// so that no file served exceeds about 4 MB.
import '@kusto/monaco-kusto/release/esm/kusto.worker';
