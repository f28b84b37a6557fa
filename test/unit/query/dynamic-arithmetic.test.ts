// Arithmetic with dynamic operands (lib/query/dynamic-arithmetic.ts): the result types are those
// Microsoft's Kusto.Language gives (probed with its Bridge.NET build, recorded in the table below),
// the values those of the conversion the type implies (tolong, todouble, todecimal, totimespan);
// the pairs Kusto.Language refuses stay refused at the operator, on both engines.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type KqlType } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const D = 'print d = dynamic({"a": 2, "b": 2.5, "s": "3", "neg": -7, "z": 0, "arr": [1], "ts": "01:00:00"})';

/** The type of `y` in `D | project y = <expr>` on a dialect. */
const typeOf = (expr: string, dialect: 'duckdb' | 'timestream' = 'duckdb'): KqlType =>
  compile(`${D} | project y = ${expr}`, { ...baseOptions, dialect }).columns[0]!.type;

// Kusto.Language's result types (KustoCode.ParseAndAnalyze; the type beside the dynamic, either side).
const TYPED: readonly (readonly [string, KqlType])[] = [
  ['int(1)', 'long'],
  ['long(1)', 'long'],
  ['real(1)', 'real'],
  ['decimal(1)', 'decimal'],
];

describe('arithmetic with a dynamic operand: types', () => {
  for (const op of ['+', '-', '*', '/', '%']) {
    for (const [other, type] of TYPED) {
      it(`dynamic ${op} ${other} and ${other} ${op} dynamic are ${type}`, () => {
        expect(typeOf(`d.a ${op} ${other}`)).toBe(type);
        expect(typeOf(`${other} ${op} d.a`)).toBe(type);
      });
    }
    it(`dynamic ${op} dynamic is dynamic`, () => {
      expect(typeOf(`d.a ${op} d.b`)).toBe('dynamic');
    });
  }

  it('types a negated dynamic dynamic and a chain by its typed operand', () => {
    expect(typeOf('-d.a')).toBe('dynamic');
    expect(typeOf('+d.a')).toBe('dynamic');
    expect(typeOf('-d.a + 1')).toBe('long');
    expect(typeOf('-(d.a + 1)')).toBe('long');
    expect(typeOf('d.a * 1.8 + 32')).toBe('real');
  });

  it('types a dynamic beside a timespan timespan and added to a datetime datetime', () => {
    expect(typeOf('d.ts + 1h')).toBe('timespan');
    expect(typeOf('1h - d.ts')).toBe('timespan');
    expect(typeOf('d.ts + datetime(2020-01-01)')).toBe('datetime');
    expect(typeOf('datetime(2020-01-01) + d.ts')).toBe('datetime');
  });

  it('types datetime - dynamic and dynamic - datetime timespan, as Kusto.Language does', () => {
    expect(typeOf('datetime(2020-01-01) - d.ts')).toBe('timespan');
    expect(typeOf('d.a - datetime(2020-01-01)')).toBe('timespan');
  });

  it('types iff and case by their typed branches, all dynamic branches dynamic', () => {
    expect(typeOf('iff(true, d.a, 1)')).toBe('long');
    expect(typeOf('iff(true, 1, d.a)')).toBe('long');
    expect(typeOf('iff(true, d.a, int(1))')).toBe('int');
    expect(typeOf('iff(true, d.a, 1.5)')).toBe('real');
    expect(typeOf('iff(true, d.s, "x")')).toBe('string');
    expect(typeOf('iff(true, d.a, d.b)')).toBe('dynamic');
    expect(typeOf('case(true, d.a, false, 1, 2.5)')).toBe('real');
    expect(typeOf('case(true, int(1), false, d.a, d.a)')).toBe('int');
  });

  it('gives the same types on Timestream', () => {
    expect(typeOf('d.a + 1', 'timestream')).toBe('long');
    expect(typeOf('d.a * 1.8', 'timestream')).toBe('real');
    expect(typeOf('d.a + d.b', 'timestream')).toBe('dynamic');
    expect(typeOf('-d.a', 'timestream')).toBe('dynamic');
  });
});

