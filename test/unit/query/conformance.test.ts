// Runs the conformance corpus (test/conformance/cases/*.json: examples from the Kusto documentation,
// each with its source page and expected result) through compile() and DuckDB. The same cases are
// meant to run through the HTTP endpoint later, so a case only holds engine-neutral data: the query,
// the expected columns (name + KQL type) and rows as the API returns them, or the expected error.
// A case marked `knownGap` documents a behaviour the engine does not match yet: it must still fail,
// so that a fix is noticed (then drop the mark).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertRows, QueryError } from '../../../lib/query/index';
import { canonical, caseName, loadCases, type ConformanceCase } from '../../conformance/cases';
import { compileWithKeys } from '../../conformance/discover';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const cases = loadCases();

describe('conformance corpus (Kusto documentation examples)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('holds at least 1,000 well-formed cases, each citing a Kusto documentation page', () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    for (const { file, c } of cases) {
      // The query pages, or the functions library's (user functions written in KQL, with printed results);
      // an example only an older or another product's copy of a page prints cites that copy (any locale).
      expect(c.source, file).toMatch(
        /^https:\/\/(learn\.microsoft\.com\/en-us\/kusto\/(query|functions-library)\/|(docs|learn)\.microsoft\.com\.?\/[a-z]{2}-[a-z]{2}\/)/,
      );
      expect(typeof c.title, file).toBe('string');
      expect(c.expected === undefined, `${file}: exactly one of expected and error`).toBe(c.error !== undefined);
    }
  });

  async function check(c: ConformanceCase): Promise<void> {
    const table = c.resultTable === undefined ? {} : { resultTable: c.resultTable };
    const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const, ...table };
    if (c.error) {
      // Act
      const thrown = await compileWithKeys(db, c.query, options).then(
        () => undefined,
        (e: unknown) => e,
      );
      // Assess
      expect(thrown).toBeInstanceOf(QueryError);
      const error = thrown as QueryError;
      expect(error.code).toBe(c.error.code);
      expect(error.message).toMatch(/^\d+:\d+: /);
      if (c.error.messageIncludes) expect(error.message).toContain(c.error.messageIncludes);
      return;
    }
    // Act
    const compiled = await compileWithKeys(db, c.query, options);
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((x) => x.type),
    );
    // Assess
    expect(compiled.columns).toEqual(c.expected!.columns);
    if (c.ordered) expect(rows).toEqual(c.expected!.rows);
    else expect(canonical(rows)).toEqual(canonical(c.expected!.rows));
  }

  for (const { file, c } of cases) {
    const name = caseName(file, c);
    if (c.knownGap) it.fails(`[known gap: ${c.knownGap}] ${name}`, () => check(c));
    else it(name, () => check(c));
  }
});
