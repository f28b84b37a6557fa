// The AWS SDK's NodeVersionSupportWarning is silenced knowingly on Node 20, by the SDK's own
// switch, in every command-line entry point; other warnings still show.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const major = Number(process.versions.node.split('.')[0]);

/** Runs a module script in a fresh Node with the variable unset; returns what it wrote to stderr. */
function stderrOf(script: string): string {
  const env = { ...process.env };
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr;
}

const makeClient = `const { STSClient } = await import('@aws-sdk/client-sts'); new STSClient({ region: 'eu-west-1' });`;

describe('Node runtime policy', () => {
  it.runIf(major < 22)('the SDK warns on Node 20 without the policy module (the case we silence)', () => {
    expect(stderrOf(makeClient)).toContain('NodeVersionSupportWarning');
  });

  it('the policy module silences that warning and no other', () => {
    const stderr = stderrOf(
      `import './lib/cli/node-runtime.mjs'; ${makeClient} process.emitWarning('another warning');`,
    );
    expect(stderr).not.toContain('NodeVersionSupportWarning');
    expect(stderr).toContain('another warning');
  });

  it('leaves a value the user set alone', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import './lib/cli/node-runtime.mjs'; process.stdout.write(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED);`,
      ],
      {
        cwd: root,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false' },
        encoding: 'utf8',
      },
    );
    expect(run.stdout).toBe('false');
  });

  it('every command-line entry point imports it first', async () => {
    const entries = {
      'lib/cli/gdm.mjs': './node-runtime.mjs',
      'lib/cli/insights-admin.mjs': './node-runtime.mjs',
      'infra/local/start.mjs': '../../lib/cli/node-runtime.mjs',
      'infra/smoke/run.ts': '../../lib/cli/node-runtime.mjs',
      'infra/preflight/run.ts': '../../lib/cli/node-runtime.mjs',
    };
    for (const [file, specifier] of Object.entries(entries)) {
      const firstImport = (await readFile(path.join(root, file), 'utf8'))
        .split('\n')
        .find((line) => line.startsWith('import '));
      expect(firstImport, file).toBe(`import '${specifier}';`);
    }
  });
});
