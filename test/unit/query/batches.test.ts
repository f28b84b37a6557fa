// Batches (https://learn.microsoft.com/kusto/query/batches): tabular statements separated by ';',
// each a result table in statement order; a let applies to the statements after it. Each table is a
// compile of its own (resultTable); a one-table caller is refused at the second statement; the
// statements count against the statement limit and share one compile budget.
import { describe, expect, it } from 'vitest';
import {
  compile,
  DEFAULT_QUERY_LIMITS,
  QueryError,
  resultTableNames,
  type CompileOptions,
} from '../../../lib/query/index';
import { parse } from '../../../lib/query/parser';

const options: CompileOptions = {
  dialect: 'duckdb',
  scope: {
    customerId: 'cust-a',
    plantIds: null,
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
};

function failure(text: string, extra: Partial<CompileOptions> = {}): QueryError {
  try {
    compile(text, { ...options, ...extra });
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${text} to fail`);
}

describe('batches', () => {
  it('parses each tabular statement with the lets before it', () => {
    // Act
    const program = parse('let a = 1; print a; let b = 2; print b;; print c = 3');
    // Assess
    expect(program.lets.map((l) => l.name)).toEqual(['a']);
    expect(program.batch?.map((s) => s.lets.map((l) => l.name))).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(program.batch?.map((s) => s.query.source.kind)).toEqual(['print', 'print']);
  });

  it('compiles each result table with its own statement and its lets (a later let shadows for later statements only)', () => {
    // Prepare
    const text = 'let x = 1; print v = x; let x = "two"; print v = x';
    // Act
    const first = compile(text, { ...options, resultTable: 0 });
    const second = compile(text, { ...options, resultTable: 1 });
    // Assess
    expect(first.columns).toEqual([{ name: 'v', type: 'long' }]);
    expect(second.columns).toEqual([{ name: 'v', type: 'string' }]);
  });

  it('numbers the tables across statements and fork legs', () => {
    // Prepare
    const text = 'print a = 1; range x from 1 to 3 step 1 | fork (count) (take 1 | as Firsts); print b = "z" | as Last';
    // Act
    const names = resultTableNames(text);
    const columns = [0, 1, 2, 3].map((i) => compile(text, { ...options, resultTable: i }).columns.map((c) => c.name));
    // Assess
    expect(names).toEqual(['PrimaryResult', 'PrimaryResult', 'Firsts', 'Last']);
    expect(columns).toEqual([['a'], ['Count'], ['x'], ['b']]);
    expect(() => compile(text, { ...options, resultTable: 4 })).toThrow(TypeError);
  });

  it('names a table by the as operator ending its statement (batches page example)', () => {
    const names = resultTableNames(
      "print n = 1 | count | as ['Count of events in Florida'];\nprint n = 2 | count | as ['Count of events in Guam']",
    );
    expect(names).toEqual(['Count of events in Florida', 'Count of events in Guam']);
  });

  it('counts a statement that does not compile as one table, so compiling it reports the error', () => {
    const text = 'print 1; print nope; print 3';
    expect(resultTableNames(text)).toEqual(['PrimaryResult', 'PrimaryResult', 'PrimaryResult']);
    expect(failure(text, { resultTable: 1 }).message).toMatch(/^1:16: /);
  });

  it('refuses a batch where one table is answered, at the second statement, naming the Kusto routes', () => {
    // Act
    const error = failure('range x from 1 to 3 step 1;\n  print 1');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe(
      '2:3: the query is a batch of 2 tabular statements, each a result table, and this endpoint answers one; ' +
        'send the query to the Kusto protocol routes (/v2/rest/query, /v1/rest/query), which answer every table, ' +
        'or send each statement alone',
    );
  });

  it('answers a text of one statement and trailing semicolons as one table', () => {
    expect(compile('print 1;;', options).columns).toHaveLength(1);
    expect(resultTableNames('print 1;')).toBeUndefined();
  });

  it('counts the tabular statements against the statement limit, at the first one past it', () => {
    // Prepare: a batch of tiny statements, one more than the limit.
    const n = DEFAULT_QUERY_LIMITS.maxStatements;
    const text = 'print 1;'.repeat(n + 1);
    // Act
    const error = failure(text, { resultTable: 0 });
    // Assess
    expect(error.code).toBe('QUERY_TOO_MANY_STATEMENTS');
    expect(error.message).toBe(`1:${8 * n + 1}: more than ${n} tabular statements; the limit is ${n}`);
    expect(resultTableNames(text)).toBeUndefined();
  });

  it('compiles every table of a batch within one budget when they carry the time spent (budgetSpentMs)', () => {
    // Prepare: a budget of 5 ms, 6 of them spent by the batch's other tables; a clock standing still.
    const wide = `print x = 1 | extend ${Array.from({ length: 1000 }, (_, i) => `c${i} = ${i}`).join(', ')}`;
    const text = `print 1; ${wide}`;
    const limits = { compileBudgetMs: 5 };
    // Act
    const spent = failure(text, { resultTable: 1, limits, clock: () => 10, budgetSpentMs: 6 });
    const fresh = compile(text, { ...options, resultTable: 1, limits, clock: () => 10 });
    // Assess
    expect(spent.code).toBe('QUERY_TOO_COMPLEX');
    expect(fresh.columns).toHaveLength(1001);
  });

  it("refuses text after a statement without ';' as a syntax error at it", () => {
    const error = failure('print 1 print 2');
    expect(error.code).toBe('QUERY_SYNTAX');
    expect(error.message).toBe("1:9: expected ';' before another statement, found 'print'");
  });
});