describe('arithmetic with a dynamic operand: refusals', () => {
  const duck = { ...baseOptions, dialect: 'duckdb' as const };
  const at = (query: string, message: string, column: number): void =>
    expectRefusedAt(`${D} | project y = ${query}`, duck, {
      code: 'QUERY_SEMANTIC',
      message,
      position: `1:${D.length + 15 + column}`,
    });

  it('refuses at the operator the pairs Kusto.Language refuses (KS106)', () => {
    at('d.a * 1h', "operator '*' cannot be applied to dynamic and timespan; convert the dynamic value first", 5);
    at('d.a / datetime(2020-01-01)', "operator '/' cannot be applied to dynamic and datetime", 5);
    at('1h % d.a', "operator '%' cannot be applied to timespan and dynamic", 4);
    at('d.a + "x"', "operator '+' cannot be applied to dynamic and string", 5);
    at('d.a + true', "operator '+' cannot be applied to dynamic and bool", 5);
  });

  it.each([
    // string + string is refused too: only strcat joins them.
    [
      'd.a + "x"',
      "operator '+' cannot be applied to dynamic and string; convert the dynamic value first, e.g. strcat(tostring(...), ...)",
    ],
    // real * timespan and timespan / timespan, timespan % timespan are defined; real / timespan is not.
    [
      'd.a * 1h',
      "operator '*' cannot be applied to dynamic and timespan; convert the dynamic value first, e.g. todouble(...)",
    ],
    [
      '1h / d.a',
      "operator '/' cannot be applied to timespan and dynamic; convert the dynamic value first, e.g. totimespan(...)",
    ],
    [
      'd.a % 1h',
      "operator '%' cannot be applied to dynamic and timespan; convert the dynamic value first, e.g. totimespan(...)",
    ],
    // No conversion of the dynamic makes these valid: the refusal alone.
    ['d.a * datetime(2020-01-01)', "operator '*' cannot be applied to dynamic and datetime"],
    ['d.a + true', "operator '+' cannot be applied to dynamic and bool"],
    ['d.a * "x"', "operator '*' cannot be applied to dynamic and string"],
    ['d.a + guid(00000000-0000-0000-0000-000000000000)', "operator '+' cannot be applied to dynamic and guid"],
  ])('suggests only a rewrite that is accepted: %s', (query, message) => {
    // Act
    const error = compileFailure(`${D} | project y = ${query}`, duck);
    // Assess: the whole message, so that a hint where none works fails.
    expect(error.message.slice(error.message.indexOf(' ') + 1)).toBe(message);
  });

  it('accepts the rewrites the refusals suggest', () => {
    for (const q of [
      'strcat(tostring(d.a), "x")',
      'todouble(d.a) * 1h',
      '1h / totimespan(d.a)',
      'totimespan(d.a) % 1h',
    ])
      expect(() => compile(`${D} | project y = ${q}`, duck), q).not.toThrow();
  });

  it('keeps refusing the functions and aggregations Kusto.Language refuses of a dynamic', () => {
    for (const q of ['round(d.a)', 'abs(d.a)', 'bin(d.a, 10)', 'floor(d.a, 1)', 'min_of(d.a, 1)', 'coalesce(d.a, 1)'])
      expect(() => compile(`${D} | project y = ${q}`, duck), q).toThrow(/dynamic/);
    for (const q of ['round(d.a, 2)', 'abs(d.a)', 'bin(d.a, 10)'])
      expect(() => compile(`${D} | project y = ${q}`, duck), q).toThrow(
        /got dynamic; convert it first, e\.g\. todouble/,
      );
    for (const q of ['sum(d.a)', 'avg(d.a)', 'min(d.a)', 'max(d.a)', 'stdev(d.a)'])
      expect(() => compile(`${D} | summarize ${q}`, duck), q).toThrow(/dynamic/);
  });

  it('refuses iff/case whose typed branches have no common type', () => {
    at('case(true, d.a, false, 1, "x")', 'the values have incompatible types: dynamic, long, string', 1);
  });
});

