// Which columns arg_max/arg_min/take_any with `*` return, and their names, on both engines. The
// expected names and types are Kusto.Language's (Microsoft's parser and type checker): `*` returns
// each input column once, judged by the column itself and not by its name, and a clashing name gets
// a suffix. Values of some of these forms run on DuckDB in test/conformance/cases/op-argmin-*.json.
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

const D = 'datatable(d:dynamic, s:string)[dynamic(1), "a"]';
const R = 'datatable(r:real, s:string, l:long)[1.5, "a", 2]';

describe('arg_max/arg_min/take_any with *: column names and types', () => {
  it.each([
    [`${D} | summarize arg_min(todouble(d), *)`, 'd:real d1:dynamic s:string'],
    [`${D} | summarize arg_max(todouble(d), *)`, 'd:real d1:dynamic s:string'],
    [`${D} | summarize arg_max(todouble(d) * 2, *)`, 'max_:real d:dynamic s:string'],
    [`${D} | summarize arg_max(todouble(d), d, *)`, 'd:real d1:dynamic s:string'],
    [`${D} | summarize arg_max(todouble(d), s, *)`, 'd:real s:string d1:dynamic'],
    [`${D} | summarize arg_max(todouble(d), todouble(d), *)`, 'd:real d1:real d2:dynamic s:string'],
    [
      `${D} | summarize arg_max(todouble(d), *), arg_min(todouble(d), *)`,
      'd:real d1:dynamic s:string d2:real d3:dynamic s1:string',
    ],
    [`${D} | summarize arg_max(todouble(d), *) by s`, 's:string d:real d1:dynamic'],
    [`${D} | summarize arg_max(todouble(d), *) by d = tostring(d)`, 'd:string d1:real d2:dynamic s:string'],
    [`${D} | summarize x = arg_max(todouble(d), *)`, 'x:real d:dynamic s:string'],
    [`${D} | summarize arg_max(tostring(s), *)`, 's:string d:dynamic'],
    [`${R} | summarize arg_max(tostring(r), *)`, 'r:string r1:real s:string l:long'],
    [`${R} | summarize arg_max(l, *, s)`, 'l:long r:real s:string'],
    [`${R} | summarize arg_max(r, r, *)`, 'r:real s:string l:long'],
    [`${R} | summarize arg_max(l, r, *) by r`, 'r:real l:long s:string'],
    [`${R} | summarize arg_max(r, *) by r`, 'r:real r1:real s:string l:long'],
    [`${R} | summarize arg_max(l, *) by bin(r, 1.0)`, 'r:real l:long r1:real s:string'],
    [`${R} | summarize arg_max(l, *) by todouble(r)`, 'r:real l:long s:string'],
    [`${R} | summarize arg_max(l, round(r), *)`, 'l:long r:real r1:real s:string'],
    [`${R} | summarize take_any(tostring(l), *)`, 'l:string r:real s:string l1:long'],
    [`${R} | summarize take_any(r, *)`, 'r:real s:string l:long'],
    [`${R} | summarize take_any(*) by bin(r, 1.0)`, 'r:real r1:real s:string l:long'],
    // Without `*` nothing is left out: a repeated column is returned again under a new name.
    [`${R} | summarize arg_max(r, r)`, 'r:real r1:real'],
    [`${R} | summarize arg_max(l, tostring(l), l)`, 'l:long l1:string l2:long'],
    [`${R} | summarize arg_max(l, r) by r`, 'r:real l:long r1:real'],
  ])('%s gives %s on both engines', (query, expected) => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      // Act
      const compiled = compile(query, options(dialect));
      // Assess
      expect(compiled.columns.map((c) => `${c.name}:${c.type}`).join(' ')).toBe(expected);
    }
  });
});

describe('a named argument of arg_max/arg_min/take_any/take_anyif: the returned column takes its name (schemafuzz S6)', () => {
  it.each([
    [`${R} | summarize arg_min(l, x = s) by s`, 's:string l:long x:string'],
    [`${R} | summarize arg_max(y = l, s)`, 'y:long s:string'],
    [`${R} | summarize arg_max(l, x = s, y = l + 1)`, 'l:long x:string y:long'],
    [`${R} | summarize z = arg_max(l, x = s)`, 'z:long x:string'],
    // The named column counts as returned, as a bare one does (Kusto.Language leaves s out of *).
    [`${R} | summarize arg_max(l, x = s, *)`, 'l:long x:string r:real'],
    [`${R} | summarize arg_max(l, x = l)`, 'l:long x:long'],
    [`${R} | summarize take_any(x = s)`, 'x:string'],
    [`${R} | summarize take_any(x = s, l)`, 'x:string l:long'],
    [`${R} | summarize z = take_any(x = s)`, 'z:string'],
    [`${R} | summarize take_anyif(x = s, l > 0)`, 'x:string'],
    [`${R} | summarize take_any(x = s), take_any(x = r)`, 'x:string x1:real'],
    // The deprecated aliases name as they do with the value's own name.
    [
      `${R} | summarize argmax(l, x = s), any(y = r), anyif(w = s, true)`,
      'max_l:long max_l_x:string any_y:real anyif_w:string',
    ],
  ])('%s gives %s on both engines', (query, expected) => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      // Act
      const compiled = compile(query, options(dialect));
      // Assess
      expect(compiled.columns.map((c) => `${c.name}:${c.type}`).join(' ')).toBe(expected);
    }
  });

  it.each([
    ['print strlen(x = "a")', 'strlen'],
    [`${R} | summarize sum(x = l)`, 'sum'],
    [`${R} | extend toscalar(x = 1)`, 'toscalar'],
  ])('refuses %s at the name', (query, fn) => {
    // Act
    const act = (): unknown => compile(query, options('duckdb'));
    const offset = query.indexOf('x = ');
    // Assess
    expect(act).toThrow(expect.objectContaining({ code: 'QUERY_SEMANTIC', span: { start: offset, end: offset + 1 } }));
    expect(act).toThrow(`${fn}() takes no named argument ('x = ...')`);
  });
});
