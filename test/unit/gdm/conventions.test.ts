import { describe, expect, it } from 'vitest';
import { checkConventions, validateMessage } from '../../../lib/gdm';
import { EDGE } from './messages';

const alarm = {
  ...EDGE,
  messageType: 'alarm:press',
  data: [
    {
      name: 'overheat',
      metadata: { active: true, acknowledged: false, severity: 2 },
      values: [{ value: null, deviceTimestamp: '2024-05-01T10:00:00Z' }],
    },
  ],
};
const keepAlive = {
  ...EDGE,
  messageType: 'keep-alive',
  metadata: { plantId: 'p1', messageIntervallInMilliseconds: 30000 },
  data: [{ name: 'keep-alive', values: [{ value: null, deviceTimestamp: '2024-05-01T10:00:00Z' }] }],
};

const codes = (message: unknown): string[] => checkConventions(message).map((w) => `${w.path} ${w.code}`);

describe('alarm conventions', () => {
  it('accepts an alarm with a null value and boolean active/acknowledged', () => {
    expect(codes(alarm)).toEqual([]);
  });

  it('warns about a non-null value and non-boolean active/acknowledged, at their paths', () => {
    // Prepare
    const broken = { ...alarm, data: [{ name: 'overheat', metadata: { active: 'true' }, values: [{ value: 1 }] }] };
    // Act
    const result = validateMessage(broken, 'edge');
    // Assess
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => `${w.path} ${w.code}`)).toEqual([
      '/data/0/metadata/active GDM_CONVENTION_ALARM_ACTIVE',
      '/data/0/metadata/acknowledged GDM_CONVENTION_ALARM_ACKNOWLEDGED',
      '/data/0/values/0/value GDM_CONVENTION_ALARM_VALUE_NOT_NULL',
    ]);
  });

  it('treats a missing base value as the default 0, which is not null', () => {
    // Prepare
    const {
      deviceId: _d,
      agentTimestamp: _a,
      ...base
    } = { ...alarm, data: [{ name: 'a', metadata: { active: false, acknowledged: true }, values: [{}] }] };
    // Act
    const result = validateMessage(base, 'base');
    // Assess
    expect(result.warnings.map((w) => w.code)).toEqual(['GDM_CONVENTION_ALARM_VALUE_NOT_NULL']);
  });
});

describe('keep-alive conventions', () => {
  it('accepts one keep-alive item with a null value, a deviceTimestamp and an integer interval', () => {
    expect(codes(keepAlive)).toEqual([]);
  });

  it.each([
    ['no data item', { ...keepAlive, data: [] }, ['/data GDM_CONVENTION_KEEP_ALIVE_ITEMS']],
    [
      'another name',
      { ...keepAlive, data: [{ name: 'alive', values: [{ value: null, deviceTimestamp: '2024-05-01T10:00:00Z' }] }] },
      ['/data/0/name GDM_CONVENTION_KEEP_ALIVE_NAME'],
    ],
    [
      'a non-null value',
      { ...keepAlive, data: [{ name: 'keep-alive', values: [{ value: 1, deviceTimestamp: '2024-05-01T10:00:00Z' }] }] },
      ['/data/0/values GDM_CONVENTION_KEEP_ALIVE_VALUE'],
    ],
    [
      'no deviceTimestamp',
      { ...keepAlive, data: [{ name: 'keep-alive', values: [{ value: null }] }] },
      ['/data/0/values/0/deviceTimestamp GDM_CONVENTION_KEEP_ALIVE_DEVICE_TIMESTAMP'],
    ],
    [
      'a fractional interval',
      { ...keepAlive, metadata: { messageIntervallInMilliseconds: 1.5 } },
      ['/metadata/messageIntervallInMilliseconds GDM_CONVENTION_KEEP_ALIVE_INTERVAL'],
    ],
    [
      'the interval spelled with one l',
      { ...keepAlive, metadata: { messageIntervalInMilliseconds: 1000 } },
      ['/metadata/messageIntervallInMilliseconds GDM_CONVENTION_KEEP_ALIVE_INTERVAL'],
    ],
  ])('warns about %s', (_case, message, expected) => {
    expect(codes(message)).toEqual(expected);
  });

  it('checks nothing for state and event messages', () => {
    expect(codes({ ...EDGE, messageType: 'event', data: [] })).toEqual([]);
    expect(codes({ ...EDGE, messageType: 'state:x', data: [{ name: 'keep-alive', values: [{ value: 1 }] }] })).toEqual(
      [],
    );
  });

  it('warns even on an invalid message, without throwing on odd shapes', () => {
    // Act
    const result = validateMessage({ messageType: 'keep-alive', data: 'x', metadata: [] }, 'edge');
    // Assess
    expect(result.ok).toBe(false);
    expect(result.warnings.map((w) => w.code)).toEqual([
      'GDM_CONVENTION_KEEP_ALIVE_ITEMS',
      'GDM_CONVENTION_KEEP_ALIVE_INTERVAL',
    ]);
  });
});
