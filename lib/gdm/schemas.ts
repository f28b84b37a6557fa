// zod schemas of GDM release-01, stage by stage. They are the reference definition: the JSON Schemas
// under schemas/release-01/ are generated from them, and the hot-path validator (validate.ts) is
// proven equivalent to them by the corpus and property tests.
//
// Read each object as a row of the spec's table: `absent` fields are `z.never().optional()` (present
// = error), unknown keys are rejected (strict objects), and defaults exist only at the base stage.
import * as z from 'zod';
import {
  DATE_TIME_PATTERN,
  DEFAULT_MESSAGE_TYPE,
  DEFAULT_MESSAGE_VERSION,
  DEFAULT_VALUE,
  DEVICE_ID_PATTERN,
  INGESTION_ID_PATTERN,
  MESSAGE_TYPE_PATTERN,
  MESSAGE_VERSION_PATTERN,
  NAME_ID_PATTERN,
  UID_PATTERN,
  UUID_MAX_LENGTH,
  UUID_PATTERN,
} from './rules';
import type { BaseMessage, CloudMessage, EdgeMessage, ValueItem, DataItem, CloudDataItem } from './types';

/** A field a later stage sets: present = error (JSON Schema `not: {}`). */
const absent = (setBy: string) =>
  z
    .never()
    .optional()
    .meta({ description: `Set by ${setBy}; must not appear at this stage.` });
const describe = <T extends z.ZodType>(schema: T, description: string): T => schema.meta({ description }) as T;

export const dateTimeSchema = z.string().regex(DATE_TIME_PATTERN).meta({
  format: 'date-time',
  description: 'ISO 8601 with UTC offset (Z or ±hh:mm), seconds required, up to 6 fractional digits.',
});

export const deviceIdSchema = describe(
  z.string().regex(DEVICE_ID_PATTERN),
  'Letters, digits, _ - . # =; unique per agent.',
);
export const uuidSchema = z.string().max(UUID_MAX_LENGTH).regex(UUID_PATTERN);
export const messageTypeSchema = describe(
  z.string().regex(MESSAGE_TYPE_PATTERN),
  'state, alarm, event or keep-alive, optionally followed by ":"-separated custom segments of letters, digits and _ - . = /.',
);
export const messageVersionSchema = describe(
  z.string().regex(MESSAGE_VERSION_PATTERN),
  'digits.digits with an optional third .digits group.',
);
export const ingestionIdSchema = describe(
  z.string().regex(INGESTION_ID_PATTERN),
  'Name of the cloud message hub: letters, digits, _ - .',
);
export const nameIdSchema = describe(
  z.string().regex(NAME_ID_PATTERN),
  'Lowercase hex SHA-256 of agentId + "_" + deviceId + "_" + name.',
);
export const uidSchema = describe(z.string().regex(UID_PATTERN), 'lowercase(agentId) + "_" + lowercase(deviceId).');
export const metadataSchema = describe(z.record(z.string(), z.unknown()), 'Free-form metadata object.');
export const valueSchema = describe(
  z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.null()]),
  'string, integer, number, boolean, array or null.',
);
const messageIdSchema = describe(uuidSchema, 'Lowercase hex UUID 8-4-4-4-12, globally unique per message.');
const agentIdSchema = describe(
  uuidSchema,
  'The agent (gateway) identity in the cloud message hub: lowercase hex UUID.',
);
const agentTimestampSchema = describe(dateTimeSchema, 'Set by the gateway: ISO 8601 with UTC offset.');
const ingestionTimestampSchema = describe(dateTimeSchema, 'Set by the cloud platform: ISO 8601 with UTC offset.');
const deviceTimestampSchema = describe(
  dateTimeSchema.nullable(),
  'Time the device measured the value; may be null or omitted.',
).optional();
const setByGateway = 'the gateway (edge stage)';
const setByCloud = 'the cloud platform (cloud stage)';

export const baseValueItemSchema = z.strictObject({
  value: valueSchema.default(DEFAULT_VALUE),
  deviceTimestamp: deviceTimestampSchema,
});

/** Edge and cloud: `value` must be written out (the gateway applied the default). */
export const valueItemSchema = z.strictObject({
  value: valueSchema,
  deviceTimestamp: deviceTimestampSchema,
});

const nameSchema = describe(z.string().min(1), 'Name of the data item: at least one character.');
const itemMetadata = metadataSchema.optional();

export const baseDataItemSchema = z.strictObject({
  name: nameSchema,
  nameId: absent(setByCloud),
  metadata: itemMetadata,
  values: z.array(baseValueItemSchema),
});
export const edgeDataItemSchema = z.strictObject({
  name: nameSchema,
  nameId: absent(setByCloud),
  metadata: itemMetadata,
  values: z.array(valueItemSchema),
});
export const cloudDataItemSchema = z.strictObject({
  name: nameSchema,
  nameId: nameIdSchema,
  metadata: itemMetadata,
  values: z.array(valueItemSchema),
});

export const baseMessageSchema = z.strictObject({
  deviceId: deviceIdSchema.optional(),
  agentTimestamp: absent(setByGateway),
  messageId: messageIdSchema,
  messageType: messageTypeSchema.default(DEFAULT_MESSAGE_TYPE),
  messageVersion: messageVersionSchema.default(DEFAULT_MESSAGE_VERSION),
  metadata: metadataSchema.optional(),
  data: z.array(baseDataItemSchema).optional(),
  uid: absent(setByCloud),
  agentId: absent(setByCloud),
  ingestionId: absent(setByCloud),
  ingestionTimestamp: absent(setByCloud),
});

export const edgeMessageSchema = z.strictObject({
  deviceId: deviceIdSchema,
  agentTimestamp: agentTimestampSchema,
  messageId: messageIdSchema,
  messageType: messageTypeSchema,
  messageVersion: messageVersionSchema,
  metadata: metadataSchema.optional(),
  data: z.array(edgeDataItemSchema).optional(),
  uid: absent(setByCloud),
  agentId: absent(setByCloud),
  ingestionId: absent(setByCloud),
  ingestionTimestamp: absent(setByCloud),
});

export const cloudMessageSchema = z.strictObject({
  deviceId: deviceIdSchema,
  agentTimestamp: agentTimestampSchema,
  messageId: messageIdSchema,
  messageType: messageTypeSchema,
  messageVersion: messageVersionSchema,
  metadata: metadataSchema.optional(),
  data: z.array(cloudDataItemSchema).optional(),
  uid: uidSchema,
  agentId: agentIdSchema,
  ingestionId: ingestionIdSchema,
  ingestionTimestamp: ingestionTimestampSchema,
});

export const messageSchemas = {
  base: baseMessageSchema,
  edge: edgeMessageSchema,
  cloud: cloudMessageSchema,
} as const;

// Compile-time proof that what the schemas produce fits the public types of types.ts.
type Fits<A, B> = [A] extends [B] ? true : false;
const proofs: readonly true[] = [
  true satisfies Fits<z.output<typeof valueItemSchema>, ValueItem>,
  true satisfies Fits<z.output<typeof edgeDataItemSchema>, DataItem>,
  true satisfies Fits<z.output<typeof cloudDataItemSchema>, CloudDataItem>,
  true satisfies Fits<z.output<typeof baseMessageSchema>, BaseMessage>,
  true satisfies Fits<z.output<typeof edgeMessageSchema>, EdgeMessage>,
  true satisfies Fits<z.output<typeof cloudMessageSchema>, CloudMessage>,
];
void proofs;
