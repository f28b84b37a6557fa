// Writes schemas/release-01/gdm-{base,edge,cloud}.json from the zod schemas.
// Run: npx tsx lib/gdm/generate-json-schemas.ts   (test/unit/gdm/json-schema.test.ts fails when stale)
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSON_SCHEMA_FILES, renderJsonSchema } from './json-schema';
import { SCHEMA_RELEASE, STAGES } from './rules';

/** Directory of the committed JSON Schemas, relative to this file. */
export const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas', SCHEMA_RELEASE);

export async function writeJsonSchemas(dir = SCHEMA_DIR): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const stage of STAGES) {
    const file = path.join(dir, JSON_SCHEMA_FILES[stage]);
    await writeFile(file, renderJsonSchema(stage));
    written.push(file);
  }
  return written;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of await writeJsonSchemas()) console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
