// A `package.json` saying `"type": "commonjs"` in every folder of function bundles (`.cjs`). For each
// invocation, serverless-offline's in-process runner looks for the handler file's nearest
// package.json to learn whether a `.js` file would be an ES module: without one in the bundle folder
// it walks up to the project's own (`"type": "module"`), reading and parsing it every time, then
// tries the `.js` and `.mjs` forms first. The marker ends the walk at the bundle's folder and states
// what its files are. Nothing else reads it: the bundles' external packages resolve from the
// project's node_modules as before. Kept apart from bundles.mjs (the build) on purpose.
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const BUNDLE_PACKAGE_JSON = `${JSON.stringify({ type: 'commonjs' })}\n`;

/**
 * Writes the marker into every folder under `dir` that holds a `.cjs` file (an existing one is
 * overwritten: the folder holds nothing but bundles). Synchronous: it runs in the plugin's
 * initialize hook, before the stack serves anything, over a few dozen folders.
 * @returns the folders marked.
 */
export function markCommonJsBundleFolders(dir) {
  const marked = [];
  const visit = (folder) => {
    const entries = readdirSync(folder, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name.endsWith('.cjs'))) {
      writeFileSync(path.join(folder, 'package.json'), BUNDLE_PACKAGE_JSON);
      marked.push(folder);
    }
    for (const e of entries) if (e.isDirectory()) visit(path.join(folder, e.name));
  };
  visit(dir);
  return marked;
}
