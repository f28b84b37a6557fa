// The bundle folders served by the offline stack carry `{"type":"commonjs"}`, so that
// serverless-offline's per-invocation look-up of the nearest package.json ends there instead of
// reading the project's own (`"type": "module"`) every time.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markCommonJsBundleFolders } from '../../../infra/local/bundle-package-json.mjs';
import PrebuiltBundlesPlugin from '../../../infra/local/prebuilt-plugin.mjs';

let dir: string | undefined;
afterEach(async () => {
  delete process.env.INSIGHTS_PREBUILT_DIR;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A bundle folder: functions/query/table.cjs, functions/auth/jwks.cjs, and a folder without bundles. */
async function bundles(): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), 'bundle-pj-'));
  for (const [folder, file] of [
    ['functions/query', 'table.cjs'],
    ['functions/auth', 'jwks.cjs'],
    ['functions/assets', 'notes.txt'],
  ] as const) {
    mkdirSync(path.join(dir, folder), { recursive: true });
    writeFileSync(path.join(dir, folder, file), '');
  }
  return dir;
}

const typeIn = (folder: string): unknown =>
  (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { type?: unknown }).type;

describe('markCommonJsBundleFolders', () => {
  it('marks every folder holding a .cjs bundle as commonjs, and no other', async () => {
    // Prepare
    const root = await bundles();
    // Act
    const marked = markCommonJsBundleFolders(path.join(root, 'functions'));
    // Assess
    expect(marked.map((m) => path.relative(root, m)).sort()).toEqual(['functions/auth', 'functions/query']);
    expect(typeIn(path.join(root, 'functions/query'))).toBe('commonjs');
    expect(typeIn(path.join(root, 'functions/auth'))).toBe('commonjs');
    expect(existsSync(path.join(root, 'functions/assets/package.json'))).toBe(false);
    expect(existsSync(path.join(root, 'functions/package.json'))).toBe(false);
  });

  it('is what the prebuilt plugin does on offline start, and only then', async () => {
    // Prepare
    const root = await bundles();
    process.env.INSIGHTS_PREBUILT_DIR = root;
    const serverless = (commands: string[]) => ({
      processedInput: { commands },
      service: { functions: {}, custom: {} },
    });
    // Act
    new PrebuiltBundlesPlugin(serverless(['package'])).hooks.initialize();
    const afterPackage = existsSync(path.join(root, 'functions/query/package.json'));
    new PrebuiltBundlesPlugin(serverless(['offline', 'start'])).hooks.initialize();
    // Assess
    expect(afterPackage).toBe(false);
    expect(typeIn(path.join(root, 'functions/query'))).toBe('commonjs');
  });
});
