// One passing and one failing case for every rule of the spec's GDM field tables (Area A).
import { describe, expect, it } from 'vitest';
import { validateMessage, type Stage } from '../../../lib/gdm';
import { BASE, CLOUD, EDGE, REMOVE, changed } from './messages';

interface RuleCase {
  readonly rule: string;
  readonly stage: Stage;
  readonly path: readonly (string | number)[];
  readonly pass: unknown;
  readonly fail: unknown;
  readonly code: string;
}

const baseline: Readonly<Record<Stage, unknown>> = { base: BASE, edge: EDGE, cloud: CLOUD };
const TS = '2024-05-01T10:00:00Z';

const cases: readonly RuleCase[] = [
  // Message: deviceId
  { rule: 'deviceId is optional at base', stage: 'base', path: ['deviceId'], pass: REMOVE, fail: 5, code: 'GDM_TYPE' },
  {
    rule: 'deviceId is required at edge',
    stage: 'edge',
    path: ['deviceId'],
    pass: 'Press-7',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'deviceId is required at cloud',
    stage: 'cloud',
    path: ['deviceId'],
    pass: 'Press-7',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'deviceId characters',
    stage: 'edge',
    path: ['deviceId'],
    pass: 'aZ09_-.#=',
    fail: 'press/7',
    code: 'GDM_DEVICE_ID_FORMAT',
  },
  {
    rule: 'deviceId has one or more characters',
    stage: 'base',
    path: ['deviceId'],
    pass: 'x',
    fail: '',
    code: 'GDM_DEVICE_ID_FORMAT',
  },
  {
    rule: 'deviceId letters are ASCII',
    stage: 'edge',
    path: ['deviceId'],
    pass: 'Presse',
    fail: 'Preße',
    code: 'GDM_DEVICE_ID_FORMAT',
  },
  // agentTimestamp
  {
    rule: 'agentTimestamp is absent at base',
    stage: 'base',
    path: ['agentTimestamp'],
    pass: REMOVE,
    fail: TS,
    code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
  },
  {
    rule: 'agentTimestamp is required at edge',
    stage: 'edge',
    path: ['agentTimestamp'],
    pass: TS,
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'agentTimestamp is required at cloud',
    stage: 'cloud',
    path: ['agentTimestamp'],
    pass: TS,
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'agentTimestamp has a UTC offset',
    stage: 'edge',
    path: ['agentTimestamp'],
    pass: '2024-05-01T12:00:00+02:00',
    fail: '2024-05-01T12:00:00',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  // messageId
  {
    rule: 'messageId is required at base',
    stage: 'base',
    path: ['messageId'],
    pass: '00000000-0000-0000-0000-000000000000',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageId is required at edge',
    stage: 'edge',
    path: ['messageId'],
    pass: 'abcdef01-2345-6789-abcd-ef0123456789',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageId is required at cloud',
    stage: 'cloud',
    path: ['messageId'],
    pass: 'abcdef01-2345-6789-abcd-ef0123456789',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageId is lowercase hex',
    stage: 'edge',
    path: ['messageId'],
    pass: 'abcdef01-2345-6789-abcd-ef0123456789',
    fail: 'ABCDEF01-2345-6789-ABCD-EF0123456789',
    code: 'GDM_MESSAGE_ID_FORMAT',
  },
  {
    rule: 'messageId has the 8-4-4-4-12 layout',
    stage: 'edge',
    path: ['messageId'],
    pass: '12345678-1234-1234-1234-123456789012',
    fail: '1234567-81234-1234-1234-123456789012',
    code: 'GDM_MESSAGE_ID_FORMAT',
  },
  {
    rule: 'messageId is at most 36 characters',
    stage: 'base',
    path: ['messageId'],
    pass: '12345678-1234-1234-1234-123456789012',
    fail: '12345678-1234-1234-1234-1234567890123',
    code: 'GDM_MESSAGE_ID_FORMAT',
  },
  // messageType
  {
    rule: 'messageType defaults to state at base',
    stage: 'base',
    path: ['messageType'],
    pass: REMOVE,
    fail: 'bogus',
    code: 'GDM_MESSAGE_TYPE_FORMAT',
  },
  {
    rule: 'messageType is required at edge',
    stage: 'edge',
    path: ['messageType'],
    pass: 'event',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageType is required at cloud',
    stage: 'cloud',
    path: ['messageType'],
    pass: 'keep-alive',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageType begins with a kind',
    stage: 'edge',
    path: ['messageType'],
    pass: 'alarm',
    fail: 'alarms',
    code: 'GDM_MESSAGE_TYPE_FORMAT',
  },
  {
    rule: 'messageType kinds are lowercase',
    stage: 'edge',
    path: ['messageType'],
    pass: 'state',
    fail: 'State',
    code: 'GDM_MESSAGE_TYPE_FORMAT',
  },
  {
    rule: 'custom segments use letters, digits and _ - . = /',
    stage: 'edge',
    path: ['messageType'],
    pass: 'event:Line_1-a.b=c/d:2',
    fail: 'event:line 1',
    code: 'GDM_MESSAGE_TYPE_FORMAT',
  },
  {
    rule: 'custom segments are not empty',
    stage: 'edge',
    path: ['messageType'],
    pass: 'state:x',
    fail: 'state:',
    code: 'GDM_MESSAGE_TYPE_FORMAT',
  },
  // messageVersion
  {
    rule: 'messageVersion defaults to 1.0 at base',
    stage: 'base',
    path: ['messageVersion'],
    pass: REMOVE,
    fail: 'one',
    code: 'GDM_MESSAGE_VERSION_FORMAT',
  },
  {
    rule: 'messageVersion is required at edge',
    stage: 'edge',
    path: ['messageVersion'],
    pass: '1.0',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageVersion is required at cloud',
    stage: 'cloud',
    path: ['messageVersion'],
    pass: '1.0',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'messageVersion is digits.digits',
    stage: 'edge',
    path: ['messageVersion'],
    pass: '10.22',
    fail: '1',
    code: 'GDM_MESSAGE_VERSION_FORMAT',
  },
  {
    rule: 'messageVersion allows a third group only',
    stage: 'edge',
    path: ['messageVersion'],
    pass: '1.0.3',
    fail: '1.0.3.4',
    code: 'GDM_MESSAGE_VERSION_FORMAT',
  },
  // metadata, data
  {
    rule: 'message metadata is an optional object',
    stage: 'edge',
    path: ['metadata'],
    pass: REMOVE,
    fail: 'plant-1',
    code: 'GDM_TYPE',
  },
  {
    rule: 'message metadata is free-form',
    stage: 'cloud',
    path: ['metadata'],
    pass: { any: { nested: [1] } },
    fail: null,
    code: 'GDM_TYPE',
  },
  { rule: 'data is an optional array', stage: 'edge', path: ['data'], pass: REMOVE, fail: {}, code: 'GDM_TYPE' },
  { rule: 'data may be empty', stage: 'base', path: ['data'], pass: [], fail: 'none', code: 'GDM_TYPE' },
  // uid, agentId, ingestionId, ingestionTimestamp
  ...(['uid', 'agentId', 'ingestionId', 'ingestionTimestamp'] as const).flatMap((field): RuleCase[] => [
    {
      rule: `${field} is absent at base`,
      stage: 'base',
      path: [field],
      pass: REMOVE,
      fail: CLOUD[field],
      code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
    },
    {
      rule: `${field} is absent at edge`,
      stage: 'edge',
      path: [field],
      pass: REMOVE,
      fail: CLOUD[field],
      code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
    },
    {
      rule: `${field} is required at cloud`,
      stage: 'cloud',
      path: [field],
      pass: CLOUD[field],
      fail: REMOVE,
      code: 'GDM_REQUIRED',
    },
  ]),
  {
    rule: 'uid is lowercase(agentId)_lowercase(deviceId) in form',
    stage: 'cloud',
    path: ['uid'],
    pass: CLOUD.uid,
    fail: CLOUD.uid.replace('press', 'Press'),
    code: 'GDM_UID_FORMAT',
  },
  {
    rule: 'uid equals its derivation',
    stage: 'cloud',
    path: ['uid'],
    pass: CLOUD.uid,
    fail: CLOUD.uid.replace('press-7', 'press-8'),
    code: 'GDM_UID_MISMATCH',
  },
  {
    rule: 'agentId has the UUID layout',
    stage: 'cloud',
    path: ['agentId'],
    pass: CLOUD.agentId,
    fail: CLOUD.agentId.slice(1),
    code: 'GDM_AGENT_ID_FORMAT',
  },
  {
    rule: 'ingestionId characters',
    stage: 'cloud',
    path: ['ingestionId'],
    pass: 'Hub_1-a.b',
    fail: 'hub#1',
    code: 'GDM_INGESTION_ID_FORMAT',
  },
  {
    rule: 'ingestionTimestamp has a UTC offset',
    stage: 'cloud',
    path: ['ingestionTimestamp'],
    pass: '2024-05-01T10:00:00.5-03:00',
    fail: '2024-05-01 10:00:00Z',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  // Data item
  {
    rule: 'name is required',
    stage: 'edge',
    path: ['data', 0, 'name'],
    pass: 'pressure',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'name has at least one character',
    stage: 'base',
    path: ['data', 0, 'name'],
    pass: ' ',
    fail: '',
    code: 'GDM_NAME_EMPTY',
  },
  {
    rule: 'nameId is absent at base',
    stage: 'base',
    path: ['data', 0, 'nameId'],
    pass: REMOVE,
    fail: CLOUD.data?.[0]?.nameId,
    code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
  },
  {
    rule: 'nameId is absent at edge',
    stage: 'edge',
    path: ['data', 0, 'nameId'],
    pass: REMOVE,
    fail: CLOUD.data?.[0]?.nameId,
    code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
  },
  {
    rule: 'nameId is required at cloud',
    stage: 'cloud',
    path: ['data', 0, 'nameId'],
    pass: CLOUD.data?.[0]?.nameId,
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'nameId is 64 lowercase hex characters',
    stage: 'cloud',
    path: ['data', 0, 'nameId'],
    pass: CLOUD.data?.[0]?.nameId,
    fail: CLOUD.data?.[0]?.nameId.toUpperCase(),
    code: 'GDM_NAME_ID_FORMAT',
  },
  {
    rule: 'nameId equals its SHA-256 derivation',
    stage: 'cloud',
    path: ['data', 0, 'nameId'],
    pass: CLOUD.data?.[0]?.nameId,
    fail: 'f'.repeat(64),
    code: 'GDM_NAME_ID_MISMATCH',
  },
  {
    rule: 'data item metadata is an optional object',
    stage: 'edge',
    path: ['data', 0, 'metadata'],
    pass: REMOVE,
    fail: [1],
    code: 'GDM_TYPE',
  },
  {
    rule: 'values is required',
    stage: 'base',
    path: ['data', 0, 'values'],
    pass: [],
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'values is an array',
    stage: 'edge',
    path: ['data', 0, 'values'],
    pass: [{ value: 1 }],
    fail: { value: 1 },
    code: 'GDM_TYPE',
  },
  {
    rule: 'a data item is an object',
    stage: 'edge',
    path: ['data', 0],
    pass: { name: 'n', values: [] },
    fail: 'temperature',
    code: 'GDM_TYPE',
  },
  // Value item
  {
    rule: 'value defaults to 0 at base',
    stage: 'base',
    path: ['data', 0, 'values', 0, 'value'],
    pass: REMOVE,
    fail: { a: 1 },
    code: 'GDM_TYPE',
  },
  {
    rule: 'value is required at edge',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'value'],
    pass: 'text',
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'value is required at cloud',
    stage: 'cloud',
    path: ['data', 0, 'values', 0, 'value'],
    pass: -7,
    fail: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    rule: 'value may be a boolean, not an object',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'value'],
    pass: false,
    fail: {},
    code: 'GDM_TYPE',
  },
  {
    rule: 'value may be an array or null',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'value'],
    pass: [1, 'a', null],
    fail: { value: null },
    code: 'GDM_TYPE',
  },
  {
    rule: 'value may be null',
    stage: 'cloud',
    path: ['data', 0, 'values', 0, 'value'],
    pass: null,
    fail: {},
    code: 'GDM_TYPE',
  },
  {
    rule: 'deviceTimestamp may be omitted',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: REMOVE,
    fail: 1714557600000,
    code: 'GDM_TYPE',
  },
  {
    rule: 'deviceTimestamp may be null',
    stage: 'base',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: null,
    fail: '',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  {
    rule: 'fractional seconds up to six digits',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: '2024-05-01T10:00:00.123456Z',
    fail: '2024-05-01T10:00:00.1234567Z',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  {
    rule: 'seconds are required',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: '2024-05-01T10:00:00Z',
    fail: '2024-05-01T10:00Z',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  {
    rule: 'offset is Z or ±hh:mm',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: '2024-05-01T10:00:00-09:30',
    fail: '2024-05-01T10:00:00+0930',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  {
    rule: 'the date is a real calendar date (leap years)',
    stage: 'edge',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: '2024-02-29T00:00:00Z',
    fail: '2100-02-29T00:00:00Z',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  {
    rule: 'hours run to 23',
    stage: 'cloud',
    path: ['data', 0, 'values', 0, 'deviceTimestamp'],
    pass: '2024-05-01T23:59:59Z',
    fail: '2024-05-01T24:00:00Z',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  // Closed objects at every level
  {
    rule: 'message fields are those of release-01',
    stage: 'edge',
    path: ['deviceID'],
    pass: REMOVE,
    fail: 'x',
    code: 'GDM_UNKNOWN_FIELD',
  },
  {
    rule: 'data item fields are those of release-01',
    stage: 'base',
    path: ['data', 0, 'unit'],
    pass: REMOVE,
    fail: 'degC',
    code: 'GDM_UNKNOWN_FIELD',
  },
  {
    rule: 'value item fields are those of release-01',
    stage: 'cloud',
    path: ['data', 0, 'values', 0, 'quality'],
    pass: REMOVE,
    fail: 'good',
    code: 'GDM_UNKNOWN_FIELD',
  },
];

const pointer = (path: readonly (string | number)[]): string => path.map((s) => `/${s}`).join('');

describe('GDM field rules', () => {
  it.each(cases.map((c) => [c.rule, c.stage, c] as const))('%s (%s): passing case', (_rule, _stage, c) => {
    // Prepare
    const message = changed(baseline[c.stage], c.path, c.pass);
    // Act
    const result = validateMessage(message, c.stage);
    // Assess
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each(cases.map((c) => [c.rule, c.stage, c] as const))('%s (%s): failing case', (_rule, _stage, c) => {
    // Prepare
    const message = changed(baseline[c.stage], c.path, c.fail);
    // Act
    const result = validateMessage(message, c.stage);
    // Assess
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => [e.path, e.code])).toEqual([[pointer(c.path), c.code]]);
  });
});

describe('validation results', () => {
  it('applies the base defaults to the returned message and leaves the input untouched', () => {
    // Prepare
    const input = { messageId: BASE.messageId, data: [{ name: 'n', values: [{}] }] };
    const before = structuredClone(input);
    // Act
    const result = validateMessage(input, 'base');
    // Assess
    expect(result.message).toEqual({
      messageId: BASE.messageId,
      messageType: 'state',
      messageVersion: '1.0',
      data: [{ name: 'n', values: [{ value: 0 }] }],
    });
    expect(input).toEqual(before);
  });

  it('reports every problem, not only the first', () => {
    // Prepare
    const message = { ...EDGE, deviceId: '', messageId: 'x', extra: 1, data: [{ name: '', values: [{ value: {} }] }] };
    // Act
    const result = validateMessage(message, 'edge');
    // Assess
    expect(result.errors.map((e) => e.code).sort()).toEqual(
      ['GDM_DEVICE_ID_FORMAT', 'GDM_MESSAGE_ID_FORMAT', 'GDM_NAME_EMPTY', 'GDM_TYPE', 'GDM_UNKNOWN_FIELD'].sort(),
    );
  });

  it('reports a non-object message at the root path', () => {
    // Act
    const results = [null, 'text', 42, []].map((input) => validateMessage(input, 'base'));
    // Assess
    for (const r of results) expect(r.errors.map((e) => [e.path, e.code])).toEqual([['', 'GDM_TYPE']]);
  });

  it('escapes JSON Pointer segments and suggests the field meant', () => {
    // Act
    const result = validateMessage({ ...EDGE, 'a/b~': 1, devicId: 'x' }, 'edge');
    // Assess
    expect(result.errors.map((e) => e.path).sort()).toEqual(['/a~1b~0', '/devicId']);
    expect(result.errors.find((e) => e.path === '/devicId')?.message).toContain('Did you mean "deviceId"?');
  });

  it('rejects an unknown stage as a programming error', () => {
    // Act / Assess
    expect(() => validateMessage(EDGE, 'gateway' as Stage)).toThrow(TypeError);
  });
});
