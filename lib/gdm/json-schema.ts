// JSON Schemas (draft 2020-12) of the three stages, generated from the zod schemas. They describe
// what a validator accepts (zod's "input" side): fields with a base-stage default are optional there.
// The uid and nameId derivations are beyond JSON Schema; validateMessage checks them in addition.
import * as z from 'zod';
import { SCHEMA_RELEASE, type Stage } from './rules';
import { messageSchemas } from './schemas';

export const JSON_SCHEMA_FILES: Readonly<Record<Stage, string>> = {
  base: 'gdm-base.json',
  edge: 'gdm-edge.json',
  cloud: 'gdm-cloud.json',
};

const DESCRIPTIONS: Readonly<Record<Stage, string>> = {
  base: 'A GDM message as machines and modules produce it, before it reaches the gateway.',
  edge: 'A GDM message as the gateway (agent) publishes it: deviceId and agentTimestamp set.',
  cloud: 'A GDM message after cloud ingestion: uid, agentId, ingestionId, ingestionTimestamp and nameId set.',
};

/** The JSON Schema of one stage as a plain object. */
export function jsonSchemaFor(stage: Stage): Record<string, unknown> {
  const generated = z.toJSONSchema(messageSchemas[stage], { target: 'draft-2020-12', io: 'input' });
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: `urn:industrial-insights:gdm:${SCHEMA_RELEASE}:${stage}`,
    title: `GDM ${stage} message (${SCHEMA_RELEASE})`,
    description: `${DESCRIPTIONS[stage]} Generated from lib/gdm/schemas.ts by lib/gdm/generate-json-schemas.ts; do not edit.`,
    ...rest,
  };
}

/** The exact text committed under schemas/release-01/ (2-space indent, trailing newline). */
export function renderJsonSchema(stage: Stage): string {
  return `${JSON.stringify(jsonSchemaFor(stage), null, 2)}\n`;
}
