// docs/kql-functions.md is generated from the function catalog: this fails when the committed page
// is stale (run `npm run docs:kql`), and checks the catalog's own consistency.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderFunctionDocs } from '../../../lib/query/catalog/docs';
import { AGGREGATE_CATALOG, lookupAggregate, lookupScalar, SCALAR_CATALOG } from '../../../lib/query/catalog/index';

const page = path.resolve(import.meta.dirname, '../../../docs/kql-functions.md');

describe('function catalog', () => {
  it('matches the committed docs/kql-functions.md (regenerate with npm run docs:kql)', () => {
    // Act
    const rendered = renderFunctionDocs();
    // Assess
    expect(readFileSync(page, 'utf8')).toBe(rendered);
  });

  it('lists every scalar function and aggregation of the catalog on the page', () => {
    const text = renderFunctionDocs();
    for (const e of [...SCALAR_CATALOG, ...AGGREGATE_CATALOG]) expect(text, e.name).toContain(`\`${e.name}\``);
  });

  it('finds entries by name and by alias', () => {
    expect(lookupScalar('pack')?.name).toBe('bag_pack');
    expect(lookupScalar('monthofyear')?.name).toBe('getmonth');
    expect(lookupAggregate('dcountif')?.name).toBe('dcountif');
    expect(lookupScalar('no_such_function')).toBeUndefined();
  });

  it('gives every entry at least one signature and a DuckDB spelling', () => {
    for (const e of [...SCALAR_CATALOG, ...AGGREGATE_CATALOG]) {
      expect(e.signatures.length, e.name).toBeGreaterThan(0);
      expect(typeof e.duckdb, e.name).toBe('function');
    }
  });
});
