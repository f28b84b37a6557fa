// The v6 functions (lib/query/catalog/functions-v6-*.ts, series excepted): argument errors at their
// position, the Timestream forms or refusals. Their results on DuckDB are pinned by the conformance
// corpus (test/conformance/cases/fn-v6-*.json).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { LINEAR_UNITS, TEMPERATURE } from '../../../lib/query/catalog/functions-v6-units';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

/** Spellings only DuckDB has (as in catalog-timestream.test.ts). */
const DUCKDB_ONLY = /\b(list_[a-z_]+|to_json|json_type|make_timestamp|regexp_matches|json_object|TRY_CAST|len)\(/;

describe('v6 functions: argument errors', () => {
  it.each([
    ['print r = convert_length("1", "Meter", "Foot")', 'QUERY_SEMANTIC', "argument 'value' must be a", '1:26'],
    ['print r = convert_mass(1, 2, "Pound")', 'QUERY_SEMANTIC', "argument 'from' must be a string", '1:27'],
    ['print r = convert_speed(1, "Knot")', 'QUERY_SEMANTIC', 'convert_speed() takes', '1:11'],
    ['print a = 1 | summarize percentilew(a, 1.5, 50)', 'QUERY_SEMANTIC', 'needs an integer weight, got real', '1:40'],
    ['print a = 1 | summarize percentilew(a, 1, 150)', 'QUERY_SEMANTIC', 'a percentile must be a constant', '1:43'],
    ['print a = 1 | summarize percentilesw(a, 1)', 'QUERY_SEMANTIC', 'percentilesw() takes 3 to any number', '1:25'],
    ['print a = 1 | summarize percentilew(a, 1, 5, 10)', 'QUERY_SEMANTIC', 'percentilew() takes 3 arguments', '1:25'],
    ['print a = parse_command_line("a b", "linux")', 'QUERY_SEMANTIC', 'the only parser_type is "windows"', '1:37'],
    ['print p = punycode_to_string(42)', 'QUERY_SEMANTIC', "argument 'input_string' must be a string", '1:30'],
    ['print h = hash(42)', 'QUERY_SEMANTIC', 'hashing a long is not supported', '1:16'],
    ['print h = hash_xxhash64(dynamic([1]))', 'QUERY_SEMANTIC', "argument 'source' must be a scalar", '1:25'],
    ['print h = hash("a", 1.5)', 'QUERY_SEMANTIC', "argument 'mod' must be an integer", '1:21'],
    [
      'print a = 1 | summarize percentilesw_array(a, 1, 5, 175)',
      'QUERY_SEMANTIC',
      'a percentile must be a constant between 0 and 100',
      '1:53',
    ],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('v6 functions: unit conversions', () => {
  it('lists as many units per quantity as the Kusto pages do', () => {
    // Assess
    const counts = Object.fromEntries(Object.entries(LINEAR_UNITS).map(([q, f]) => [q, Object.keys(f).length]));
    expect(counts).toEqual({ ANGLE: 15, ENERGY: 36, FORCE: 15, LENGTH: 36, MASS: 25, SPEED: 32, VOLUME: 52 });
    expect(Object.keys(TEMPERATURE)).toHaveLength(10);
  });

  it('resolves constant unit names at compile time and answers null for an unknown one', () => {
    // Act
    const known = compile("print r = convert_length(1.2, 'Meter', 'Foot')", duck).sql;
    const unknown = compile("print r = convert_length(1.2, 'Meter', 'Furlong')", duck).sql;
    // Assess
    expect(known).toContain('/ 0.3048E0)');
    expect(known).not.toContain('CASE');
    expect(unknown).toContain('CAST(NULL AS DOUBLE)');
  });

  it('writes the conversions for Timestream with the same arithmetic', () => {
    // Act
    const sql = compile(
      "print u = 'Tilt' | project a = convert_angle(0.5, u, 'Degree'), t = convert_temperature(1, 'Kelvin', 'DegreeFahrenheit')",
      ts,
    ).sql;
    // Assess
    expect(sql).toContain('degrees(asin(');
    expect(sql).toContain("WHEN 'Radian' THEN");
    expect(sql).not.toMatch(DUCKDB_ONLY);
  });
});

describe('v6 functions: erf and erfc', () => {
  it('writes them for Timestream with its lambda and NaN spellings', () => {
    // Act
    const sql = compile('print e = erf(0.5), c = erfc(-2)', ts).sql;
    // Assess
    expect(sql).toContain('element_at(transform(ARRAY[');
    expect(sql).toContain('is_nan(');
    expect(sql).not.toMatch(DUCKDB_ONLY);
  });

  it('keeps the SQL of one call under 8 KB', () => {
    // Act
    const one = compile('print c = erfc(0.5)', duck).sql;
    // Assess
    expect(one.length).toBeLessThan(8000);
  });
});

describe('v6 functions: Timestream refusals', () => {
  it.each([
    ['print a = 1 | summarize percentilew(a, 1, 50)', 'percentilew'],
    ['print a = 1 | summarize percentilesw(a, 1, 50, 90)', 'percentilew'],
    ['print a = 1 | summarize percentilesw_array(a, 1, 50, 90)', 'percentilesw_array'],
    ['print h = hash("World")', 'hash'],
    ['print p = punycode_from_string("münchen")', 'punycode_from_string'],
    ['print p = punycode_domain_from_string("xn--mnchen-3ya.de")', 'punycode_domain_from_string'],
    ['print a = parse_command_line("a b", "windows")', 'parse_command_line'],
    ['print h = hash_xxhash64(now(), 10)', 'hash_xxhash64'],
  ])('refuses %s on Timestream naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the`);
  });
});