describe('arithmetic with a dynamic operand: values on DuckDB', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const values = async (...exprs: string[]): Promise<unknown[]> => {
    const c = compile(`${D} | project ${exprs.map((e, i) => `c${i} = ${e}`).join(', ')}`, {
      ...GOLDEN_OPTIONS,
      dialect: 'duckdb',
    });
    const rows = convertRows(
      await runSql(db, c.sql),
      c.columns.map((x) => x.type),
    );
    return rows[0]!;
  };

  it('converts the dynamic beside a typed operand as tolong/todouble do', async () => {
    // Act
    const got = await values(
      'd.a + 1',
      'd.b + 1',
      'd.s + 1',
      'd.b * 1.8 + 32',
      'd.arr + 1',
      'd.missing + 1',
      'd.neg % 3',
    );
    // Assess: 2.5 is truncated to 2 by the long type; a string holding a number converts; an array is null
    expect(got).toEqual([3, 3, 4, 36.5, null, null, 2]);
  });

  it('gives what the explicit conversion gives', async () => {
    // Act
    const [implicit, explicit, realImplicit, realExplicit] = await values(
      'd.b * 3 - 1',
      'tolong(d.b) * 3 - 1',
      'd.b * 3.0 - 1',
      'todouble(d.b) * 3.0 - 1',
    );
    // Assess
    expect(implicit).toBe(explicit);
    expect(realImplicit).toBe(realExplicit);
  });

  it('keeps two JSON integers integral and anything else real when both operands are dynamic', async () => {
    // Act
    const got = await values(
      'd.a + d.a',
      'd.neg / d.a',
      'd.neg % d.a',
      'd.a + d.b',
      'd.a * d.b',
      'd.a / d.z',
      'd.b / d.z',
      'd.a + d.arr',
    );
    // Assess: Kusto's integer division truncates and its % is never negative; integer / 0 is null, real / 0 infinity
    expect(got).toEqual([4, -3, 1, 4.5, 5, null, 'Infinity', null]);
  });

  it('negates a dynamic keeping its kind', async () => {
    // Act
    const got = await values('-d.a', '-d.b', '-d.missing', 'gettype(-d.a)', 'gettype(-d.b)');
    // Assess
    expect(got).toEqual([-2, -2.5, null, 'int', 'real']);
  });

  it('converts a dynamic beside a datetime or timespan as totimespan does', async () => {
    // Act
    const got = await values('datetime(2020-01-01) + d.ts', 'd.ts + 1h', '1h - d.ts');
    // Assess
    expect(got).toEqual(['2020-01-01T01:00:00Z', '02:00:00', '00:00:00']);
  });

  it('subtracts a dynamic datetime from a datetime and the reverse as todatetime converts it', async () => {
    // Act
    const got = await values(
      'datetime(2020-01-02) - dynamic("2020-01-01")',
      'dynamic("2020-01-03T12:00:00Z") - datetime(2020-01-01)',
      'datetime(2020-01-02) - d.missing',
    );
    // Assess
    expect(got).toEqual(['1.00:00:00', '2.12:00:00', null]);
  });

  it('converts a dynamic branch of iff and case to the typed branches type', async () => {
    // Act
    const got = await values('iff(true, d.b, 1)', 'iff(true, d.b, 1.5)', 'case(false, 1, d.s)', 'iff(true, d.a, d.b)');
    // Assess
    expect(got).toEqual([2, 2.5, 3, 2]);
  });

  it('filters on arithmetic of a member, as users write it', async () => {
    // Act
    const [y] = await values('d.a > 1 and d.a * 2 < 100');
    // Assess
    expect(y).toBe(true);
  });
});
