// Property tests: every generated valid message validates at every stage (and the committed JSON
// Schemas agree), and a mutation that breaks exactly one rule is rejected at that rule's path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageSchemas, toCloud, toEdge, validateMessage, type BaseMessage, type Stage } from '../../../lib/gdm';
import { baseMessageArb, deviceIdArb, richBaseMessageArb, uuidArb } from './arbitraries';
import { committedAjvValidators } from './corpus';
import { changed, REMOVE } from './messages';

const ajv = committedAjvValidators();
const now = () => new Date('2024-05-01T10:00:00.000Z');

function stages(base: BaseMessage, deviceId: string, agentId: string): Readonly<Record<Stage, unknown>> {
  const edge = toEdge(base, { now, deviceId });
  return { base, edge, cloud: toCloud(edge, { now, agentId, ingestionId: 'hub' }) };
}

describe('generated valid messages', () => {
  it('validate at base, and after enrichment at edge and cloud, by validateMessage, zod and ajv', () => {
    fc.assert(
      fc.property(baseMessageArb, deviceIdArb, uuidArb, (raw, deviceId, agentId) => {
        // Act
        const base = validateMessage(raw, 'base');
        // Assess
        expect(base.errors).toEqual([]);
        expect(ajv.base(raw)).toBe(true);
        if (!base.ok) return;
        const messages = stages(base.message, deviceId, agentId);
        for (const stage of ['edge', 'cloud'] as const) {
          const json = JSON.parse(JSON.stringify(messages[stage])) as unknown;
          expect(validateMessage(json, stage).errors).toEqual([]);
          expect(messageSchemas[stage].safeParse(json).success).toBe(true);
          expect(ajv[stage](json)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

interface Mutation {
  readonly name: string;
  readonly stages: readonly Stage[];
  /** Path and value of the change; `pick` gets indices to choose a data item and a value item. */
  readonly at: (pick: { readonly item: number; readonly value: number }) => readonly (string | number)[];
  readonly value: unknown;
  readonly code: string;
  /** False for the derivation rules, which JSON Schema cannot express. */
  readonly schemaRejects?: boolean;
}

const mutations: readonly Mutation[] = [
  {
    name: 'uppercase messageId',
    stages: ['base', 'edge', 'cloud'],
    at: () => ['messageId'],
    value: 'ABCDEF01-2345-6789-ABCD-EF0123456789',
    code: 'GDM_MESSAGE_ID_FORMAT',
  },
  {
    name: 'deviceId with a space',
    stages: ['base', 'edge', 'cloud'],
    at: () => ['deviceId'],
    value: 'press 7',
    code: 'GDM_DEVICE_ID_FORMAT',
  },
  { name: 'no deviceId', stages: ['edge', 'cloud'], at: () => ['deviceId'], value: REMOVE, code: 'GDM_REQUIRED' },
  {
    name: 'unknown messageType kind',
    stages: ['base', 'edge', 'cloud'],
    at: () => ['messageType'],
    value: 'status',
    code: 'GDM_MESSAGE_TYPE_FORMAT',
  },
  {
    name: 'one-part messageVersion',
    stages: ['base', 'edge', 'cloud'],
    at: () => ['messageVersion'],
    value: '2',
    code: 'GDM_MESSAGE_VERSION_FORMAT',
  },
  {
    name: 'agentTimestamp at base',
    stages: ['base'],
    at: () => ['agentTimestamp'],
    value: '2024-05-01T10:00:00Z',
    code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
  },
  {
    name: 'agentTimestamp without offset',
    stages: ['edge', 'cloud'],
    at: () => ['agentTimestamp'],
    value: '2024-05-01T10:00:00',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  { name: 'uid at edge', stages: ['edge'], at: () => ['uid'], value: 'x', code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE' },
  {
    name: 'no ingestionTimestamp',
    stages: ['cloud'],
    at: () => ['ingestionTimestamp'],
    value: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    name: 'metadata as an array',
    stages: ['base', 'edge', 'cloud'],
    at: () => ['metadata'],
    value: [],
    code: 'GDM_TYPE',
  },
  {
    name: 'unknown top-level field',
    stages: ['base', 'edge', 'cloud'],
    at: () => ['extra'],
    value: 1,
    code: 'GDM_UNKNOWN_FIELD',
  },
  // Not at cloud: a new name also breaks the nameId derivation there, so two rules would break.
  {
    name: 'empty name',
    stages: ['base', 'edge'],
    at: ({ item }) => ['data', item, 'name'],
    value: '',
    code: 'GDM_NAME_EMPTY',
  },
  {
    name: 'nameId at edge',
    stages: ['edge'],
    at: ({ item }) => ['data', item, 'nameId'],
    value: 'a'.repeat(64),
    code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
  },
  {
    name: 'short nameId',
    stages: ['cloud'],
    at: ({ item }) => ['data', item, 'nameId'],
    value: 'a'.repeat(63),
    code: 'GDM_NAME_ID_FORMAT',
  },
  {
    name: 'object value',
    stages: ['base', 'edge', 'cloud'],
    at: ({ item, value }) => ['data', item, 'values', value, 'value'],
    value: { v: 1 },
    code: 'GDM_TYPE',
  },
  {
    name: 'no value',
    stages: ['edge', 'cloud'],
    at: ({ item, value }) => ['data', item, 'values', value, 'value'],
    value: REMOVE,
    code: 'GDM_REQUIRED',
  },
  {
    name: '30 February',
    stages: ['base', 'edge', 'cloud'],
    at: ({ item, value }) => ['data', item, 'values', value, 'deviceTimestamp'],
    value: '2024-02-30T00:00:00Z',
    code: 'GDM_DATE_TIME_FORMAT',
  },
  {
    name: 'unknown value item field',
    stages: ['base', 'edge', 'cloud'],
    at: ({ item, value }) => ['data', item, 'values', value, 'unit'],
    value: 'bar',
    code: 'GDM_UNKNOWN_FIELD',
  },
  {
    name: 'wrong uid',
    stages: ['cloud'],
    at: () => ['uid'],
    value: '00000000-0000-0000-0000-000000000000_x',
    code: 'GDM_UID_MISMATCH',
    schemaRejects: false,
  },
  {
    name: 'wrong nameId',
    stages: ['cloud'],
    at: ({ item }) => ['data', item, 'nameId'],
    value: '0'.repeat(64),
    code: 'GDM_NAME_ID_MISMATCH',
    schemaRejects: false,
  },
];

const cases = mutations.flatMap((m) => m.stages.map((stage) => ({ stage, mutation: m })));

describe('a mutation breaking one rule', () => {
  it.each(cases.map((c) => [c.mutation.name, c.stage, c] as const))(
    '%s is rejected at %s with its path and code',
    (_name, _stage, { stage, mutation }) => {
      fc.assert(
        fc.property(richBaseMessageArb, uuidArb, fc.nat(), fc.nat(), (raw, agentId, i, j) => {
          // Prepare
          const valid = validateMessage(raw, 'base');
          if (!valid.ok) throw new Error(`generator produced an invalid base message: ${valid.errors[0]?.message}`);
          const message = stages(valid.message, 'unused', agentId)[stage] as { data: { values: unknown[] }[] };
          const item = i % message.data.length;
          const value = j % (message.data[item]?.values.length ?? 1);
          const path = mutation.at({ item, value });
          const mutated = changed(message, path, mutation.value);
          // Act
          const result = validateMessage(mutated, stage);
          // Assess
          expect(result.ok).toBe(false);
          expect(result.errors.map((e) => [e.path, e.code])).toEqual([['/' + path.join('/'), mutation.code]]);
          const schemaRejects = mutation.schemaRejects ?? true;
          expect(messageSchemas[stage].safeParse(mutated).success).toBe(!schemaRejects);
          expect(ajv[stage](mutated)).toBe(!schemaRejects);
        }),
        { numRuns: 50 },
      );
    },
  );
});

describe('zod schemas and committed JSON Schemas', () => {
  const messageKeys = [
    'deviceId',
    'agentTimestamp',
    'messageId',
    'messageType',
    'messageVersion',
    'metadata',
    'data',
    'uid',
    'agentId',
    'ingestionId',
    'ingestionTimestamp',
    'other',
  ];
  const itemKeys = ['name', 'nameId', 'metadata', 'values', 'other'];
  const valueKeys = ['value', 'deviceTimestamp', 'other'];
  const replacement = fc.oneof(
    fc.constant(REMOVE),
    fc.jsonValue({ maxDepth: 2 }),
    fc.string(),
    fc.constantFrom('', '2024-05-01T10:00:00Z', '1.0', 'state', 'a'.repeat(64)),
  );

  it('give the same verdict when any field at any level is replaced by arbitrary JSON or removed', () => {
    fc.assert(
      fc.property(
        richBaseMessageArb,
        uuidArb,
        fc.constantFrom<Stage>('base', 'edge', 'cloud'),
        fc.constantFrom(0, 1, 2),
        fc.nat(),
        replacement,
        (raw, agentId, stage, level, k, value) => {
          // Prepare
          const valid = validateMessage(raw, 'base');
          if (!valid.ok) throw new Error('generator produced an invalid base message');
          const message = JSON.parse(JSON.stringify(stages(valid.message, 'unused', agentId)[stage])) as unknown;
          const keys = [messageKeys, itemKeys, valueKeys][level] ?? messageKeys;
          const key = keys[k % keys.length] ?? 'other';
          const path = [[], ['data', 0], ['data', 0, 'values', 0]][level] ?? [];
          const mutated = changed(message, [...path, key], value);
          // Act
          const zodVerdict = messageSchemas[stage].safeParse(mutated).success;
          const ajvVerdict = ajv[stage](mutated);
          // Assess
          expect(ajvVerdict).toBe(zodVerdict);
          const result = validateMessage(mutated, stage);
          if (zodVerdict) expect(result.errors.filter((e) => !e.code.endsWith('_MISMATCH'))).toEqual([]);
          else expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
