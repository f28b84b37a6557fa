// Result types of operators and functions checked against Kusto.Language (Microsoft's type checker,
// probed over every catalog function and operator pair; docs/query-api.md "The language"), with the
// values they give on DuckDB where the type change could change one.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type KqlType } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const D =
  'datatable(i:int, r:real, m:decimal, g:guid, s:string)[int(-2147483648), 2.5, decimal(1.5), guid(74be27de-1e4e-49d9-b579-fe0b331d3642), "abc", int(null), real(null), decimal(null), guid(null), "74BE27DE-1E4E-49D9-B579-FE0B331D3642"]';
const duck = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };

/** The type of `y` in `D | project y = <expr>`. */
const typeOf = (expr: string): KqlType => compile(`${D} | project y = ${expr}`, duck).columns[0]!.type;

describe('result types as Kusto.Language gives them', () => {
  it('types -x of an int column long, a negated int literal int', () => {
    expect(typeOf('-i')).toBe('long');
    expect(typeOf('-int(5)')).toBe('int');
  });

  it('types -x of an int that reads no column int, as Kusto.Language types -toint(1)', () => {
    // It was long: only a literal stayed int.
    expect(typeOf('-toint(1)')).toBe('int');
    expect(typeOf('-hourofday(datetime(2024-01-01 05:00))')).toBe('int');
    expect(typeOf('-toint(i)')).toBe('long');
  });

  it('types bin and floor of an int by an int long, other pairs their wider type', () => {
    expect(typeOf('bin(i, int(3))')).toBe('long');
    expect(typeOf('floor(i, int(3))')).toBe('long');
    expect(typeOf('bin(i, int(0))')).toBe('long');
    expect(typeOf('bin(i, 2.5)')).toBe('real');
  });

  it('types a real beside a decimal decimal, in arithmetic and in branch functions', () => {
    for (const e of ['r + m', 'm * r', 'r % m', 'min_of(r, m)', 'max_of(m, r)', 'coalesce(r, m)', 'iff(true, r, m)'])
      expect(typeOf(e), e).toBe('decimal');
    expect(typeOf('r + 1')).toBe('real');
  });
});

describe('datatable int columns', () => {
  it('refuses a long beyond 32 bits at the value, keeps the int range', () => {
    // It compiled to a cast the engine failed on (an internal error).
    expect(() => compile('datatable(x:int)[1, 2147483648]', duck)).toThrow(
      /1:21: 2147483648 does not fit an int column/,
    );
    expect(() => compile('datatable(x:int)[-2147483649]', duck)).toThrow(/does not fit an int column/);
    expect(compile('datatable(x:int)[-2147483648, 2147483647]', duck).columns[0]!.type).toBe('int');
  });
});

describe('values of the retyped operators on DuckDB', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const rows = async (project: string): Promise<unknown[][]> => {
    const c = compile(`${D} | project ${project}`, duck);
    return convertRows(
      await runSql(db, c.sql),
      c.columns.map((x) => x.type),
    ) as unknown[][];
  };

  it('negates the smallest int without overflow', async () => {
    expect(await rows('y = -i')).toEqual([[2147483648], [null]]);
  });

  it('negates an int constant that is no literal without overflow', async () => {
    expect(await rows('y = -toint(5), z = -toint(-2147483648)')).toEqual([
      [-5, 2147483648],
      [-5, 2147483648],
    ]);
  });

  it('bins the smallest int below it without overflow', async () => {
    expect(await rows('y = bin(i, int(3))')).toEqual([[-2147483649], [null]]);
  });

  it('adds a real and a decimal to their sum', async () => {
    expect(await rows('y = r + m')).toEqual([[4], [null]]);
  });

  it('compares a guid with a string as text, false (or true for !=) where the text is no guid', async () => {
    // Act
    const got = await rows(
      'eq = g == s, ne = g != s, rev = s == g, inList = g in ("abc", "74BE27DE-1E4E-49D9-B579-FE0B331D3642")',
    );
    // Assess: "abc" is no guid; the upper-case text is the same guid.
    expect(got).toEqual([
      [false, true, false, true],
      [false, true, false, false],
    ]);
  });

  it('compares a guid with a string read as toguid reads it: 32 digits without hyphens match, braces do not', async () => {
    // Act
    const got = await rows(
      'plain = g == "74BE27DE1E4E49D9B579FE0B331D3642", braced = g == "{74be27de-1e4e-49d9-b579-fe0b331d3642}", listed = g in ("74be27de1e4e49d9b579fe0b331d3642")',
    );
    // Assess: the toguid page reads the first 32 characters, hyphens ignored, each 0-9 or a-f.
    expect(got).toEqual([
      [true, false, true],
      [false, false, false],
    ]);
  });
});

describe('calls both type checkers accept run on DuckDB without an engine error', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('cuts an array at a dynamic holding one real index (a JSON double) as an array of them does', async () => {
    // Prepare
    const c = compile(
      'print a = dynamic([1,2,3,4]) | project x = array_split(a, dynamic(2.0)), y = array_split(a, dynamic([2.0]))',
      duck,
    );
    // Act
    const rows = convertRows(await runSql(db, c.sql), ['dynamic', 'dynamic']);
    // Assess
    expect(rows).toEqual([
      [
        [
          [1, 2],
          [3, 4],
        ],
        [
          [1, 2],
          [3, 4],
        ],
      ],
    ]);
  });

  it('cuts an array at a dynamic holding one index as at that integer', async () => {
    // Prepare
    const c = compile(
      'print a = dynamic([1,2,3,4,5]) | project x = array_split(a, dynamic(2)), y = array_split(a, dynamic(-1)), z = array_split(a, 2)',
      duck,
    );
    // Act
    const rows = convertRows(
      await runSql(db, c.sql),
      c.columns.map((x) => x.type),
    );
    // Assess
    expect(rows).toEqual([
      [
        [
          [1, 2],
          [3, 4, 5],
        ],
        [[1, 2, 3, 4], [5]],
        [
          [1, 2],
          [3, 4, 5],
        ],
      ],
    ]);
  });
});

describe('overloads Kusto.Language accepts that were refused', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('looks a dynamic value up in a set as its JSON text, a missing one found nowhere', async () => {
    // Prepare
    const c = compile(
      'print a = dynamic([1, "x", 2.5, true]), d = dynamic({"n": 1, "s": "x", "r": 2.5, "f": false}) ' +
        '| project n = set_has_element(a, d.n), s = set_has_element(a, d.s), r = set_has_element(a, d.r), ' +
        'f = set_has_element(a, d.f), m = set_has_element(a, d.missing)',
      duck,
    );
    // Act
    const rows = convertRows(
      await runSql(db, c.sql),
      c.columns.map((x) => x.type),
    );
    // Assess
    expect(c.columns.map((x) => x.type)).toEqual(['bool', 'bool', 'bool', 'bool', 'bool']);
    expect(rows).toEqual([[true, true, true, false, false]]);
  });
});
