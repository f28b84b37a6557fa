import { describe, expect, it } from 'vitest';
import {
  GdmEnrichmentError,
  nameIdOf,
  toCloud,
  toEdge,
  uidOf,
  validateMessage,
  type BaseMessage,
} from '../../../lib/gdm';
import { AGENT_ID, BASE, EDGE, TEMPERATURE_NAME_ID } from './messages';

const clock = (iso: string) => () => new Date(iso);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('nameIdOf and uidOf', () => {
  it('hashes agentId_deviceId_name with SHA-256 (values from sha256sum)', () => {
    // Act / Assess: printf '%s' 'a_b_c' | sha256sum, and the UTF-8 name below likewise
    expect(nameIdOf('a', 'b', 'c')).toBe('b3f2d26ef3bbdf42130086f8be5d3166dbda96c6589129ef58ceab0d5596dcc4');
    expect(nameIdOf(AGENT_ID, 'Press-7', 'temperature')).toBe(TEMPERATURE_NAME_ID);
    expect(nameIdOf(AGENT_ID, 'Press-7', 'Temperatur Größe')).toBe(
      '25863dbff6d38a6c25e8dad42fdfb4ba0bbbee425fa91efa700e8796b6b79534',
    );
  });

  it('keeps the case of deviceId in nameId but lower-cases uid', () => {
    // Act
    const upper = nameIdOf(AGENT_ID, 'Press-7', 'temperature');
    const lower = nameIdOf(AGENT_ID, 'press-7', 'temperature');
    // Assess
    expect(upper).not.toBe(lower);
    expect(uidOf('6F1C2B3A-4D5E-4F60-8A7B-9C0D1E2F3A4B', 'Press-7')).toBe(`${AGENT_ID}_press-7`);
  });
});

describe('toEdge', () => {
  it('sets agentTimestamp from the injected clock and keeps every base field', () => {
    // Prepare
    const base = deepFreeze({ ...BASE, deviceId: 'Press-7' });
    // Act
    const edge = toEdge(base, { now: clock('2024-05-01T10:00:01.5Z') });
    // Assess
    expect(edge).toEqual({ ...base, agentTimestamp: '2024-05-01T10:00:01.500Z' });
    expect(Object.keys(edge)).toEqual([
      'deviceId',
      'agentTimestamp',
      'messageId',
      'messageType',
      'messageVersion',
      'metadata',
      'data',
    ]);
    expect(validateMessage(edge, 'edge').ok).toBe(true);
  });

  it('takes deviceId from the options only when the message has none', () => {
    // Act
    const fromOptions = toEdge(BASE, { now: clock('2024-05-01T10:00:00Z'), deviceId: 'gw-dev' });
    const own = toEdge({ ...BASE, deviceId: 'own' }, { now: clock('2024-05-01T10:00:00Z'), deviceId: 'gw-dev' });
    // Assess
    expect(fromOptions.deviceId).toBe('gw-dev');
    expect(own.deviceId).toBe('own');
  });

  it('throws GDM_REQUIRED without any deviceId and GDM_DEVICE_ID_FORMAT for a bad one', () => {
    // Act / Assess
    expect(() => toEdge(BASE, { now: clock('2024-05-01T10:00:00Z') })).toThrow(
      expect.objectContaining({ code: 'GDM_REQUIRED', path: '/deviceId' }),
    );
    expect(() => toEdge(BASE, { now: clock('2024-05-01T10:00:00Z'), deviceId: 'a b' })).toThrow(GdmEnrichmentError);
  });

  it('omits optional fields the base message lacks', () => {
    // Prepare
    const minimal: BaseMessage = {
      messageId: BASE.messageId,
      messageType: 'event',
      messageVersion: '1.0',
      deviceId: 'd',
    };
    // Act
    const edge = toEdge(minimal, { now: clock('2024-05-01T10:00:00Z') });
    // Assess
    expect('metadata' in edge || 'data' in edge).toBe(false);
  });
});

describe('toCloud', () => {
  const options = { now: clock('2024-05-01T10:00:02.25Z'), agentId: AGENT_ID, ingestionId: 'iot-core' };

  it('sets agentId, ingestionId, ingestionTimestamp, uid and nameId per data item', () => {
    // Prepare
    const edge = deepFreeze(structuredClone(EDGE));
    // Act
    const cloud = toCloud(edge, options);
    // Assess
    expect(cloud.agentId).toBe(AGENT_ID);
    expect(cloud.ingestionId).toBe('iot-core');
    expect(cloud.ingestionTimestamp).toBe('2024-05-01T10:00:02.250Z');
    expect(cloud.uid).toBe('6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b_press-7');
    expect(cloud.data?.map((d) => d.nameId)).toEqual([TEMPERATURE_NAME_ID]);
    expect(cloud.data?.[0]?.values).toEqual(EDGE.data?.[0]?.values);
    expect(Object.keys(cloud).slice(-4)).toEqual(['uid', 'agentId', 'ingestionId', 'ingestionTimestamp']);
    expect(validateMessage(cloud, 'cloud').ok).toBe(true);
  });

  it('is pure: the same input and clock give the same output, the input is unchanged', () => {
    // Prepare
    const edge = structuredClone(EDGE);
    // Act
    const first = toCloud(edge, options);
    const second = toCloud(edge, options);
    // Assess
    expect(second).toEqual(first);
    expect(edge).toEqual(EDGE);
  });

  it('refuses a malformed agentId or ingestionId instead of producing an invalid cloud message', () => {
    // Act / Assess
    expect(() => toCloud(EDGE, { ...options, agentId: AGENT_ID.toUpperCase() })).toThrow(
      expect.objectContaining({ code: 'GDM_AGENT_ID_FORMAT' }),
    );
    expect(() => toCloud(EDGE, { ...options, ingestionId: 'iot core' })).toThrow(
      expect.objectContaining({ code: 'GDM_INGESTION_ID_FORMAT' }),
    );
  });
});
