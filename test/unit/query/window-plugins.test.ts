// evaluate sliding_window_counts and rolling_percentile at the compile() level: both engines compile
// them (a join with a range of window offsets, then a summarize), and malformed arguments are refused
// at their position. The pages' examples and printed results are in the conformance corpus
// (test/conformance/cases/op-v6-sliding-window-counts*.json, op-v6-rolling-percentile*.json).
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { baseOptions, expectRefusedAt } from './compile-failure';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const dialects = ['duckdb', 'timestream'] as const;

describe('window plugins', () => {
  it.each([
    [
      'States | evaluate sliding_window_counts(DeviceId, Timestamp, ago(7d), now(), 3d, 1d, PlantId)',
      ['Timestamp', 'PlantId', 'Count', 'Dcount'],
    ],
    [
      'States | extend v = todouble(Value) | evaluate rolling_percentile(v, 90, Timestamp, 1h, 4, DeviceId)',
      ['Timestamp', 'DeviceId', 'rolling_4_percentile_v_90'],
    ],
    [
      'States | evaluate active_users_count(DeviceId, Timestamp, ago(30d), now(), 8d, 1d, 3, 7d, PlantId)',
      ['Timestamp', 'PlantId', 'dcount'],
    ],
    [
      'States | evaluate activity_engagement(DeviceId, Timestamp, ago(30d), now(), 1d, 7d, PlantId)',
      ['Timestamp', 'dcount_activities_inner', 'dcount_activities_outer', 'activity_ratio', 'PlantId'],
    ],
  ])('compiles for both engines with a join on the window offsets: %s', (query, names) => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(query, options(dialect));
      // Assess
      expect(compiled.columns.map((c) => c.name)).toEqual(names);
      expect(compiled.sql).toContain('JOIN');
    }
  });

  it('compiles activity_counts_metrics for both engines with window functions', () => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(
        'States | evaluate activity_counts_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, PlantId)',
        options(dialect),
      );
      // Assess
      expect(compiled.columns.map((c) => c.name)).toEqual([
        'Timestamp',
        'PlantId',
        'count',
        'dcount',
        'new_dcount',
        'aggregated_dcount',
      ]);
      expect(compiled.sql).toMatch(/row_number\(\) OVER/);
    }
  });

  it('compiles activity_metrics for both engines, the dimensions last', () => {
    for (const dialect of dialects) {
      // Act
      const compiled = compile(
        'States | evaluate activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, PlantId)',
        options(dialect),
      );
      // Assess
      expect(compiled.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
        'Timestamp:datetime',
        'dcount_values:long',
        'dcount_newvalues:long',
        'retention_rate:real',
        'churn_rate:real',
        'PlantId:string',
      ]);
    }
  });

  it.each([
    [
      'States | evaluate active_users_count(DeviceId, Timestamp, ago(30d), now(), 8d, 1d, 3)',
      { code: 'QUERY_SEMANTIC', message: 'active_users_count() takes at least 8 arguments, got 7', position: '1:37' },
    ],
    [
      "States | evaluate active_users_count(DeviceId, Timestamp, ago(30d), now(), 8d, 1d, 3, 'week')",
      { code: 'QUERY_UNSUPPORTED', message: "a Bin of 'week'", position: '1:87' },
    ],
    [
      'States | evaluate activity_engagement(DeviceId, Timestamp, 1d, 7d, PlantId)',
      { code: 'QUERY_UNSUPPORTED', message: 'activity_engagement() without Start and End', position: '1:60' },
    ],
    [
      'States | evaluate activity_metrics(DeviceId, Timestamp, 1d, PlantId)',
      { code: 'QUERY_UNSUPPORTED', message: 'without Start and End', position: '1:57' },
    ],
    [
      "States | evaluate activity_counts_metrics(DeviceId, Timestamp, ago(7d), now(), 'week')",
      { code: 'QUERY_UNSUPPORTED', message: "a Step of 'week'", position: '1:80' },
    ],
    [
      'States | evaluate activity_counts_metrics(DeviceId, Timestamp, ago(7d), now())',
      { code: 'QUERY_SEMANTIC', message: 'takes at least 5 arguments, got 4', position: '1:42' },
    ],
    [
      'States | evaluate sliding_window_counts(DeviceId, Timestamp, ago(7d), now(), 3d)',
      { code: 'QUERY_SEMANTIC', message: 'takes at least 6 arguments, got 5', position: '1:40' },
    ],
    [
      'States | evaluate sliding_window_counts(tolower(DeviceId), Timestamp, ago(7d), now(), 3d, 1d)',
      { code: 'QUERY_SEMANTIC', message: 'takes the id as a column name', position: '1:41' },
    ],
    [
      'States | evaluate sliding_window_counts(DeviceId, Timestmp, ago(7d), now(), 3d, 1d)',
      { code: 'QUERY_SEMANTIC', message: "unknown column 'Timestmp'", position: '1:51' },
    ],
    [
      "States | evaluate sliding_window_counts(DeviceId, Timestamp, ago(7d), now(), 30d, 'month')",
      { code: 'QUERY_UNSUPPORTED', message: "a Bin of 'month'", position: '1:83' },
    ],
    [
      'States | extend v = todouble(Value) | evaluate rolling_percentile(v, toscalar(States | count), Timestamp, 1h, 4)',
      {
        code: 'QUERY_SEMANTIC',
        message: 'the percentile of rolling_percentile() must be a constant number',
        position: '1:70',
      },
    ],
    [
      'States | evaluate rolling_percentile(v = Value, 50, Timestamp, 1h, 4)',
      { code: 'QUERY_SEMANTIC', message: 'takes positional arguments only', position: '1:38' },
    ],
  ])('refuses %s at its position', (query, refusal) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), refusal);
  });
});
