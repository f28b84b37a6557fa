// `npm run package`'s verdict per function: size, DuckDB, and the source-map flag without maps.
import { describe, expect, it } from 'vitest';
import { MAX_ZIP_BYTES, packageProblems, renderReport, type FunctionPackage } from '../../../infra/package/report';

const fine: FunctionPackage = {
  functionKey: 'health',
  zipBytes: 400_000,
  unzippedBytes: 1_400_000,
  files: ['functions/health/handler.cjs'],
  duckdb: [],
  sourceMaps: [],
  enableSourceMaps: false,
};

describe('package report', () => {
  it('passes a small zip without DuckDB, maps or the flag', () => {
    expect(packageProblems(fine)).toEqual([]);
    expect(renderReport({ dir: '/tmp/x', templateFile: '/tmp/x/t.json', packages: [fine] })).toMatchObject({
      ok: true,
      text: expect.stringContaining('source maps: in 0 of 1 zips; NODE_OPTIONS --enable-source-maps in 0'),
    });
  });

  it('fails --enable-source-maps without a map, a zip of 1 MB and DuckDB inside', () => {
    expect(packageProblems({ ...fine, enableSourceMaps: true })).toEqual([
      'NODE_OPTIONS has --enable-source-maps but the zip has no source map',
    ]);
    expect(
      packageProblems({ ...fine, enableSourceMaps: true, sourceMaps: ['functions/health/handler.cjs.map'] }),
    ).toEqual([]);
    expect(
      packageProblems({ ...fine, zipBytes: MAX_ZIP_BYTES, duckdb: ['node_modules/@duckdb/node-api/x.js'] }),
    ).toEqual(['1 MB or more of code', 'DuckDB inside: node_modules/@duckdb/node-api/x.js']);
  });

  it("leaves the playground's static files out of the 1 MB, not out of the upload limit", () => {
    const assets = { ...fine, zipBytes: 8 * MAX_ZIP_BYTES, staticZipBytes: 7.5 * MAX_ZIP_BYTES };
    expect(packageProblems(assets)).toEqual([]);
    expect(packageProblems({ ...assets, staticZipBytes: 6.5 * MAX_ZIP_BYTES })).toEqual(['1 MB or more of code']);
    expect(packageProblems({ ...assets, zipBytes: 50 * MAX_ZIP_BYTES, staticZipBytes: 50 * MAX_ZIP_BYTES })).toEqual([
      '50 MB or more (Lambda direct upload limit)',
    ]);
    expect(
      renderReport({ dir: '/tmp/x', templateFile: '/tmp/x/t.json', packages: [{ ...fine, enableSourceMaps: true }] })
        .ok,
    ).toBe(false);
  });
});
