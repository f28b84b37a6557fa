// `insights-admin dead-letter list|show|replay` on a local dead-letter folder. Replays go to a
// small HTTP server on a free port that speaks the Lambda invoke protocol of serverless-offline
// (the real stack is exercised in test/integration/dead-letter-replay.test.ts); it answers by the
// `outcome` field of each payload and records the events it receives.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fileDeadLetter } from '../../../../lib/adapters/files/dead-letter';
import { fileDeadLetterStore } from '../../../../lib/adapters/files/dead-letter-store';
import { LOCAL_INGEST_FUNCTION, localIngestInvoker } from '../../../../lib/adapters/lambda/local-invoker';
import { listAll, replayEntries } from '../../../../lib/ingest/replay';
import type { DeadLetterEntry } from '../../../../lib/ingest/ports';
import { runAdmin } from '../../../../lib/cli/admin/main';
import { freePort } from '../../../support/ports';

let dir: string;
let port: number;
let server: Server;
const received: Array<{ payload: string; agentId?: string; clientId?: string }> = [];

beforeAll(async () => {
  port = await freePort();
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (d: Buffer) => (body += d.toString()));
    request.on('end', () => {
      if (request.url !== `/2015-03-31/functions/${LOCAL_INGEST_FUNCTION}/invocations`)
        return void response.writeHead(404).end();
      const event = JSON.parse(body) as { payload: string; agentId?: string };
      received.push(event);
      const { outcome, messageId } = JSON.parse(Buffer.from(event.payload, 'base64').toString()) as {
        outcome: string;
        messageId: string;
      };
      if (outcome === 'fail')
        return void response
          .writeHead(200, { 'x-amz-function-error': 'Unhandled' })
          .end(JSON.stringify({ errorMessage: 'DynamoDB is down' }));
      const answer =
        outcome === 'dead'
          ? { status: 'dead-lettered', reason: 'INVALID_MESSAGE' }
          : { status: outcome, messageId, rows: 1, rejected: 0 };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dead-letter-cli-'));
  received.length = 0;
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const entry = (
  i: number,
  reason: DeadLetterEntry['reason'],
  outcome: string,
  source: DeadLetterEntry['source'],
): DeadLetterEntry => ({
  id: `id-${i}`,
  reason,
  message: `refused ${i}:\n  second line`,
  details: [],
  time: `2026-01-02T00:00:0${i}.000Z`,
  payloadBase64: Buffer.from(JSON.stringify({ outcome, messageId: `m-${i}` })).toString('base64'),
  source,
});

async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAdmin([...args, '--dead-letter-dir', dir], {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

const ids = async (): Promise<string[]> =>
  (JSON.parse((await admin('dead-letter', 'list', '--json')).out) as { entries: Array<{ id: string }> }).entries.map(
    (e) => e.id,
  );

async function seed(...entries: DeadLetterEntry[]): Promise<void> {
  await fileDeadLetter(dir).put(entries);
}

describe('dead-letter list and show', () => {
  it('lists time, reason, agent, message id and a one-line message, with totals per reason', async () => {
    await seed(
      entry(1, 'UNKNOWN_AGENT', 'stored', { topic: 'gdm/agent-7/messages', clientId: 'agent-7' }),
      entry(2, 'NOT_JSON', 'dead', { agentId: 'a1' }),
      entry(3, 'UNKNOWN_AGENT', 'stored', { agentId: 'a2' }),
    );
    const { code, out } = await admin('dead-letter', 'list');
    expect(code).toBe(0);
    const [header, first] = out.split('\n');
    expect(header?.split(/\s+/)).toEqual(['time', 'reason', 'agent', 'messageId', 'message', 'id']);
    expect(first).toMatch(
      /^2026-01-02T00:00:01\.000Z\s+UNKNOWN_AGENT\s+agent-7\s+m-1\s+refused 1: second line\s+date=2026-01-02\//,
    );
    expect(out).toContain(`3 entries in ${dir}: NOT_JSON 1, UNKNOWN_AGENT 2`);
    const json = JSON.parse((await admin('dead-letter', 'list', '--json', '--reason', 'not_json')).out) as {
      entries: unknown[];
      totals: unknown;
    };
    expect(json.entries).toHaveLength(1);
    expect(json.totals).toEqual({ NOT_JSON: 1 });
  });

  it('shows one entry with its payload decoded', async () => {
    await seed(entry(1, 'NOT_JSON', 'dead', { agentId: 'a1' }));
    const [id] = await ids();
    const { code, out } = await admin('dead-letter', 'show', id!);
    expect(code).toBe(0);
    expect(out).toContain(`id       ${id}\n`);
    expect(out).toContain('source   agentId=a1\n');
    expect(out).toContain('payload (json)\n{\n  "outcome": "dead",\n  "messageId": "m-1"\n}\n');
  });

  it('answers usage errors with exit 2 and a wrong id with exit 1', async () => {
    expect((await admin('dead-letter', 'list', '--from', '2026-13-01')).code).toBe(2);
    expect((await admin('dead-letter', 'list', '--from', '2026-01-03', '--to', '2026-01-02')).code).toBe(2);
    expect((await admin('dead-letter', 'show')).code).toBe(2);
    const wrong = await admin('dead-letter', 'show', 'date=2026-01-02/nothing.json');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/no dead-letter entry "date=2026-01-02\/nothing.json"/);
  });
});

describe('dead-letter replay', () => {
  it('sends each selected message as the rule event and marks it replayed with the outcome', async () => {
    await seed(
      entry(1, 'UNKNOWN_AGENT', 'stored', { topic: 'gdm/agent-7/messages', clientId: 'agent-7' }),
      entry(2, 'NOT_JSON', 'dead', { agentId: 'a1' }),
      entry(3, 'UNKNOWN_AGENT', 'duplicate', { agentId: 'a2' }),
    );
    const { code, out } = await admin(
      'dead-letter',
      'replay',
      '--reason',
      'UNKNOWN_AGENT',
      '--lambda-port',
      String(port),
    );
    expect(code).toBe(0);
    expect(received.map((e) => [e.agentId, e.clientId])).toEqual(
      expect.arrayContaining([
        ['agent-7', 'agent-7'],
        ['a2', undefined],
      ]),
    );
    expect(out).toContain('replayed 2 of 2 entries');
    expect(out).toMatch(/UNKNOWN_AGENT -> stored \(m-1\)/);
    expect(out).toMatch(/stored 1, duplicate 1|duplicate 1, stored 1/);
    const left = JSON.parse((await admin('dead-letter', 'list', '--json')).out) as {
      entries: Array<{ reason: string }>;
    };
    expect(left.entries.map((e) => e.reason)).toEqual(['NOT_JSON']);
    const replayed = await readdir(path.join(dir, 'replayed', 'date=2026-01-02'));
    const records = await Promise.all(
      replayed.map(
        async (f) =>
          (
            JSON.parse(await readFile(path.join(dir, 'replayed', 'date=2026-01-02', f), 'utf8')) as {
              replay: { status: string };
            }
          ).replay.status,
      ),
    );
    expect(records.sort()).toEqual(['duplicate', 'stored']);
  });

  it('replays named entries; a second run finds them gone', async () => {
    await seed(entry(1, 'NOT_JSON', 'dead', { agentId: 'a1' }), entry(2, 'NOT_JSON', 'stored', { agentId: 'a1' }));
    const [first] = await ids();
    const once = await admin('dead-letter', 'replay', first!, '--lambda-port', String(port));
    expect(once.code).toBe(0);
    expect(once.out).toContain('NOT_JSON -> dead-lettered again: INVALID_MESSAGE');
    const twice = await admin('dead-letter', 'replay', first!, '--lambda-port', String(port));
    expect(twice.code).toBe(1);
    expect(received).toHaveLength(1);
    expect(await ids()).toHaveLength(1);
  });

  it('stops at the first failing invocation and leaves the entries it did not replay', async () => {
    await seed(
      entry(1, 'NOT_JSON', 'stored', { agentId: 'a1' }),
      entry(2, 'NOT_JSON', 'fail', { agentId: 'a1' }),
      entry(3, 'NOT_JSON', 'stored', { agentId: 'a1' }),
      entry(4, 'NOT_JSON', 'stored', { agentId: 'a1' }),
      entry(5, 'NOT_JSON', 'stored', { agentId: 'a1' }),
      entry(6, 'NOT_JSON', 'stored', { agentId: 'a1' }),
    );
    const before = await ids();
    const { code, out } = await admin('dead-letter', 'replay', '--all', '--lambda-port', String(port));
    expect(code).toBe(1);
    expect(out).toContain(
      `stopped at ${before[1]}: function ${LOCAL_INGEST_FUNCTION} failed (HTTP 200): {"errorMessage":"DynamoDB is down"}`,
    );
    const left = await ids();
    const replayed = await readdir(path.join(dir, 'replayed', 'date=2026-01-02'));
    expect(left).toContain(before[1]);
    // Up to four run at once (which ones finish first varies): nothing is lost or counted twice.
    expect(left.length + replayed.length).toBe(6);
    expect(out).toContain(`replayed ${replayed.length} of 6 entries`);
  });

  it('refuses with one line when the local stack is not running, and changes nothing', async () => {
    await seed(entry(1, 'NOT_JSON', 'stored', { agentId: 'a1' }));
    const closed = await freePort();
    const { code, out, err } = await admin('dead-letter', 'replay', '--all', '--lambda-port', String(closed));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(
      `insights-admin dead-letter replay: the local stack is not running: nothing answers on 127.0.0.1:${closed} (start it with npm start, or give its --lambda-port)\n`,
    );
    expect(await ids()).toHaveLength(1);
  });

  it('with --dry-run lists what it would replay and invokes nothing', async () => {
    await seed(entry(1, 'NOT_JSON', 'stored', { agentId: 'a1' }));
    const { code, out } = await admin('dead-letter', 'replay', '--all', '--dry-run', '--lambda-port', String(port));
    expect(code).toBe(0);
    expect(out).toMatch(/^would replay 1 entry from /);
    expect(received).toHaveLength(0);
    expect(await ids()).toHaveLength(1);
  });

  it('needs a selection, and not two kinds at once', async () => {
    expect((await admin('dead-letter', 'replay')).code).toBe(2);
    expect((await admin('dead-letter', 'replay', 'date=2026-01-02/x.json', '--all')).code).toBe(2);
    const help = await admin('dead-letter', 'replay', '--help');
    expect(help.out).toContain('--dry-run');
  });
});

describe('replayEntries', () => {
  it('one at a time: replays in order and stops at the first failure, the rest untouched', async () => {
    await seed(
      entry(1, 'NOT_JSON', 'stored', { agentId: 'a1' }),
      entry(2, 'NOT_JSON', 'fail', { agentId: 'a1' }),
      entry(3, 'NOT_JSON', 'stored', { agentId: 'a1' }),
    );
    const store = fileDeadLetterStore(dir);
    const { items } = await listAll(store, {});
    const progress: number[] = [];
    const report = await replayEntries(
      items,
      { store, invoker: localIngestInvoker(port) },
      { concurrency: 1, now: () => new Date('2026-02-01T00:00:00Z'), onProgress: (done) => progress.push(done) },
    );
    expect(report.items).toEqual([
      { id: items[0]!.id, reason: 'NOT_JSON', outcome: { status: 'stored', messageId: 'm-1' } },
    ]);
    expect(report.stopped).toEqual({ id: items[1]!.id, error: expect.stringContaining('DynamoDB is down') });
    expect(progress).toEqual([1, 2]);
    expect((await listAll(store, {})).items.map((i) => i.id)).toEqual([items[1]!.id, items[2]!.id]);
    expect(received).toHaveLength(2);
  });
});
