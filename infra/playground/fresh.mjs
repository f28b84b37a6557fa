// Whether lib/playground/dist is the build of the current sources (`npm start` rebuilds it when
// not, before the stack starts, so no request ever waits for a build): the manifest exists, every
// source it was built from is unchanged, and no page source was added since.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** @returns undefined when fresh, else the reason the page needs a build. */
export function playgroundStaleReason(root) {
  const web = path.join(root, 'lib/playground/web');
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(root, 'lib/playground/dist/manifest.json'), 'utf8'));
  } catch {
    return 'not built yet';
  }
  const inputs = manifest.inputs ?? {};
  for (const [file, mtimeMs] of Object.entries(inputs)) {
    try {
      if (statSync(path.join(root, file)).mtimeMs > mtimeMs) return `${file} changed`;
    } catch {
      return `${file} is gone`;
    }
  }
  const builtAt = Date.parse(manifest.builtAt);
  for (const name of readdirSync(web)) {
    const file = path.relative(root, path.join(web, name));
    if (/\.(ts|css)$/.test(name) && !(file in inputs) && statSync(path.join(web, name)).mtimeMs > builtAt)
      return `${file} is new`;
  }
  return undefined;
}
