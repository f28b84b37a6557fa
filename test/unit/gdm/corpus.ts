// Loads the GDM corpus (test/fixtures/gdm/*.json) and builds ajv validators of the committed JSON
// Schemas, shared by the corpus and property tests.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Stage } from '../../../lib/gdm';

export interface CorpusCase {
  readonly file: string;
  readonly description: string;
  readonly stage: Stage;
  /** The verdict of validateMessage. */
  readonly valid: boolean;
  /** The verdict of the zod schemas and JSON Schemas when it differs (uid/nameId derivations). */
  readonly jsonSchemaValid?: boolean;
  readonly errors: readonly { readonly path: string; readonly code: string }[];
  readonly warnings?: readonly string[];
  readonly message: unknown;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../../..');
export const CORPUS_DIR = path.join(REPO_ROOT, 'test/fixtures/gdm');
export const COMMITTED_SCHEMA_DIR = path.join(REPO_ROOT, 'schemas/release-01');

export function loadCorpus(): CorpusCase[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({
      file,
      ...(JSON.parse(readFileSync(path.join(CORPUS_DIR, file), 'utf8')) as Omit<CorpusCase, 'file'>),
    }));
}

/** ajv (draft 2020-12, strict, with formats) validators of the committed schema files. */
export function committedAjvValidators(): Readonly<Record<Stage, (data: unknown) => boolean>> {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const load = (stage: Stage) => {
    const schema = JSON.parse(readFileSync(path.join(COMMITTED_SCHEMA_DIR, `gdm-${stage}.json`), 'utf8')) as object;
    const validate = ajv.compile(schema);
    return (data: unknown): boolean => validate(data);
  };
  return { base: load('base'), edge: load('edge'), cloud: load('cloud') };
}
