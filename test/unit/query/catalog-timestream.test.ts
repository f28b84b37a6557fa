// The Timestream forms of functions that were DuckDB-only, checked as SQL text: no Timestream engine
// runs here, so each test pins the functions of Timestream's query language the form relies on
// (array and lambda functions, date_add, regexp_extract, map_concat) and that no DuckDB spelling
// leaked into it. The same queries run on DuckDB in the conformance corpus (fn-*.json).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { baseOptions } from './compile-failure';

const base = baseOptions;

const timestreamSql = (query: string): string => compile(query, { ...base, dialect: 'timestream' }).sql;

/** Spellings only DuckDB has: one of these in Timestream SQL is a form written for the wrong engine. */
const DUCKDB_ONLY = /\b(list_[a-z_]+|to_json|json_type|make_timestamp|regexp_matches|json_object|TRY_CAST|len)\(/;

describe('function catalog: Timestream forms (SQL text; never run here)', () => {
  it.each([
    ['print array_reverse(dynamic([1, 2, 3]))', ['transform(sequence(0, cardinality(', 'element_at(']],
    ['print array_rotate_left(dynamic([1, 2, 3]), 1)', ['% cardinality(', 'element_at(']],
    [
      'print array_rotate_right(dynamic([1, 2, 3]), 1)',
      ['(-(CAST(CAST(1 AS BIGINT) AS BIGINT) % cardinality(', 'element_at('],
    ],
    ['print array_shift_left(dynamic([1, 2, 3]), 1)', ['CAST(NULL AS JSON)', 'element_at(']],
    ['print array_shift_right(dynamic([1, 2, 3]), 1, -1)', ['ELSE json_parse(', 'element_at(']],
    ['print repeat("a", 3)', ["THEN '[]'", 'transform(sequence(1, ']],
    ['print jaccard_index(dynamic([1, 2]), dynamic([2, 3]))', ['array_intersect(', 'array_union(', 'array_distinct(']],
    ['print bag_has_key(dynamic({"a": 1}), "a")', ['contains(map_keys(CAST(json_parse(']],
    ['print bag_merge(dynamic({"a": 1}), dynamic({"a": 2, "b": 3}))', ['map_concat(', 'AS MAP(VARCHAR, JSON)']],
    ['print make_datetime(2017, 2, 30, 1, 2, 3.5)', ["date_add('year', ", 'day(date_add(', 'BETWEEN 0 AND 23']],
    ['print tohex(-546), tohex(toint(-256), 10)', ['sequence(15, 0, -1)', 'sequence(7, 0, -1)', "'^0{1,15}'", 'lpad(']],
    // minLength cut to 16 as on DuckDB (the tohex page).
    ['print tohex(255, 2147483647)', ['greatest(CASE WHEN CAST(2147483647 AS BIGINT) > 16 THEN 16 ELSE']],
    ['print parse_url("https://u:p@host:8080/p?k=v#f")', ['regexp_like(', 'regexp_extract(', "split_part(kv, '=', 1)"]],
    // Subscripts computed per row (dynamic data type docs): a map lookup, and element_at from 1 or from the end.
    [
      'print d = dynamic({"a": 1}), k = "a" | project d[k]',
      ['element_at(try(CAST(json_parse(', 'AS MAP(VARCHAR, JSON)))'],
    ],
    [
      'print a = dynamic([1, 2]), i = -1 | project a[i]',
      ['AS ARRAY(JSON)))', '>= 0 THEN CAST(', 'AS BIGINT) + 1 ELSE'],
    ],
  ])('%s', (query, fragments) => {
    // Act
    const sql = timestreamSql(query);
    // Assess
    for (const f of fragments) expect(sql).toContain(f);
    expect(sql).not.toMatch(DUCKDB_ONLY);
  });

  it('merges bags so that the first wins: map_concat (the last map wins) reads them last to first', () => {
    // Act
    const sql = timestreamSql('print bag_merge(dynamic({"k": "first"}), dynamic({"k": "second"}))');
    // Assess
    expect(sql.indexOf('second')).toBeLessThan(sql.indexOf('first'));
  });

  it('keeps an empty array empty instead of asking sequence() for 0 .. -1', () => {
    // Act
    const sql = timestreamSql('print array_reverse(dynamic([]))');
    // Assess
    expect(sql).toMatch(
      /CASE WHEN cardinality\(.*\) = 0 THEN try\(CAST\(json_parse\('\[\]'\) AS ARRAY\(JSON\)\)\) ELSE/,
    );
  });
});
