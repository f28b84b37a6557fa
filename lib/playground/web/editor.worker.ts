// Monaco's editor worker (diffs, word ranges, link detection), built as dist/editor.worker.js.
import 'monaco-editor/esm/vs/editor/editor.worker.js';
