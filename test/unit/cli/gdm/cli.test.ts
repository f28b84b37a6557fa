// The `gdm` command in-process through runGdm with recorded streams (the CLI takes its io
// injected), and once as the real bin entry (node lib/cli/gdm.mjs) in a child process.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runGdm } from '../../../../lib/cli/gdm/main';
import { validateMessage } from '../../../../lib/gdm';
import { REPO_ROOT } from '../../gdm/corpus';
import { AGENT_ID, BASE, EDGE, TEMPERATURE_NAME_ID } from '../../gdm/messages';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function gdm(args: readonly string[], stdin?: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runGdm(args, {
    stdin: Readable.from(stdin === undefined ? [] : [stdin]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** The installed command: node, the bin file, tsx, real streams and the process exit status. */
function gdmProcess(args: readonly string[], stdin: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'lib/cli/gdm.mjs'), ...args],
      { cwd: REPO_ROOT },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'gdm-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
}

const invalidEdge = { ...EDGE, messageId: 'nope' };

describe('gdm validate', () => {
  it('exits 0 for a valid single message (pretty-printed file)', async () => {
    // Prepare
    const input = file('one.json', JSON.stringify(EDGE, null, 2));
    // Act
    const run = await gdm(['validate', input]);
    // Assess
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 valid, 0 invalid');
  });

  it('exits 1 and prints one JSON object per message with --json, for an array', async () => {
    // Prepare
    const input = file('array.json', JSON.stringify([EDGE, invalidEdge]));
    // Act
    const run = await gdm(['validate', '--json', input]);
    // Assess
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      { index: 0, valid: true, errors: [], warnings: [] },
      {
        index: 1,
        valid: false,
        errors: [
          {
            path: '/messageId',
            code: 'GDM_MESSAGE_ID_FORMAT',
            message: expect.stringContaining('lowercase hexadecimal UUID'),
          },
        ],
        warnings: [],
      },
    ]);
  });

  it('reads NDJSON from stdin, reporting a line that is not JSON', async () => {
    // Prepare
    const ndjson = `${JSON.stringify(BASE)}\n\n${JSON.stringify({ messageId: 'x' })}\n{broken\n`;
    // Act
    const run = await gdm(['validate', '--stage', 'base', '--json', '-'], ndjson);
    // Assess
    expect(run.code).toBe(1);
    const reports = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { index: number; valid: boolean; errors: { code: string }[] });
    expect(reports.map((r) => [r.index, r.valid, r.errors.map((e) => e.code)])).toEqual([
      [0, true, []],
      [1, false, ['GDM_MESSAGE_ID_FORMAT']],
      [2, false, ['GDM_INVALID_JSON']],
    ]);
  });

  it('prints errors and warnings for people without --json', async () => {
    // Prepare
    const alarm = { ...EDGE, messageType: 'alarm', data: [{ name: 'a', values: [{ value: 1 }] }] };
    const input = file('people.ndjson', `${JSON.stringify(alarm)}\n${JSON.stringify({ ...EDGE, deviceId: 'a b' })}\n`);
    // Act
    const run = await gdm(['validate', input]);
    // Assess
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('message 0: valid, 0 error(s), 3 warning(s)');
    expect(run.stdout).toMatch(/error {3}\/deviceId {2}GDM_DEVICE_ID_FORMAT {2}deviceId must be/);
    expect(run.stdout).toContain('2 message(s) checked at stage edge: 1 valid, 1 invalid, 1 with warnings');
  });

  it.each([
    [['validate', '--stage', 'gateway', 'x.json'], '--stage must be one of base, edge, cloud'],
    [['validate'], 'expected exactly one input'],
    [['validate', '--colour', 'x.json'], "Unknown option '--colour'"],
    [['validate', path.join(dir, 'missing.json')], 'cannot read'],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    // Act
    const run = await gdm(args);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it.each([['validate'], ['enrich'], ['publish']])('%s --help prints usage and exits 0', async (command) => {
    // Act
    const run = await gdm([command, '--help']);
    // Assess
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: gdm ${command}`);
  });
});

describe('gdm enrich', () => {
  it('enriches a one-line base message to edge, keeping it on one line', async () => {
    // Prepare
    const input = file('base.json', JSON.stringify(BASE));
    // Act
    const run = await gdm(['enrich', '--to', 'edge', '--device-id', 'Press-7', '--now', '2024-05-01T10:00:01Z', input]);
    // Assess
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toEqual({ ...EDGE, agentTimestamp: '2024-05-01T10:00:01.000Z' });
  });

  it('enriches an array of edge and base messages to cloud, printing an array', async () => {
    // Prepare
    const input = file('mixed.json', JSON.stringify([EDGE, { ...BASE, deviceId: 'Press-7' }], null, 2));
    // Act
    const run = await gdm([
      'enrich',
      '--to',
      'cloud',
      '--agent-id',
      AGENT_ID,
      '--ingestion-id',
      'hub',
      '--now',
      '2024-05-01T10:00:02Z',
      input,
    ]);
    // Assess
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as unknown[];
    expect(out).toHaveLength(2);
    for (const message of out) {
      const result = validateMessage(message, 'cloud');
      expect(result.errors).toEqual([]);
      expect(result.message?.data?.[0]?.nameId).toBe(TEMPERATURE_NAME_ID);
      expect(result.message?.ingestionTimestamp).toBe('2024-05-01T10:00:02.000Z');
    }
  });

  it('keeps NDJSON as NDJSON', async () => {
    // Prepare
    const ndjson = [BASE, BASE].map((m) => JSON.stringify(m)).join('\n');
    // Act
    const run = await gdm(['enrich', '--to', 'edge', '--device-id', 'd1', '-'], ndjson);
    // Assess
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(validateMessage(JSON.parse(line), 'edge').ok).toBe(true);
  });

  it('prints nothing and exits 1 when a message cannot be enriched', async () => {
    // Act
    const run = await gdm(
      ['enrich', '--to', 'edge', '-'],
      `${JSON.stringify({ ...BASE, deviceId: 'd' })}\n${JSON.stringify(BASE)}\n`,
    );
    // Assess
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('message 1: /deviceId  GDM_REQUIRED');
  });

  it('exits 2 without --agent-id for --to cloud', async () => {
    // Act
    const run = await gdm(['enrich', '--to', 'cloud', '-'], JSON.stringify(EDGE));
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--agent-id is required with --to cloud');
  });
});

describe('the gdm bin entry', () => {
  it('runs as a process: reads stdin, writes stdout and exits with the status', async () => {
    // Prepare
    const ndjson = `${JSON.stringify(EDGE)}\n${JSON.stringify(invalidEdge)}\n`;
    // Act
    const run = await gdmProcess(['validate', '--json', '-'], ndjson);
    // Assess
    expect(run.code).toBe(1);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { valid: boolean }).valid),
    ).toEqual([true, false]);
    expect(run.stderr).toBe('');
  }, 30_000);
});
