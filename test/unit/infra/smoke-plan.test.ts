// The smoke script's arguments and calls (it cannot run without a deployed stage).
import { describe, expect, it } from 'vitest';
import { parseSmokeArgs, publishArgs, publishedRowsQuery, smokeRequests } from '../../../infra/smoke/plan';

const env = { SMOKE_CLIENT_SECRET: 'sec', SMOKE_MAINTENANCE_TOKEN: 'mnt_a_b' };
const base = ['--stage', 'dev', '--client-id', 'c1', '--plant', 'p1'];
const AGENT = '0b8a1f4e-6a52-4a0d-9d7e-3c2b1a0f9e8d';

describe('smoke arguments', () => {
  it('takes the stage, client and plant from flags and the secrets from the environment', () => {
    expect(parseSmokeArgs(base, env)).toEqual({
      stage: 'dev',
      clientId: 'c1',
      clientSecret: 'sec',
      plant: 'p1',
      maintenanceToken: 'mnt_a_b',
      waitSeconds: 120,
    });
  });

  it('publishes only with all four of agent, certificate, key and CA', () => {
    const all = [...base, '--agent-id', AGENT, '--cert', 'a.crt', '--key', 'a.key', '--ca', 'ca.pem'];
    expect(parseSmokeArgs(all, env)?.publish).toEqual({ agentId: AGENT, cert: 'a.crt', key: 'a.key', ca: 'ca.pem' });
    expect(() => parseSmokeArgs([...base, '--agent-id', AGENT, '--cert', 'a.crt'], env)).toThrow(
      /all of --agent-id, --cert, --key and --ca/,
    );
  });

  it('refuses what is missing or malformed, naming it', () => {
    expect(() => parseSmokeArgs(['--client-id', 'c1', '--plant', 'p1'], env)).toThrow(/--stage is required/);
    expect(() => parseSmokeArgs(base, { SMOKE_MAINTENANCE_TOKEN: 'x' })).toThrow(/SMOKE_CLIENT_SECRET/);
    expect(() => parseSmokeArgs(base, { SMOKE_CLIENT_SECRET: 'x' })).toThrow(/SMOKE_MAINTENANCE_TOKEN/);
    expect(() => parseSmokeArgs([...base, '--wait', 'soon'], env)).toThrow(/--wait/);
    expect(() => parseSmokeArgs(['--stage', 'a b', '--client-id', 'c', '--plant', 'p'], env)).toThrow(/--stage/);
    expect(() => parseSmokeArgs([...base, '--client-secret', 'x'], env)).toThrow(/client-secret/);
    expect(parseSmokeArgs(['--help'], {})).toBeUndefined();
  });
});

describe('smoke calls', () => {
  const window = { startTime: '2026-03-01T00:00:00.000Z', endTime: '2026-03-02T00:00:00.000Z' };

  it('calls every maintenance route, writing nothing unless a task is given', () => {
    const requests = smokeRequests({ plant: 'p1' }, window);
    const routes = requests
      .filter((r) => r.path.startsWith('/maintenance/v1/plants/'))
      .map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(new Set(routes)).toEqual(
      new Set([
        'GET /maintenance/v1/plants/p1/jobs-done',
        'GET /maintenance/v1/plants/p1/jobs-planned',
        'GET /maintenance/v1/plants/p1/assets',
        'GET /maintenance/v1/plants/p1/tasks',
        'POST /maintenance/v1/plants/p1/tasks',
        'PUT /maintenance/v1/plants/p1/parts/smoke-check/stock-level',
      ]),
    );
    expect(
      requests.filter((r) => r.method !== 'GET' && r.path.includes('/maintenance/')).every((r) => r.expect === 400),
    ).toBe(true);
    expect(
      smokeRequests({ plant: 'p1' }, window, { taskTitle: 't' }).find((r) => r.name === 'create task'),
    ).toMatchObject({ body: { taskTitle: 't' }, expect: 200 });
  });

  it('checks the query API with and without a token', () => {
    const query = smokeRequests({ plant: 'p1' }, window).filter((r) => r.path === '/insights/v1/telemetry/query/table');
    expect(query.map((r) => [r.auth, r.expect])).toEqual([
      ['none', 401],
      ['query', 200],
    ]);
  });

  it('publishes one generated state message through IoT Core and looks for it by agent', () => {
    expect(
      publishArgs(
        { agentId: AGENT, cert: 'a.crt', key: 'a.key', ca: 'ca.pem' },
        'abc-ats.iot.eu-west-1.amazonaws.com',
        'p1',
      ),
    ).toEqual([
      'publish',
      '--agent-id',
      AGENT,
      '--endpoint',
      'abc-ats.iot.eu-west-1.amazonaws.com',
      '--cert',
      'a.crt',
      '--key',
      'a.key',
      '--ca',
      'ca.pem',
      '--generate',
      '--types',
      'state',
      '--plant-id',
      'p1',
      '--count',
      '1',
    ]);
    expect(publishedRowsQuery(AGENT, new Date('2026-03-01T10:00:00Z'))).toBe(
      `States | where AgentId == '${AGENT}' and Timestamp >= datetime(2026-03-01T10:00:00.000Z) | count`,
    );
    expect(() => publishedRowsQuery("x' or 1 == 1", new Date())).toThrow(/UUID/);
  });
});
