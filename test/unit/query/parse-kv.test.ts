// parse-kv's options at the compile() level: regex=, greedy= and escape= compile for both engines,
// and their malformed forms are refused at their position. Results of the page's examples are in
// the conformance corpus (test/conformance/cases/op-parse-kv-*.json, op-v6-parse-kv-*.json).
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { baseOptions, expectRefusedAt } from './compile-failure';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const dialects = ['duckdb', 'timestream'] as const;

describe('parse-kv options', () => {
  it.each([
    "print s='a=1' | parse-kv s as (a:long) with (regex=@'(\\w+)=(\\w+)')",
    "print s='a=1 b' | parse-kv s as (a:string) with (pair_delimiter=' ', kv_delimiter='=', greedy=true)",
    "print s='a=\"x\\\\\"y\"' | parse-kv s as (a:string) with (pair_delimiter=' ', kv_delimiter='=', quote='\"', escape='\\\\')",
    "print s='a=1' | parse-kv s as (a:guid, b:timespan, c:decimal) with (pair_delimiter=' ', kv_delimiter='=')",
  ])('compiles for both engines: %s', (query) => {
    for (const dialect of dialects) {
      // Act
      const { columns } = compile(query, options(dialect));
      // Assess
      expect(columns.length).toBeGreaterThan(1);
    }
  });

  it.each([
    [
      "print s='a=1' | parse-kv s as (a:long) with (regex=@'(\\w+)=(\\w+)=(\\w+)')",
      { code: 'QUERY_SYNTAX', message: 'exactly two capturing groups', position: '1:52' },
    ],
    [
      "print s='a=1' | parse-kv s as (a:long) with (regex=@'(?:\\w+)=[(]\\w+')",
      { code: 'QUERY_SYNTAX', message: 'it holds 0', position: '1:52' },
    ],
    [
      "print s='a=1' | parse-kv s as (a:long) with (regex=@'(\\w+)=(\\w+')",
      { code: 'QUERY_SYNTAX', message: 'not a valid regular expression', position: '1:52' },
    ],
    [
      "print s='a=1' | parse-kv s as (a:long) with (pair_delimiter=' ', kv_delimiter='=', regex=@'(\\w+)=(\\w+)')",
      { code: 'QUERY_SYNTAX', message: 'regex= goes alone', position: '1:90' },
    ],
    [
      // The page defines no pair delimiter without the kv delimiter (Kusto.Language parses it).
      "print s='a=1 b=2' | parse-kv s as (a:long) with (kv_delimiter='=')",
      {
        code: 'QUERY_UNSUPPORTED',
        message:
          'parse-kv with kv_delimiter alone is not supported: the parse-kv page gives pair_delimiter and kv_delimiter together',
        position: '1:50',
      },
    ],
    [
      "print s='a=1' | parse-kv s as (a:long) with (greedy=true)",
      { code: 'QUERY_SYNTAX', message: 'greedy=true needs pair_delimiter and kv_delimiter', position: '1:17' },
    ],
    [
      "print s='a=1' | parse-kv s as (a:long) with (pair_delimiter=' ', kv_delimiter='=', greedy=yes)",
      { code: 'QUERY_SYNTAX', message: 'greedy takes true or false', position: '1:91' },
    ],
    [
      "print s='a=1' | parse-kv s as (a:long) with (quote='\"', escape='ab')",
      { code: 'QUERY_SYNTAX', message: 'escape is one character', position: '1:64' },
    ],
  ])('refuses %s at its position', (query, refusal) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), refusal);
  });
});
