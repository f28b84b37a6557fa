// Runs the conformance corpus (test/conformance/cases/*.json: examples from the Kusto documentation,
// each with its source page and expected result) through compile() and DuckDB. The same cases are
// meant to run through the HTTP endpoint later.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type KqlType } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

interface ConformanceCase {
  readonly source: string;
  readonly query: string;
  readonly ordered: boolean;
  readonly expected: { readonly columns: readonly { name: string; type: KqlType }[]; readonly rows: readonly unknown[][] };
}

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../conformance/cases');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const canonical = (rows: readonly unknown[][]): string[] => rows.map((r) => JSON.stringify(r)).sort();

describe('conformance corpus (Kusto documentation examples)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  for (const file of files) {
    const c = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ConformanceCase;
    it(`${file} (${c.source})`, async () => {
      // Act
      const compiled = compile(c.query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
      const rows = convertRows(await runSql(db, compiled.sql), compiled.columns.map((x) => x.type));
      // Assess
      expect(compiled.columns).toEqual(c.expected.columns);
      if (c.ordered) expect(rows).toEqual(c.expected.rows);
      else expect(canonical(rows)).toEqual(canonical(c.expected.rows));
    });
  }
});
