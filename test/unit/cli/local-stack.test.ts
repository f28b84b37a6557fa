import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminConfig } from '../../../lib/core/config';
import { explainUnreachable, localStack } from '../../../lib/cli/local-stack';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const folder = (stack?: object): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'local-stack-'));
  made.push(dir);
  if (stack) writeFileSync(path.join(dir, 'stack.json'), JSON.stringify(stack));
  return dir;
};
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid ?? 0;
const running = { http: 4100, lambda: 4102, dynamodb: 9100, mqtt: 2983 };

describe('localStack', () => {
  it('uses the default ports without variables or a running stack', () => {
    const stack = localStack(adminConfig({ INSIGHTS_DATA_DIR: folder() }));
    expect(stack.ports).toEqual({ http: 3000, lambda: 3002, dynamodb: 8000, mqtt: 1883 });
    expect(stack.origin.dynamodb).toBe('the default');
  });

  it("follows the running stack's own description of itself", () => {
    const dir = folder({ pid: process.pid, ports: running });
    const stack = localStack(adminConfig({ INSIGHTS_DATA_DIR: dir }));
    expect(stack.ports).toEqual(running);
    expect(stack.origin.mqtt).toBe(path.join(dir, 'stack.json'));
  });

  it('lets a variable win over the running stack, port by port', () => {
    const stack = localStack(
      adminConfig({ INSIGHTS_DATA_DIR: folder({ pid: process.pid, ports: running }), INSIGHTS_DYNAMODB_PORT: '8500' }),
    );
    expect(stack.ports).toEqual({ ...running, dynamodb: 8500 });
    expect(stack.origin.dynamodb).toBe('INSIGHTS_DYNAMODB_PORT');
  });

  it('ignores the description left behind by a stack whose process is gone, and a broken file', () => {
    expect(localStack(adminConfig({ INSIGHTS_DATA_DIR: folder({ pid: deadPid(), ports: running }) })).ports.http).toBe(
      3000,
    );
    const broken = folder();
    writeFileSync(path.join(broken, 'stack.json'), '{"pid": ');
    expect(localStack(adminConfig({ INSIGHTS_DATA_DIR: broken })).ports.http).toBe(3000);
  });
});

describe('explainUnreachable', () => {
  const stack = localStack(adminConfig({ INSIGHTS_DATA_DIR: folder({ pid: process.pid, ports: running }) }));

  it("names the address, the stack's part, where the port came from and what to do, for a wrapped refusal", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9100'), { code: 'ECONNREFUSED' });
    const hint = explainUnreachable(new Error('fetch failed', { cause: refused }), stack);
    expect(hint).toMatch(
      /^nothing answers on 127\.0\.0\.1:9100 \(DynamoDB Local of the local stack; port 9100 from .*stack\.json\)\./,
    );
    expect(hint).toContain('INSIGHTS_DYNAMODB_PORT');
    expect(hint).toContain('npm start');
  });

  it("recognises mqtt's message and an aggregate of several attempts", () => {
    expect(
      explainUnreachable(
        new Error(
          'cannot connect to mqtt://127.0.0.1:2983 as x: no connection within 10 s (last error: connect ECONNREFUSED 127.0.0.1:2983)',
        ),
        stack,
      ),
    ).toMatch(/the MQTT broker/);
    const aggregate = new AggregateError(
      [new Error('connect ECONNREFUSED ::1:4102'), new Error('connect ECONNREFUSED 127.0.0.1:4102')],
      '',
    );
    expect(explainUnreachable(aggregate, stack)).toMatch(/the Lambda endpoint/);
  });

  it('says to check the address for a port that is not the stack’s, and nothing for other errors', () => {
    expect(explainUnreachable(new Error('connect ECONNREFUSED 10.0.0.1:443'), stack)).toBe(
      'nothing answers on 10.0.0.1:443: check the address you gave.',
    );
    expect(explainUnreachable(new Error('ResourceNotFoundException: table not found'), stack)).toBeUndefined();
  });
});
