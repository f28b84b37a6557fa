// The schema of GET /insights/v1/telemetry/schema is the compiler's own: the tables it resolves and
// only functions it knows (each name probed through compile(): none is refused as unsupported).
import { describe, expect, it } from 'vitest';
import { playgroundSchema } from '../../../lib/playground/schema';
import { compile, QueryError } from '../../../lib/query/index';
import { TABLES } from '../../../lib/telemetry/tables';

const options = {
  dialect: 'duckdb',
  scope: {
    customerId: 'c',
    plantIds: null,
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-02T00:00:00.000Z',
  },
  now: new Date('2026-01-01T12:00:00Z'),
  rowLimit: 10,
} as const;

/** The message compile() gives for a call of name, or '' when it compiles. */
function probe(query: string): string {
  try {
    compile(query, options);
    return '';
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return error.message;
  }
}

/**
 * True when the compiler knows name neither as a scalar function nor as an aggregation. (Kusto
 * aggregations it does not compile are still recognised as aggregations outside summarize;
 * window functions need serialized rows.)
 */
const refused = (name: string): boolean =>
  /is not supported|can only be used in summarize/.test(probe(`print x = ${name}()`)) &&
  /is not supported|can only be used in summarize/.test(probe(`range x from 1 to 2 step 1 | extend y = ${name}()`)) &&
  /is not supported|must call an aggregation function/.test(probe(`States | summarize ${name}()`));

describe('playground schema', () => {
  const schema = playgroundSchema();

  it('lists States and Events with the columns and types of the compiler tables', () => {
    expect(schema.tables.map((t) => t.name)).toEqual(['States', 'Events']);
    for (const table of schema.tables)
      expect(table.columns).toEqual(
        TABLES[table.name as keyof typeof TABLES].map((c) => ({ name: c.name, type: c.type })),
      );
  });

  it('lists core, catalog, aggregation and window functions, each known to the compiler', () => {
    for (const name of [
      'iff',
      'iif',
      'bin',
      'ago',
      'todouble',
      'count',
      'arg_min',
      'take_any',
      'row_number',
      'format_datetime',
    ])
      expect(schema.functions).toContain(name);
    expect(schema.functions.filter(refused)).toEqual([]);
  });

  it('leaves out what the compiler refuses', () => {
    for (const name of ['series_outliers', 'hash_combine']) expect(refused(name)).toBe(true);
    expect(schema.functions).not.toContain('series_outliers');
    expect(schema.functions).not.toContain('hash_combine');
  });
});
