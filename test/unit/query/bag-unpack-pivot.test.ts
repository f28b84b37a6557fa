// evaluate bag_unpack and pivot at the compile() level: argument errors at their positions, the
// refusal asking for an output schema where the keys cannot be discovered first, and Timestream.
// The documented examples are in the conformance corpus (test/conformance/cases/op-v5-*.json).
import { describe, expect, it } from 'vitest';
import { compile, compilePlan, type CompileOptions } from '../../../lib/query/index';
import { baseOptions, compileFailure } from './compile-failure';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const bag = 'print d = dynamic({"a": 1}), s = "x"';

describe('evaluate bag_unpack and pivot', () => {
  it.each([
    [`${bag} | evaluate bag_unpack(s)`, 'QUERY_SEMANTIC', "1:60: bag_unpack() unpacks a dynamic column; 's' is string"],
    [`${bag} | evaluate bag_unpack(tostring(d))`, 'QUERY_SEMANTIC', '1:60: bag_unpack() takes a column of the input'],
    [
      `${bag} | evaluate bag_unpack(d, 1)`,
      'QUERY_SEMANTIC',
      "1:63: bag_unpack()'s OutputColumnPrefix is a constant string",
    ],
    [`${bag} | evaluate bag_unpack(d, columnsConflict='x')`, 'QUERY_SEMANTIC', '1:79: columnsConflict is'],
    [
      `${bag} | evaluate bag_unpack(d, ignoredProperties=dynamic({"a":1}))`,
      'QUERY_SEMANTIC',
      "1:81: bag_unpack()'s ignoredProperties",
    ],
    [`${bag} | evaluate bag_unpack(d, prefix='p')`, 'QUERY_SEMANTIC', "1:63: bag_unpack() has no argument 'prefix'"],
    [`${bag} | evaluate bag_unpack(d) : (a:long, b:nonsense)`, 'QUERY_SYNTAX', "1:76: unknown type 'nonsense'"],
    [`${bag} | evaluate bag_unpack()`, 'QUERY_SEMANTIC', '1:59: bag_unpack() takes the column'],
    [
      `${bag} | evaluate pivot(s, percentile(d, 50))`,
      'QUERY_UNSUPPORTED',
      '1:58: pivot() aggregates with count(), sum()',
    ],
    [
      `${bag} | evaluate pivot(s, count(), tostring(d))`,
      'QUERY_SEMANTIC',
      '1:67: pivot() groups by columns of the input',
    ],
    [`${bag} | evaluate pivot(s, count(d))`, 'QUERY_SEMANTIC', '1:64: count() takes no arguments'],
    // Without a schema the columns come from the data: compile() alone cannot read it (the service can).
    [`${bag} | evaluate bag_unpack(d)`, 'QUERY_UNSUPPORTED', '1:49: evaluate bag_unpack without an output schema'],
    [`${bag} | evaluate pivot(s)`, 'QUERY_UNSUPPORTED', '1:49: evaluate pivot without an output schema'],
  ] as const)('rejects %j', (query, code, message) => {
    // Act
    const error = compileFailure(query, options('duckdb'));
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('discovers bag slots on Timestream only with an output schema (the discovery needs mv-expand)', () => {
    // Act
    const refused = compileFailure(`${bag} | evaluate bag_unpack(d)`, options('timestream'));
    const compiled = compile(`${bag} | evaluate bag_unpack(d) : (a:long)`, options('timestream'));
    // Assess
    expect(refused.code).toBe('QUERY_UNSUPPORTED');
    expect(refused.message).toContain('1:40: evaluate bag_unpack is not supported on the timestream engine');
    expect(compiled.columns).toEqual([{ name: 'a', type: 'long' }]);
  });

  it('plans a pivot on both engines: the discovery of its values, then the query with them', () => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      // Act
      const first = compilePlan('print s = "x", g = 1 | evaluate pivot(s)', options(dialect));
      const second = compilePlan('print s = "x", g = 1 | evaluate pivot(s)', options(dialect), [
        [{ key: 'x' }, { key: 'y' }],
      ]);
      // Assess
      expect(first.kind).toBe('discover');
      if (first.kind === 'discover') expect(first.columns).toEqual([{ name: 'key', type: 'string' }]);
      expect(second.kind === 'compiled' && second.query.columns).toEqual([
        { name: 'g', type: 'long' },
        { name: 'x', type: 'long' },
        { name: 'y', type: 'long' },
      ]);
    }
  });

  it('gives an empty pivot value no column (Kusto does not document its name; an engine takes no column named "")', () => {
    const plan = compilePlan('print s = "", g = 1 | evaluate pivot(s)', options('duckdb'), [
      [{ key: '' }, { key: 'a' }],
    ]);
    expect(plan.kind === 'compiled' && plan.query.columns.map((c) => c.name)).toEqual(['g', 'a']);
  });

  // schemafuzz (d): `print d = dynamic([1, 2]) | evaluate bag_unpack(d)` reached the engine as a SELECT of nothing.
  it('refuses an unpack that finds no key over an input with no other column (a result of no columns)', () => {
    // Prepare
    const query = 'print d = dynamic([1, 2]) | evaluate bag_unpack(d)';
    const plan = compilePlan(query, options('duckdb'));
    if (plan.kind !== 'discover') throw new Error('expected a discovery');
    // Act
    const found = plan.read([]);
    // Assess
    expect(() => compilePlan(query, options('duckdb'), [found])).toThrow(
      "1:38: bag_unpack: 'd' holds no property bag keys and the input has no other column",
    );
  });

  it('refuses more than 1,000 discovered keys at the plugin', () => {
    // Prepare
    const plan = compilePlan(`${bag} | evaluate pivot(s)`, options('duckdb'));
    if (plan.kind !== 'discover') throw new Error('expected a discovery');
    // Act
    const read = (n: number) => () => plan.read(Array.from({ length: n }, (_, i) => [`v${i}`]));
    // Assess
    expect(read(1000)()).toHaveLength(1000);
    expect(read(1001)).toThrow('1:49: evaluate pivot found more than 1000 distinct values');
  });
});
