// What `npm start` says before it starts anything: one clear line for a busy port or a missing Java.
// Neither needs a stack, so they run on their own, beside the long file that starts two stacks
// (npm-start.test.ts), instead of after it.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'infra/local/start.mjs');

describe('npm start refuses to start', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-checks-'));
    env = {
      ...(process.env as Record<string, string>),
      INSIGHTS_DATA_DIR: dataDir,
      INSIGHTS_HTTP_PORT: String(await freePort()),
      INSIGHTS_LAMBDA_PORT: String(await freePort()),
      INSIGHTS_DYNAMODB_PORT: String(await freePort()),
      INSIGHTS_MQTT_PORT: String(await freePort()),
    };
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says in one line that a port is busy', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(Number(env.INSIGHTS_MQTT_PORT), '127.0.0.1', r));
    try {
      const run = spawnSync(process.execPath, [script], { cwd: root, env, encoding: 'utf8', timeout: 30_000 });
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`port ${env.INSIGHTS_MQTT_PORT} \\(mqtt\\) is already in use.*INSIGHTS_MQTT_PORT`),
      );
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('says in one line that Java is missing', async () => {
    const bin = await mkdtemp(path.join(tmpdir(), 'no-java-'));
    await symlink(process.execPath, path.join(bin, 'node'));
    try {
      const run = spawnSync(process.execPath, [script], {
        cwd: root,
        env: { ...env, PATH: bin },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/Java was not found on PATH.*Java 17/);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
