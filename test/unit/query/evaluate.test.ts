// evaluate at the compile() level: narrow() is refused on Timestream naming the plugin, other plugins
// and narrow's arguments at their positions. The documented examples are in the conformance corpus
// (test/conformance/cases/op-evaluate-*.json).
import { describe, expect, it } from 'vitest';
import type { CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

describe('evaluate', () => {
  it.each([
    [
      'States | evaluate narrow()',
      'timestream',
      'QUERY_UNSUPPORTED',
      '1:10: evaluate narrow is not supported on the timestream engine',
    ],
    [
      'States | evaluate hint.distribution=per_node autocluster()',
      'duckdb',
      'QUERY_UNSUPPORTED',
      "1:46: the 'autocluster' plugin is not supported",
    ],
    ['States | evaluate narrow(Name)', 'duckdb', 'QUERY_SEMANTIC', '1:26: narrow() takes no arguments'],
    ['States | evaluate narrow', 'duckdb', 'QUERY_SYNTAX', "1:25: expected '('"],
  ] as const)('rejects %j on %s', (query, dialect, code, message) => {
    // Act
    const error = compileFailure(query, options(dialect));
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});
