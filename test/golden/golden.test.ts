// Golden tests: test/golden/<case>/input.kql compiles to duckdb.sql and timestream.sql, and the DuckDB
// SQL run on the fixture dataset gives rows.json. Each input.kql names the Kusto documentation page of
// the rule it pins in a leading comment. A missing expected file FAILS the case: writing it from the
// compiler's own output would let a new case pass unreviewed. UPDATE_GOLDEN=1 (re-)records the SQL files;
// UPDATE_GOLDEN=rows also (re-)records rows.json (review every change: expected rows are checked by hand
// against Kusto's rules).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, QueryError, type CompileOptions, type KqlType } from '../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from './fixture-db';

const root = path.dirname(fileURLToPath(import.meta.url));
const update = process.env.UPDATE_GOLDEN;
const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

interface ExpectedRows {
  readonly ordered: boolean;
  readonly columns: readonly { name: string; type: KqlType }[];
  readonly rows: readonly unknown[][];
}

function options(dir: string, dialect: CompileOptions['dialect']): CompileOptions {
  const file = path.join(dir, 'options.json');
  const scope = existsSync(file)
    ? { ...GOLDEN_OPTIONS.scope, ...(JSON.parse(readFileSync(file, 'utf8')) as object) }
    : GOLDEN_OPTIONS.scope;
  return { ...GOLDEN_OPTIONS, scope, dialect };
}

/** Throws (fails the case) when `file` is absent and no UPDATE_GOLDEN value asks for it to be written. */
function readExpected(file: string, writeWith: 'SQL' | 'rows'): string {
  if (!existsSync(file)) {
    const flag = writeWith === 'SQL' ? 'UPDATE_GOLDEN=1' : 'UPDATE_GOLDEN=rows';
    throw new Error(`${path.relative(root, file)} is missing: record it with ${flag}, then review it`);
  }
  return readFileSync(file, 'utf8');
}

function checkText(file: string, actual: string): void {
  if (update) writeFileSync(file, actual + '\n');
  expect(actual + '\n').toBe(readExpected(file, 'SQL'));
}

function compileOrRefusal(kql: string, o: CompileOptions): ReturnType<typeof compile> | { readonly refusal: string } {
  try {
    return compile(kql, o);
  } catch (error) {
    if (error instanceof QueryError && error.code === 'QUERY_UNSUPPORTED')
      return { refusal: `${error.code} ${error.message}` };
    throw error;
  }
}

const canonical = (rows: readonly unknown[][]): string[] => rows.map((r) => JSON.stringify(r)).sort();

describe('golden KQL cases', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    it(name, async () => {
      // Prepare
      const dir = path.join(root, name);
      const kql = readFileSync(path.join(dir, 'input.kql'), 'utf8');
      // Act
      const duck = compile(kql, options(dir, 'duckdb'));
      const stream = compileOrRefusal(kql, options(dir, 'timestream'));
      const rows = convertRows(
        await runSql(db, duck.sql),
        duck.columns.map((c) => c.type),
      );
      // Assess
      checkText(path.join(dir, 'duckdb.sql'), duck.sql);
      // A construct refused on Timestream (mv-expand) pins its positioned message instead of SQL.
      if ('refusal' in stream) checkText(path.join(dir, 'timestream.error'), stream.refusal);
      else {
        checkText(path.join(dir, 'timestream.sql'), stream.sql);
        expect(stream.columns).toEqual(duck.columns);
      }
      const rowsFile = path.join(dir, 'rows.json');
      const ordered = /\b(sort|order|top)\b/.test(kql.replace(/\/\/.*$/gm, ''));
      if (update === 'rows') {
        writeFileSync(rowsFile, JSON.stringify({ ordered, columns: duck.columns, rows }, null, 2) + '\n');
      }
      const expected = JSON.parse(readExpected(rowsFile, 'rows')) as ExpectedRows;
      expect(duck.columns).toEqual(expected.columns);
      if (expected.ordered) expect(rows).toEqual(expected.rows);
      else expect(canonical(rows)).toEqual(canonical(expected.rows));
    });
  }
});
