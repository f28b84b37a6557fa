// The function bundles, built once for a test run and served by every offline stack of the run
// (infra/local/prebuilt-plugin.mjs reads INSIGHTS_PREBUILT_DIR), so that no stack bundles all
// functions again with serverless-esbuild. The build is npm start's own (infra/local/bundles.mjs:
// serverless.yml's esbuild options, one esbuild call), into a fresh folder under .esbuild/ (inside
// the tree, so that external packages resolve from node_modules).
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { bundleFunctions, root } from '../../infra/local/bundles.mjs';

export { esbuildOptions, functionEntries } from '../../infra/local/bundles.mjs';

export interface PrebuiltBundles {
  readonly dir: string;
  remove(): Promise<void>;
}

export async function buildFunctionBundles(): Promise<PrebuiltBundles> {
  const dir = path.join(root, '.esbuild', `prebuilt-${randomBytes(4).toString('hex')}`);
  await bundleFunctions(dir);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
