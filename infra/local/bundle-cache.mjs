// The function bundles of `npm start`, kept between starts in <data>/bundles/<key>/, where the key
// is a hash of the CONTENTS of everything that goes into them: the sources under functions/ and
// lib/, serverless.yml and its function lists, tsconfig.json, package.json and package-lock.json (what is in
// node_modules), esbuild's version, options and entry points. Sizes and modification times are not
// enough: `git checkout` gives a file new contents and a new mtime, but a copy or a restore from an
// archive can keep the size and the time of another version. Hashing the ~300 files (about 1.3 MB)
// costs tens of milliseconds against seconds for a build.
//
// A build goes to a temporary folder (`.building-<pid>-<random>`), gets its marker file last, and
// is then renamed to <key>: a build that is killed or fails leaves at most a temporary folder,
// which is never used and is removed by the next start; a <key> folder only ever holds a whole build.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { version as esbuildVersion } from 'esbuild';
import { bundleFunctions, esbuildOptions, functionEntries, functionFiles, readService, root } from './bundles.mjs';

const marker = 'bundles.json';
const building = /^\.building-(\d+)-[0-9a-f]+$/;

/** Build outputs that live beside the sources and never go into a function bundle. */
const notInputs = new Set(['dist', 'node_modules']);

/** Every file whose contents decide the bundles, relative to `base`, sorted. */
export async function bundleInputs(base, extraFiles) {
  const files = [...extraFiles];
  for (const dir of ['functions', 'lib']) {
    for (const entry of await readdir(path.join(base, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.relative(base, path.join(entry.parentPath, entry.name));
      if (!file.split(path.sep).some((part) => notInputs.has(part))) files.push(file);
    }
  }
  return [...new Set(files)].sort();
}

/**
 * The cache key of `base`'s bundles: a hash of `settings` (JSON) and of each input's path and contents.
 * @returns the key, the number of files read and how long it took.
 */
export async function bundleKey(base, settings, extraFiles) {
  const started = performance.now();
  const files = await bundleInputs(base, extraFiles);
  const contents = await Promise.all(files.map((file) => readFile(path.join(base, file))));
  const hash = createHash('sha256').update(JSON.stringify(settings));
  files.forEach((file, i) => {
    const content = contents[i];
    // Path and length first, so that no two different sets of files hash the same stream.
    hash.update(`\0${file}\0${content.length}\0`).update(content);
  });
  return { key: hash.digest('hex').slice(0, 16), files: files.length, ms: performance.now() - started };
}

/** The files beside functions/ and lib/ that go into the key. */
function projectFiles(service) {
  // package.json: bundled too (lib/wiring/kusto.ts reads its version), besides naming the packages.
  return ['serverless.yml', 'tsconfig.json', 'package.json', 'package-lock.json', ...functionFiles(service)];
}

/** Every file of this project whose contents go into the key, relative to the project. */
export function projectBundleInputs(service = readService()) {
  return bundleInputs(root, projectFiles(service));
}

/** The key of this project's bundles. */
export function projectBundleKey(service = readService()) {
  const settings = { esbuild: esbuildVersion, options: esbuildOptions(service), entries: functionEntries(service) };
  return bundleKey(root, settings, projectFiles(service));
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Removes other keys' bundles and the leftovers of builds whose process is gone. */
async function prune(cacheDir, keep) {
  for (const name of await readdir(cacheDir)) {
    const pid = building.exec(name)?.[1];
    if (name === keep || name === 'node_modules' || (pid && alive(Number(pid)))) continue;
    await rm(path.join(cacheDir, name), { recursive: true, force: true });
  }
}

/**
 * Node finds a bundle's external packages (DuckDB's native binding) by walking up from the bundle to
 * a node_modules folder: a data folder outside the project gets a link to the project's.
 */
async function linkNodeModules(cacheDir) {
  const link = path.join(cacheDir, 'node_modules');
  if (!path.relative(root, cacheDir).startsWith('..') || existsSync(link)) return;
  await rm(link, { force: true }); // a dangling link
  await symlink(path.join(root, 'node_modules'), link, 'junction');
}

/**
 * The bundles for the current sources in `cacheDir`: reused when a whole build of the same key is
 * there, built (atomically) otherwise.
 * @param build builds into an empty folder and returns esbuild's metafile (bundleFunctions; tests pass their own).
 * @returns the folder, whether it was reused, the key, and the time to check and to build (ms).
 * @throws what the build throws (esbuild's compile error); nothing is left in the cache then.
 */
export async function cachedBundles(cacheDir, { service = readService(), build = bundleFunctions } = {}) {
  const check = await projectBundleKey(service);
  const dir = path.join(cacheDir, check.key);
  await mkdir(cacheDir, { recursive: true });
  await linkNodeModules(cacheDir);
  const result = { dir, key: check.key, files: check.files, checkMs: check.ms };
  if (existsSync(path.join(dir, marker))) return { ...result, reused: true, buildMs: 0 };
  const started = performance.now();
  const temporary = path.join(cacheDir, `.building-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const metafile = await build(temporary, service);
    // What esbuild read, kept so that a test can check that the key covers every input.
    const inputs = Object.keys(metafile?.inputs ?? {});
    await writeFile(
      path.join(temporary, marker),
      `${JSON.stringify({ key: check.key, builtAt: new Date(), inputs })}\n`,
    );
    if (!existsSync(path.join(dir, marker))) await rm(dir, { recursive: true, force: true });
    await rename(temporary, dir);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    // Another start finished the same build first: its folder is whole (renamed with its marker).
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || !existsSync(path.join(dir, marker))) throw error;
  }
  await prune(cacheDir, check.key);
  return { ...result, reused: false, buildMs: performance.now() - started };
}
