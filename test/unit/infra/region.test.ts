// The admin CLI and the smoke script find their region as the AWS CLI does: --region, AWS_REGION,
// AWS_DEFAULT_REGION, then the profile's region (the SDK's chain, which reads AWS_PROFILE's config).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRegion } from '../../../lib/adapters/aws-admin/stage';
import { awsRegionVariables } from '../../../lib/core/config';
import { parseSmokeArgs } from '../../../infra/smoke/plan';

const noProfile = () => Promise.reject(new Error('Region is missing'));

describe('region resolution', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('takes the flag first, then AWS_REGION, then AWS_DEFAULT_REGION, then the profile', async () => {
    const profile = () => Promise.resolve('ap-southeast-2');
    expect(
      await resolveRegion('us-east-1', { AWS_REGION: 'eu-central-1', AWS_DEFAULT_REGION: 'eu-north-1' }, profile),
    ).toBe('us-east-1');
    expect(
      await resolveRegion(undefined, { AWS_REGION: 'eu-central-1', AWS_DEFAULT_REGION: 'eu-north-1' }, profile),
    ).toBe('eu-central-1');
    expect(await resolveRegion(undefined, { AWS_DEFAULT_REGION: 'eu-north-1' }, profile)).toBe('eu-north-1');
    expect(await resolveRegion(undefined, {}, profile)).toBe('ap-southeast-2');
  });

  it('never falls back to a fixed region: without one it says where to give it', async () => {
    await expect(resolveRegion(undefined, {}, noProfile)).rejects.toThrow(
      /no AWS region: give --region NAME, set AWS_REGION \(or AWS_DEFAULT_REGION\)/,
    );
  });

  it("reads AWS_PROFILE's region from the shared config file through the SDK", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'region-'));
    try {
      const config = path.join(dir, 'config');
      await writeFile(config, '[default]\nregion = us-west-2\n\n[profile ops]\nregion = sa-east-1\n');
      vi.stubEnv('AWS_CONFIG_FILE', config);
      vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', path.join(dir, 'credentials'));
      vi.stubEnv('AWS_REGION', undefined);
      vi.stubEnv('AWS_PROFILE', 'ops');
      expect(await resolveRegion(undefined, {})).toBe('sa-east-1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads only non-empty region variables', () => {
    expect(awsRegionVariables({ AWS_REGION: '', AWS_DEFAULT_REGION: 'eu-west-3', OTHER: 'x' })).toEqual({
      AWS_DEFAULT_REGION: 'eu-west-3',
    });
  });

  it('the smoke script keeps --region only when given', () => {
    const env = { SMOKE_CLIENT_SECRET: 's', SMOKE_MAINTENANCE_TOKEN: 'm' };
    const base = ['--stage', 'dev', '--client-id', 'c', '--plant', 'p'];
    expect(parseSmokeArgs(base, env)?.region).toBeUndefined();
    expect(parseSmokeArgs([...base, '--region', 'us-east-2'], env)?.region).toBe('us-east-2');
  });
});
