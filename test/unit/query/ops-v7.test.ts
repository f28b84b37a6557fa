// The v7 tabular operators and plugins at the compile() level: evaluate new_activity_metrics on both
// engines and its refusals at their position, and the operators and plugins that stay refused with
// the reason their pages give (refusal-reasons.ts). The pages' examples and printed results are in
// the conformance corpus (test/conformance/cases/op-v7-*.json).
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { baseOptions, expectRefusedAt } from './compile-failure';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const dialects = ['duckdb', 'timestream'] as const;

describe('evaluate new_activity_metrics', () => {
  it('compiles for both engines, the from/to windows first and the dimensions last', () => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(
        'States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, PlantId)',
        options(dialect),
      );
      // Assess
      expect(compiled.columns.map((c) => [c.name, c.type])).toEqual([
        ['from_Timestamp', 'datetime'],
        ['to_Timestamp', 'datetime'],
        ['dcount_new_values', 'long'],
        ['dcount_retained_values', 'long'],
        ['dcount_churn_values', 'real'],
        ['retention_rate', 'real'],
        ['churn_rate', 'real'],
        ['PlantId', 'string'],
      ]);
    }
  });

  it('compiles a Cohort and a Lookback table for both engines (an anti-join of the Lookback ids)', () => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(
        'let L = States | where Timestamp < ago(1d) | project DeviceId; States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, ago(7d), L)',
        options(dialect),
      );
      // Assess
      expect(compiled.columns.map((c) => c.name).slice(0, 2)).toEqual(['from_Timestamp', 'to_Timestamp']);
      expect(compiled.sql).toMatch(/NOT EXISTS|ANTI/);
    }
  });

  it.each([
    [
      'States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now())',
      { code: 'QUERY_SEMANTIC', message: 'takes at least 5 arguments, got 4', position: '1:39' },
    ],
    [
      'States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, Plant)',
      { code: 'QUERY_SEMANTIC', message: "unknown column 'Plant'", position: '1:81' },
    ],
    [
      'let L = States | project DeviceId; States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, L, PlantId)',
      { code: 'QUERY_SEMANTIC', message: 'Lookback (a table of ids) is its last argument', position: '1:116' },
    ],
    [
      'let L = States | project Name; States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, L)',
      { code: 'QUERY_SEMANTIC', message: "unknown column 'DeviceId'", position: '1:112' },
    ],
    [
      "States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 'month')",
      { code: 'QUERY_UNSUPPORTED', message: "a Window of 'month'", position: '1:77' },
    ],
    [
      'States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 0s)',
      { code: 'QUERY_SEMANTIC', message: 'takes a positive Window', position: '1:77' },
    ],
    // Hostile: a tiny window over a long period would pair millions of windows.
    [
      'States | evaluate new_activity_metrics(DeviceId, Timestamp, datetime(2000-01-01), datetime(2024-01-01), 1s)',
      {
        code: 'QUERY_SEMANTIC',
        message: 'would compare 757382401 windows pairwise; the limit is 1000',
        position: '1:105',
      },
    ],
  ])('refuses %s at its position', (query, refusal) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), refusal);
  });
});

describe('operators and plugins that stay refused, with the reason', () => {
  it.each([
    [
      'States | evaluate session_count(DeviceId, Timestamp, ago(7d), now(), 1h, 30m)',
      'does not define how sessions are counted',
      '1:19',
    ],
    ['States | evaluate basket()', 'does not define which frequent patterns are kept', '1:19'],
    ['States | evaluate autocluster()', 'does not define how segments are chosen', '1:19'],
    ['States | evaluate diffpatterns(PlantId, "a", "b")', 'does not define how patterns are chosen', '1:19'],
    [
      'States | evaluate funnel_sequence(DeviceId, Timestamp, ago(7d), now(), 1h, 1d, Name, dynamic(["a"]))',
      'three result tables',
      '1:19',
    ],
    [
      "States | evaluate funnel_sequence_completion(DeviceId, Timestamp, ago(7d), now(), 1d, Name, dynamic(['a', 'b']), dynamic(['01:00:00']))",
      'how steps at the same instant are ordered',
      '1:19',
    ],
    ['States | reduce by Name', 'does not describe how values are grouped', '1:10'],
  ])('%s', (query, message, position) => {
    for (const dialect of dialects)
      expectRefusedAt(query, options(dialect), { code: 'QUERY_UNSUPPORTED', message, position });
  });
});

describe('find', () => {
  it.each([
    ["find in (States, Events) where Name == 'temperature'", ['source_', 'Timestamp', 'PlantId', 'Uid'], 'pack_'],
    [
      "find withsource=T where DeviceId == 'x' project DeviceId, Severity:long",
      ['T', 'DeviceId', 'Severity'],
      'Severity',
    ],
    ['find "press" project-smart', ['source_', 'Timestamp', 'PlantId', 'Uid'], 'pack_'],
  ])('compiles for both engines: %s', (query, first, last) => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(query, options(dialect));
      // Assess
      expect(compiled.columns.slice(0, first.length).map((c) => c.name)).toEqual(first);
      expect(compiled.columns.at(-1)?.name).toBe(last);
      expect(compiled.sql).toContain('UNION ALL');
    }
  });

  it('reads only the tables having a column the predicate names', () => {
    // Act
    const compiled = compile('find where Severity == 3 project-smart', options('duckdb'));
    // Assess: Severity is an Events column only, so States is not read.
    expect(compiled.columns.map((c) => c.name)).toContain('Acknowledged');
    expect(compiled.sql).not.toContain('UNION ALL');
  });

  it.each([
    ["find in (States) Name == 'x'", { code: 'QUERY_SYNTAX', message: "expected 'where'", position: '1:18' }],
    [
      "find in (cluster('c').database('d').States) where x == 1",
      { code: 'QUERY_UNSUPPORTED', message: 'find in cluster(...) is not supported', position: '1:10' },
    ],
    [
      "find where Name == 'x' project Nme",
      { code: 'QUERY_SEMANTIC', message: "unknown column 'Nme' in the tables of find", position: '1:32' },
    ],
    [
      "find where Name == 'x' project pack_all(), Name",
      { code: 'QUERY_SYNTAX', message: 'pack_all() comes last', position: '1:44' },
    ],
    [
      'States | find x == 1',
      { code: 'QUERY_UNSUPPORTED', message: "the 'find' operator is not supported", position: '1:10' },
    ],
  ])('refuses %s at its position', (query, refusal) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), refusal);
  });

  it('refuses a find packing thousands of columns with a positioned 400', () => {
    // Prepare: a view of 1,500 columns, every column packed into pack_.
    const columns = Array.from({ length: 1500 }, (_, i) => `c${i}:long`).join(', ');
    const values = Array.from({ length: 1500 }, () => '1').join(', ');
    const query = `let T = view () { datatable(${columns})[${values}] }; find in (T) where c1 == 1 project pack_all()`;
    // Act / Assess
    // A clock that never advances: on a loaded machine compiling 1,500 columns can outlast the
    // 500 ms compile budget, and this test is about the term limit, not the budget.
    expectRefusedAt(
      query,
      { ...options('duckdb'), clock: () => 0 },
      {
        code: 'QUERY_TOO_MANY_TERMS',
        message: 'an expression of 3,001 terms once its names are replaced by their values; the limit is 2,000',
        position: `1:${query.indexOf('find') + 1}`,
      },
    );
  });
});
