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
