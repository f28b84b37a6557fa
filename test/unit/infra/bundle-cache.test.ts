// npm start's bundle cache (infra/local/bundle-cache.mjs): the key follows file contents, not sizes
// and times; a whole build is reused; a failed or killed build is never used and is cleaned up.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleKey, cachedBundles } from '../../../infra/local/bundle-cache.mjs';
import { waitUntil } from '../../support/ports';

const cacheModule = path.resolve(import.meta.dirname, '../../../infra/local/bundle-cache.mjs');

let work: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'bundle-cache-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A builder that writes one file and counts its calls. */
const fakeBuild = (content: string) => {
  const calls: string[] = [];
  const build = async (dir: string) => {
    calls.push(dir);
    await mkdir(path.join(dir, 'functions'), { recursive: true });
    await writeFile(path.join(dir, 'functions/handler.cjs'), content);
    return { inputs: { 'functions/handler.ts': { bytes: 1, imports: [] } }, outputs: {} };
  };
  return { build, calls };
};

describe('bundle key', () => {
  const write = async (file: string, content: string) => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), content);
  };

  it('changes with a file whose size and modification time stay the same (a git checkout, a restore)', async () => {
    await write('functions/a.ts', 'export const a = 1;');
    await write('lib/b.ts', 'export const b = 1;');
    await write('serverless.yml', 'service: x');
    const time = new Date('2026-01-01T00:00:00Z');
    await utimes(path.join(work, 'lib/b.ts'), time, time);
    const before = await bundleKey(work, { v: 1 }, ['serverless.yml']);
    await write('lib/b.ts', 'export const b = 2;');
    await utimes(path.join(work, 'lib/b.ts'), time, time);
    const after = await bundleKey(work, { v: 1 }, ['serverless.yml']);
    expect(before.files).toBe(3);
    expect(after.key).not.toBe(before.key);
    // The settings (esbuild version, options, entries) and the extra files are part of it too.
    expect((await bundleKey(work, { v: 2 }, ['serverless.yml'])).key).not.toBe(after.key);
    await write('serverless.yml', 'service: y');
    expect((await bundleKey(work, { v: 1 }, ['serverless.yml'])).key).not.toBe(after.key);
  });

  it('leaves build outputs beside the sources (dist/) out', async () => {
    await write('functions/a.ts', 'export const a = 1;');
    await write('lib/b.ts', 'export const b = 1;');
    const before = await bundleKey(work, {}, []);
    await write('lib/playground/dist/page.js', 'built');
    expect(await bundleKey(work, {}, [])).toEqual({ ...before, ms: expect.any(Number) });
    await write('lib/c.ts', 'export const c = 1;');
    expect((await bundleKey(work, {}, [])).key).not.toBe(before.key);
  });
});

describe('cached bundles', () => {
  it('builds once, then reuses the whole build', async () => {
    const cache = path.join(work, 'bundles');
    const first = fakeBuild('one');
    const built = await cachedBundles(cache, { build: first.build });
    expect(built).toMatchObject({ reused: false, dir: path.join(cache, built.key) });
    expect(first.calls).toHaveLength(1);
    expect(await readFile(path.join(built.dir, 'functions/handler.cjs'), 'utf8')).toBe('one');
    expect(JSON.parse(await readFile(path.join(built.dir, 'bundles.json'), 'utf8'))).toMatchObject({
      key: built.key,
      inputs: ['functions/handler.ts'],
    });
    const second = fakeBuild('two');
    const reused = await cachedBundles(cache, { build: second.build });
    expect(reused).toMatchObject({ reused: true, dir: built.dir, buildMs: 0 });
    expect(second.calls).toHaveLength(0);
    // A data folder outside the project reaches the project's packages (DuckDB) through a link.
    expect(existsSync(path.join(cache, 'node_modules/esbuild/package.json'))).toBe(true);
  });

  it('keeps nothing of a failed build, and drops the bundles of another key', async () => {
    const cache = path.join(work, 'bundles');
    await mkdir(path.join(cache, '0123456789abcdef/functions'), { recursive: true });
    const failing = async (dir: string) => {
      await mkdir(path.join(dir, 'functions'), { recursive: true });
      await writeFile(path.join(dir, 'functions/half.cjs'), '');
      throw new Error('does not compile');
    };
    await expect(cachedBundles(cache, { build: failing })).rejects.toThrow('does not compile');
    expect((await readdir(cache)).sort()).toEqual(['0123456789abcdef', 'node_modules']);
    const next = fakeBuild('whole');
    const built = await cachedBundles(cache, { build: next.build });
    expect(built.reused).toBe(false);
    expect((await readdir(cache)).sort()).toEqual([built.key, 'node_modules']);
  });

  it('never uses what a killed build left, and removes it at the next start', async () => {
    const cache = path.join(work, 'bundles');
    // A real process, killed with SIGKILL in the middle of writing its bundles.
    const script = `
      import { mkdir, writeFile } from 'node:fs/promises';
      import { cachedBundles } from ${JSON.stringify(pathToFileURL(cacheModule).href)};
      await cachedBundles(${JSON.stringify(cache)}, { build: async (dir) => {
        await mkdir(dir + '/functions', { recursive: true });
        await writeFile(dir + '/functions/half.cjs', 'half');
        setInterval(() => {}, 1000);
        await new Promise(() => {});
      } });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    const leftover = async () =>
      (await readdir(cache).catch(() => [] as string[])).filter((n) => n.startsWith('.building-'));
    await waitUntil(
      async () => {
        const [name] = await leftover();
        return name !== undefined && existsSync(path.join(cache, name, 'functions/half.cjs'));
      },
      20_000,
      'the build to be half written',
    );
    child.kill('SIGKILL');
    await exited;
    expect(await leftover()).toHaveLength(1);
    const next = fakeBuild('whole');
    const built = await cachedBundles(cache, { build: next.build });
    expect(built.reused).toBe(false);
    expect(next.calls).toHaveLength(1);
    expect(await readdir(path.join(built.dir, 'functions'))).toEqual(['handler.cjs']);
    expect(await leftover()).toEqual([]);
  });
});
