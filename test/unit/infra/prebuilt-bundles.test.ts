// The bundles a test run builds once must be what serverless-esbuild would build for each stack:
// the same esbuild options from serverless.yml and every function's entry; and the plugin that
// serves them must act only on `offline start` with INSIGHTS_PREBUILT_DIR set.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import PrebuiltBundlesPlugin from '../../../infra/local/prebuilt-plugin.mjs';
import { esbuildOptions, functionEntries } from '../../support/prebuilt-bundles';

const root = path.resolve(import.meta.dirname, '../../..');
type Service = Parameters<typeof esbuildOptions>[0];
const service = (): Service => parse(readFileSync(path.join(root, 'serverless.yml'), 'utf8')) as Service;

describe('prebuilt bundle options', () => {
  it("passes serverless.yml's esbuild options on as serverless-esbuild does", () => {
    const options = esbuildOptions(service());
    expect(options).toMatchObject({
      bundle: true,
      minify: true,
      keepNames: true,
      sourcemap: false,
      target: 'node20',
      platform: 'node',
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
    });
    expect(options.external).toContain('@duckdb/node-api');
    for (const key of ['exclude', 'outputWorkFolder', 'outputFileExtension']) expect(options).not.toHaveProperty(key);
  });

  it('refuses an option that holds a serverless variable it cannot resolve', () => {
    const s = service();
    s.custom.esbuild = { ...s.custom.esbuild, target: '${env:TARGET, "node20"}' };
    expect(() => esbuildOptions(s)).toThrow(/custom\.esbuild\.target uses a variable/);
  });

  it("lists one existing source file for every function's handler", () => {
    const s = service();
    const handlers = s.functions.flatMap((ref) => {
      const file = /\$\{file\((.+)\)\}/.exec(ref)![1]!;
      const fns = parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, { handler: string }>;
      return Object.values(fns).map((f) => f.handler.replace(/\.[^.]+$/, ''));
    });
    const entries = functionEntries(s);
    expect(entries.map((e) => e.replace(/\.ts$/, '')).sort()).toEqual([...new Set(handlers)].sort());
    expect(entries).toContain('functions/query/table.ts');
  });
});

describe('prebuilt bundles plugin', () => {
  let dir: string | undefined;
  afterEach(async () => {
    delete process.env.INSIGHTS_PREBUILT_DIR;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const fakeServerless = (commands: string[]) => ({
    processedInput: { commands },
    service: {
      functions: { a: { handler: 'functions/a.handler' }, b: { handler: 'functions/b.handler' } } as Record<
        string,
        Record<string, unknown>
      >,
      custom: { esbuild: { minify: true } } as Record<string, Record<string, unknown>>,
    },
  });
  const initialize = (serverless: ReturnType<typeof fakeServerless>) =>
    new PrebuiltBundlesPlugin(serverless).hooks.initialize();

  it('on offline start with the variable set: serverless-esbuild builds and watches nothing, offline serves the folder', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prebuilt-'));
    await mkdir(path.join(dir, 'functions'));
    process.env.INSIGHTS_PREBUILT_DIR = dir;
    const serverless = fakeServerless(['offline', 'start']);
    initialize(serverless);
    expect(Object.values(serverless.service.functions).map((f) => f.skipEsbuild)).toEqual([true, true]);
    expect(serverless.service.custom.esbuild).toEqual({ minify: true, watch: { pattern: [] } });
    expect(serverless.service.custom['serverless-offline']).toEqual({ location: dir });
  });

  it('changes nothing for another command (package) or without the variable', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prebuilt-'));
    await mkdir(path.join(dir, 'functions'));
    process.env.INSIGHTS_PREBUILT_DIR = dir;
    const packaging = fakeServerless(['package']);
    initialize(packaging);
    expect(packaging.service).toEqual(fakeServerless(['package']).service);
    delete process.env.INSIGHTS_PREBUILT_DIR;
    const starting = fakeServerless(['offline', 'start']);
    initialize(starting);
    expect(starting.service).toEqual(fakeServerless(['offline', 'start']).service);
  });

  it('refuses a folder without bundles', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prebuilt-'));
    process.env.INSIGHTS_PREBUILT_DIR = dir;
    expect(() => initialize(fakeServerless(['offline', 'start']))).toThrow(/holds no functions\/ folder/);
  });
});
