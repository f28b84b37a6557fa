import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module without type declarations (the bins' start-up)
import { bundleIsFresh } from '../../../lib/cli/start.mjs';

const root = path.resolve(import.meta.dirname, '../../..');

const made: string[] = [];

function built(): { dir: string; base: string; source: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'cli-start-'));
  made.push(base);
  const dir = path.join(base, 'dist');
  mkdirSync(path.join(base, 'lib'), { recursive: true });
  const source = path.join(base, 'lib/main.ts');
  writeFileSync(source, 'export {};\n');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'tool.mjs'), '');
  writeFileSync(path.join(dir, 'tool.inputs.json'), JSON.stringify({ inputs: { 'lib/main.ts': Date.now() + 1000 } }));
  return { dir, base, source };
}

describe('the bins start-up (lib/cli/start.mjs)', () => {
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('uses a bundle while its sources are unchanged, and not once one is newer, missing, or the list is broken', () => {
    const { dir, base, source } = built();
    expect(bundleIsFresh('tool', dir, base)).toBe(true);
    const later = new Date(Date.now() + 60_000);
    utimesSync(source, later, later);
    expect(bundleIsFresh('tool', dir, base)).toBe(false);
    expect(bundleIsFresh('other', dir, base)).toBe(false);
    writeFileSync(path.join(dir, 'tool.inputs.json'), '{');
    expect(bundleIsFresh('tool', dir, base)).toBe(false);
  });

  it('answers --version with the package version, and runs the same commands from the sources as from the bundle', () => {
    const version = spawnSync(process.execPath, [path.join(root, 'lib/cli/gdm.mjs'), '--version'], {
      encoding: 'utf8',
    });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    const fromSources = spawnSync(process.execPath, [path.join(root, 'lib/cli/gdm.mjs'), '--help'], {
      encoding: 'utf8',
      env: { ...process.env, INSIGHTS_CLI_FROM_SOURCES: '1' },
    });
    const fromBundle = spawnSync(process.execPath, [path.join(root, 'lib/cli/gdm.mjs'), '--help'], {
      encoding: 'utf8',
    });
    expect(fromSources.status).toBe(0);
    expect(fromBundle.stdout).toBe(fromSources.stdout);
  }, 30_000);
});
