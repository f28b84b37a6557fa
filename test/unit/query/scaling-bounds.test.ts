// The run-time bound of the punycode functions (lib/query/catalog/functions-v6-punycode.ts): their
// fold costs milliseconds per character on one value, which DuckDB cannot interrupt, so a text over
// PUNYCODE_MAX_CHARACTERS is an engine error that the adapter answers as a 400 naming the bound.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineError } from '../../../lib/adapters/duckdb/engine-errors';
import { PUNYCODE_MAX_CHARACTERS } from '../../../lib/query/catalog/functions-v6-punycode';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };
const FUNCTIONS = [
  ['punycode_from_string', '"ä"'],
  ['punycode_to_string', '"a"'],
  ['punycode_domain_to_string', '"ä"'],
  ['punycode_domain_from_string', '"a"'],
] as const;

describe('punycode functions: the bound on the text', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it.each(FUNCTIONS)(
    '%s refuses a text one character over the bound, naming the function and the bound',
    async (name, unit) => {
      // Act
      const failure = await run(`print x = ${name}(strrep(${unit}, ${PUNYCODE_MAX_CHARACTERS + 1}))`).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      // Assess
      expect(failure).toBeInstanceOf(Error);
      expect(failure!.message).toContain(`${name}(): the text has more than ${PUNYCODE_MAX_CHARACTERS} characters`);
    },
  );

  it.each(FUNCTIONS)('%s still computes a text at the bound', async (name, unit) => {
    // Act
    const rows = await run(`print x = strlen(${name}(strrep(${unit}, ${PUNYCODE_MAX_CHARACTERS})))`);
    // Assess
    expect(rows).toHaveLength(1);
    expect(String(rows[0]![0])).toMatch(/^\d+$/); // a length (a BIGINT, as text), not null
  });

  it('reaches the client as a 400 data error carrying the message', async () => {
    // Prepare
    const failure = await run(`print x = punycode_from_string(strrep("ä", ${PUNYCODE_MAX_CHARACTERS + 1}))`).catch(
      (e: unknown) => e,
    );
    // Act
    const mapped = engineError(failure, '1GB') as { code?: string; message?: string };
    // Assess
    expect(mapped.code).toBe('QUERY_DATA_ERROR');
    expect(mapped.message).toContain(
      `punycode_from_string(): the text has more than ${PUNYCODE_MAX_CHARACTERS} characters`,
    );
  });
});
