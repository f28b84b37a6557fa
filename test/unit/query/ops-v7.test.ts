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
      'let L = States | project DeviceId; States | evaluate new_activity_metrics(DeviceId, Timestamp, ago(7d), now(), 1d, datetime(2024-02-28), L)',
      { code: 'QUERY_UNSUPPORTED', message: "Lookback (a table of ids) is not supported", position: '1:138' },
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
      { code: 'QUERY_SEMANTIC', message: 'would compare 757382401 windows pairwise; the limit is 1000', position: '1:105' },
    ],
  ])('refuses %s at its position', (query, refusal) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), refusal);
  });
});

describe('operators and plugins that stay refused, with the reason', () => {
  it.each([
    ['States | evaluate session_count(DeviceId, Timestamp, ago(7d), now(), 1h, 30m)', 'does not define how sessions are counted', '1:19'],
    ['States | evaluate basket()', 'does not define which frequent patterns are kept', '1:19'],
    ['States | evaluate autocluster()', 'does not define how segments are chosen', '1:19'],
    ['States | evaluate diffpatterns(PlantId, "a", "b")', 'does not define how patterns are chosen', '1:19'],
    ['States | evaluate funnel_sequence(DeviceId, Timestamp, ago(7d), now(), 1h, 1d, Name, dynamic(["a"]))', 'three result tables', '1:19'],
    ['States | reduce by Name', 'does not describe how values are grouped', '1:10'],
  ])('%s', (query, message, position) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), { code: 'QUERY_UNSUPPORTED', message, position });
  });
});
