// parse kind=regex flags= (parse operator docs: U ungreedy, i, m, s) and the numbering of the
// columns' groups after the pattern's own groups; the refusals at the flags' position.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { captureGroupNames } from '../../../lib/query/regex-groups';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { openFixtureDb } from '../../golden/fixture-db';
import { rowsOf } from './duckdb-rows';

const duckdb = { ...baseOptions, dialect: 'duckdb' as const };
const timestream = { ...baseOptions, dialect: 'timestream' as const };

describe('captureGroupNames', () => {
  it('counts plain and named groups, not escaped, non-capturing or bracketed parentheses', () => {
    // Prepare / Act / Assess
    expect(captureGroupNames('(.*?)[a-zA-Z]*=').length).toBe(1);
    expect(captureGroupNames('.*?(previous)?lockTime=').length).toBe(1);
    expect(captureGroupNames('\\(a\\)(?:b)(?i)(?=c)').length).toBe(0);
    expect(captureGroupNames('[(](x)[^)(]').length).toBe(1);
    expect(captureGroupNames('[]()](y)').length).toBe(1);
    expect(captureGroupNames('(?P<k>a)(x)(?<v>b)(?<=c)(?<!d)')).toEqual(['k', undefined, 'v']);
    expect(captureGroupNames('((a)(b))').length).toBe(3);
  });
});

describe('parse kind=regex flags=', () => {
  it('puts the flags ahead of the anchored pattern on both engines (i, m, s; Java folds Unicode with u)', () => {
    // Prepare
    const query = 'print s = "ab" | parse kind=regex flags=ims s with "A" x';
    // Act
    const sql = [compile(query, duckdb).sql, compile(query, timestream).sql];
    // Assess: under m the match still starts at the text's start (\\A), not at every line's.
    expect(sql[0]).toContain(`'(?ims)\\AA(.*)'`);
    expect(sql[1]).toContain(`'(?imsu)\\AA(.*)'`);
  });

  it("writes U on Timestream, whose (?U) is not ungreedy, as its quantifiers swapped (the columns' too)", () => {
    // Prepare
    const query = 'print s = "ab" | parse kind=regex flags=Ui s with "A" x "b+?" y ",(?-U:c+)" *';
    // Act
    const sql = [compile(query, duckdb).sql, compile(query, timestream).sql];
    // Assess: RE2 reads the flag; Java gets (.*) lazy, b+? greedy, the U-cleared c+ and the star as written.
    expect(sql[0]).toContain(`'(?Ui)^A(.*)b+?(.*),(?-U:c+).*?'`);
    expect(sql[1]).toContain(`'(?iu)^A([^\\n]*?)b+([^\\n]*?),(?:c+)[^\\n]*'`);
  });

  it('refuses letters that are not RE2 flags, and flags without kind=regex', () => {
    expectRefusedAt('print s = "ab" | parse kind=regex flags=Ux s with "A" x', duckdb, {
      code: 'QUERY_SYNTAX',
      message: "flags are letters of i, m, s and U, not 'Ux'",
      position: '1:41',
    });
    expectRefusedAt('print s = "ab" | parse flags=i s with "A" x', duckdb, {
      code: 'QUERY_SYNTAX',
      message: 'parse flags= needs kind=regex before it',
      position: '1:30',
    });
  });

  it('numbers a column after the groups of the text before it', () => {
    // Prepare
    const query = 'print s = "k=v;w" | parse kind=regex s with "(k)=" v ";(w)?" rest';
    // Act
    const sql = compile(query, duckdb).sql;
    // Assess: the pattern's (k) is group 1, v group 2, its (w)? group 3, rest group 4
    expect(sql).toContain(`'^(k)=(.*);(w)?(.*)', 2)`);
    expect(sql).toContain(`'^(k)=(.*);(w)?(.*)', 4)`);
  });
});

describe('parse with a column written twice', () => {
  it('refuses the second at its name, as Kusto.Language does (the second capture would shadow the first)', () => {
    expectRefusedAt('print s = "ab" | parse s with x "b" x', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: "duplicate column name 'x'",
      position: '1:37',
    });
  });
});

describe('parse after a sort of the column it replaces', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it.each(['parse', 'parse-where', 'parse kind=regex'])(
    '%s keeps the sort order (the sort key was dropped: a DuckDB binder error)',
    async (operator) => {
      // Prepare
      const query = `range x from 1 to 3 step 1 | extend s = tostring(x) | sort by s desc | ${operator} s with s:long | extend p = prev(s)`;
      // Act
      const rows = await rowsOf(db, query);
      // Assess
      expect(rows).toEqual([
        [3, 3, null],
        [2, 2, 3],
        [1, 1, 2],
      ]);
      expect(() => compile(query, { ...baseOptions, dialect: 'timestream' })).not.toThrow();
    },
  );
});

describe('parse kind=regex flags=m on DuckDB', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it("anchors flags=m at the text's start, its ^ and $ at each line only where the pattern writes them", async () => {
    // Act
    const rows = await Promise.all(
      ['s with "b " x', 's with * "b " x', 's with "a$\\n^b " x', 's with "(?s).*?^b " x'].map((p) =>
        rowsOf(db, `print s = "a\\nb c" | parse kind=regex flags=m ${p} | project x`),
      ),
    );
    // Assess: the parse page's generated regex has no ^ of its own (an anchored match), so m moves
    // only the pattern's own anchors; * is .*?, which stops at a new line without s.
    expect(rows).toEqual([[['']], [['']], [['c']], [['c']]]);
  });
});
