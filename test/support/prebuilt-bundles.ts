// The function bundles, built once for a test run and served by every offline stack of the run
// (infra/local/prebuilt-plugin.mjs reads INSIGHTS_PREBUILT_DIR), so that no stack bundles all
// functions again with serverless-esbuild. The build is npm start's own: its bundle cache
// (infra/local/bundle-cache.mjs: the sources' key, one esbuild call with serverless.yml's options,
// bundles.json listing what esbuild read), in a fresh cache folder under .esbuild/ (inside the tree,
// so that external packages resolve from node_modules). Being a cache entry of npm start's, it can
// also seed the data folder of the run's `npm start` (test/integration/npm-start.test.ts): the run
// bundles the functions once, not twice.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { cachedBundles } from '../../infra/local/bundle-cache.mjs';
import { root } from '../../infra/local/bundles.mjs';

export { esbuildOptions, functionEntries } from '../../infra/local/bundles.mjs';

export interface PrebuiltBundles {
  /** The cache entry: functions/ and bundles.json, named by the sources' key. */
  readonly dir: string;
  readonly key: string;
  remove(): Promise<void>;
}

export async function buildFunctionBundles(): Promise<PrebuiltBundles> {
  const cacheDir = path.join(root, '.esbuild', `prebuilt-${randomBytes(4).toString('hex')}`);
  const bundles = await cachedBundles(cacheDir);
  return { dir: bundles.dir, key: bundles.key, remove: () => rm(cacheDir, { recursive: true, force: true }) };
}
