import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_FILES, messageSchemas, STAGES, validateMessage } from '../../../lib/gdm';
import { renderJsonSchema } from '../../../lib/gdm/json-schema';
import { committedAjvValidators, COMMITTED_SCHEMA_DIR, loadCorpus } from './corpus';

describe('committed JSON Schemas', () => {
  it.each(STAGES)('schemas/release-01 file of stage %s equals what the zod schemas generate', (stage) => {
    // Prepare
    const committed = readFileSync(path.join(COMMITTED_SCHEMA_DIR, JSON_SCHEMA_FILES[stage]), 'utf8');
    // Act
    const generated = renderJsonSchema(stage);
    // Assess
    expect(committed, 'stale: run npx tsx lib/gdm/generate-json-schemas.ts').toBe(generated);
  });
});

describe('corpus test/fixtures/gdm', () => {
  const corpus = loadCorpus();
  const ajv = committedAjvValidators();

  it('holds valid and invalid cases for every stage', () => {
    for (const stage of STAGES) {
      expect(corpus.some((c) => c.stage === stage && c.valid)).toBe(true);
      expect(corpus.some((c) => c.stage === stage && !c.valid)).toBe(true);
    }
  });

  it.each(corpus.map((c) => [c.file, c] as const))('%s: zod and ajv give the same verdict', (_file, c) => {
    // Act
    const zodVerdict = messageSchemas[c.stage].safeParse(c.message).success;
    const ajvVerdict = ajv[c.stage](c.message);
    // Assess
    expect(ajvVerdict).toBe(zodVerdict);
    expect(zodVerdict).toBe(c.jsonSchemaValid ?? c.valid);
  });

  it.each(corpus.map((c) => [c.file, c] as const))(
    '%s: validateMessage reports exactly the expected errors and warnings',
    (_file, c) => {
      // Act
      const result = validateMessage(c.message, c.stage);
      // Assess
      expect(result.ok).toBe(c.valid);
      const key = (e: { readonly path: string; readonly code: string }): string => `${e.path} ${e.code}`;
      expect(result.errors.map(key).sort()).toEqual(c.errors.map(key).sort());
      if (c.warnings !== undefined) expect(result.warnings.map((w) => w.code)).toEqual(c.warnings);
      for (const e of result.errors) expect(e.message.length).toBeGreaterThan(20);
    },
  );
});
