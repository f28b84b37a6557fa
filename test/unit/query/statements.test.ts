// The set and declare statements in compile(): each honoured property's effect on the SQL and on
// CompiledQuery.properties, every refusal at its position, and the binding of parameter values.
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions, type QueryError } from '../../../lib/query';
import { compileFailure } from './compile-failure';

const options: CompileOptions = {
  dialect: 'duckdb',
  scope: {
    customerId: 'c',
    plantIds: null,
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-02T00:00:00.000Z',
  },
  now: new Date('2026-01-01T12:00:00.000Z'),
  rowLimit: 1000,
};

const sqlOf = (query: string, parameters?: Record<string, string>): string =>
  compile(query, { ...options, ...(parameters ? { parameters } : {}) }).sql;

const failure = (query: string, parameters?: Record<string, string>): QueryError =>
  compileFailure(query, { ...options, ...(parameters ? { parameters } : {}) });

describe('set statements', () => {
  it('query_now fixes now() and ago(); the last statement wins', () => {
    // Act
    const sql = sqlOf('set query_now = datetime(2020-01-01); set query_now=datetime(2021-06-01); print now(), ago(1d)');
    // Assess
    expect(sql).toContain(`TIMESTAMP '2021-06-01 00:00:00'`);
    expect(sql).toContain(`TIMESTAMP '2021-05-31 00:00:00'`);
    expect(sql).not.toContain('2026-01-01 12');
  });

  it('truncationmaxrecords lowers the LIMIT of the SQL and is carried out; a higher one is carried but not applied', () => {
    // Act
    const lowered = compile('set truncationmaxrecords=5; set truncation_max_records=9; print 1', options);
    const higher = compile('set truncationmaxrecords=5000; print 1', options);
    // Assess
    expect(lowered.sql).toMatch(/LIMIT 6$/);
    expect(lowered.properties).toEqual({ rowLimit: 5 });
    expect(higher.sql).toMatch(/LIMIT 1001$/);
    expect(higher.properties).toEqual({ rowLimit: 5000 });
  });

  it('carries truncationmaxsize and servertimeout (in ms) out; none of them without a statement', () => {
    // Act
    const compiled = compile('set truncationmaxsize=1048576; set servertimeout = 1m; print 1', options);
    // Assess
    expect(compiled.properties).toEqual({ maxResponseBytes: 1048576, timeoutMs: 60_000 });
    expect(compile('print 1', options).properties).toBeUndefined();
  });

  it('query_take_max_records adds a take before a closing render', () => {
    // Act
    const compiled = compile('set query_take_max_records = 3; range x from 1 to 10 step 1 | render linechart', options);
    // Assess
    expect(compiled.sql).toMatch(/LIMIT 3/);
    expect(compiled.renderHint?.visualization).toBe('linechart');
    expect(compiled.properties).toBeUndefined();
  });

  it('accepts and ignores the properties that only tune Kusto execution, with or without a value', () => {
    // Act
    const plain = sqlOf('print 1');
    const tuned = sqlOf(
      'set notruncation; set querytrace; set maxmemoryconsumptionperiterator=16106127360; set queryconsistency = weakconsistency; set request_app_name = "x"; set query_results_cache_max_age = 1h; set query_language = "kql"; set query_fanout_nodes_percent = 50;\nprint 1',
    );
    // Assess
    expect(tuned).toBe(plain);
  });

  it.each([
    ['set nosuch = 1; print 1', 'QUERY_SEMANTIC', "1:5: unknown request property 'nosuch'"],
    ['set truncationmaxrcords = 1; print 1', 'QUERY_SEMANTIC', "did you mean 'truncationmaxrecords'?"],
    [
      'set truncationmaxrecords = "a"; print 1',
      'QUERY_SEMANTIC',
      "1:28: the request property 'truncationmaxrecords' takes a long",
    ],
    [
      'set truncationmaxrecords; print 1',
      'QUERY_SEMANTIC',
      "1:5: the request property 'truncationmaxrecords' needs a value",
    ],
    ['set truncationmaxrecords = -1; print 1', 'QUERY_SEMANTIC', 'takes a count of 0 or more'],
    ['set query_now = 1; print 1', 'QUERY_SEMANTIC', 'takes a datetime'],
    ['set servertimeout = 0s; print 1', 'QUERY_SEMANTIC', 'servertimeout must be a positive timespan'],
    ['set notruncation = 1; print 1', 'QUERY_SEMANTIC', 'takes a bool'],
    ['set query_bin_auto_size = "1h"; print 1', 'QUERY_SEMANTIC', 'takes a number, timespan or datetime literal'],
    [
      'set query_language = "sql"; print 1',
      'QUERY_UNSUPPORTED',
      "1:5: the request property 'query_language' is not taken",
    ],
    [
      'set query_datetimescope_from = datetime(2020-01-01); print 1',
      'QUERY_UNSUPPORTED',
      "the time window is the request's",
    ],
    ['set query_results_apply_getschema; print 1', 'QUERY_UNSUPPORTED', 'getschema'],
    ['set notruncation print 1', 'QUERY_SYNTAX', "expected ';' after the set statement"],
    ['set truncationmaxrecords = 1 + 1; print 1', 'QUERY_SEMANTIC', 'takes a long'],
    ['set = 1; print 1', 'QUERY_SYNTAX', '1:5: expected a request property name after set'],
  ])('refuses %s', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('reads set as a table where a let made it one', () => {
    // Act
    const compiled = compile('let set = range x from 1 to 2 step 1;\nset | count', options);
    // Assess
    expect(compiled.columns).toEqual([{ name: 'Count', type: 'long' }]);
  });

  it('bin_auto bins numbers by query_bin_auto_size from 0, or from query_bin_auto_at', () => {
    // Act
    const fromZero = sqlOf('set query_bin_auto_size = 10; print bin_auto(25)');
    const same = sqlOf('print bin(25, 10)');
    const shifted = sqlOf('set query_bin_auto_size=10; set query_bin_auto_at=3; print bin_auto(25)');
    const binAt = sqlOf('print bin_at(25, 10, 3)');
    // Assess: the same SQL as the functions bin_auto stands for (the names of the columns aside).
    expect(fromZero).toBe(same);
    expect(shifted).toBe(binAt);
  });

  it('refuses bin_auto without its size, with another argument count, and a size of the wrong type at the set', () => {
    // Act
    const none = failure('print bin_auto(1)');
    const args = failure('set query_bin_auto_size=1; print bin_auto(1, 2)');
    const mismatch = failure('set query_bin_auto_size=1h; print bin_auto(5)');
    // Assess
    expect(none.message).toMatch(/^1:7: bin_auto\(\) bins by the request property query_bin_auto_size/);
    expect(none.code).toBe('QUERY_SEMANTIC');
    expect(args.message).toContain('bin_auto() takes 1 argument, got 2');
    expect(mismatch.code).toBe('QUERY_SEMANTIC');
    expect(mismatch.message).toContain('the bin size of a number must be a number, got timespan');
    // At the set statement's value, where the size was written.
    expect(mismatch.message).toMatch(/^1:25: /);
  });
});

describe('declare query_parameters', () => {
  it('binds each type from its literal text, and a string from its text itself', () => {
    // Act
    const sql = sqlOf(
      'declare query_parameters(s:string, l:long, i:int, r:real, b:bool, d:datetime, t:timespan, g:guid, y:dynamic, m:decimal);\nprint s, l, i, r, b, d, t, g, y, m',
      {
        s: 'Flash Flood',
        l: '-200000000',
        i: 'int(7)',
        r: '11',
        b: 'true',
        d: 'datetime(1970-05-11)',
        t: '1h',
        g: 'guid(74be27de-1e4e-49d9-b579-fe0b331d3642)',
        y: "dynamic(['Java', 'C++'])",
        m: '1.5',
      },
    );
    // Assess
    expect(sql).toContain(
      `'Flash Flood' AS "_c1", CAST(-200000000 AS BIGINT) AS "_c2", CAST(7 AS INTEGER) AS "_c3", 11E0 AS "_c4", TRUE AS "_c5", TIMESTAMP '1970-05-11 00:00:00' AS "_c6", CAST(3600000000 AS BIGINT) AS "_c7", CAST('74be27de-1e4e-49d9-b579-fe0b331d3642' AS UUID) AS "_c8", CAST('["Java","C++"]' AS JSON) AS "_c9"`,
    );
  });

  it("reads a value that is not a literal as its type's own text (datetime, timespan, guid, JSON)", () => {
    // Act
    const sql = sqlOf('declare query_parameters(d:datetime, t:timespan, g:guid, y:dynamic); print d, t, g, y', {
      d: '2020-01-01 10:00',
      t: '00:10:00',
      g: '74BE27DE-1E4E-49D9-B579-FE0B331D3642',
      y: '{"a": [1]}',
    });
    // Assess
    expect(sql).toContain(`TIMESTAMP '2020-01-01 10:00:00'`);
    expect(sql).toContain('CAST(600000000 AS BIGINT)');
    expect(sql).toContain(`'74be27de-1e4e-49d9-b579-fe0b331d3642'`);
    expect(sql).toContain(`CAST('{"a":[1]}' AS JSON)`);
  });

  it('uses the default without a value, the value over the default, and ignores values not declared', () => {
    // Act
    const byDefault = sqlOf('declare query_parameters(n:long = 90); print n', { other: 'x' });
    const given = sqlOf('declare query_parameters(n:long = 90); print n', { n: '5' });
    // Assess
    expect(byDefault).toContain('CAST(90 AS BIGINT)');
    expect(given).toContain('CAST(5 AS BIGINT)');
  });

  it('lets a later let statement use a parameter', () => {
    // Act
    const sql = sqlOf('declare query_parameters(n:long); let m = n * 2; print m', { n: '21' });
    // Assess: the parameter is a literal, so n * 2 is folded (constant-fold.ts).
    expect(sql).toMatch(/\b42\b/);
  });

  it.each([
    ['declare query_parameters(n:long); print n', undefined, "1:26: the query parameter 'n' has no value"],
    [
      'declare query_parameters(n:long); print n',
      { n: 'abc' },
      `1:26: the value of the query parameter 'n' ("abc") is not a literal of type long`,
    ],
    ['declare query_parameters(n:long); print n', { n: "1'; drop" }, 'is not a literal of type long'],
    ['declare query_parameters(n:int); print n', { n: '99999999999' }, 'is not a literal of type int'],
    ['declare query_parameters(n:bool); print n', { n: '"true"' }, 'is not a literal of type bool'],
    ['declare query_parameters(n:datetime); print n', { n: 'yesterday' }, 'is not a literal of type datetime'],
    [
      'declare query_parameters(n:long = "x"); print n',
      undefined,
      "1:35: the default of the query parameter 'n' must be a literal of type long",
    ],
    ['declare query_parameters(n:dynamic = dynamic([1])); print n', undefined, 'cannot have a default value'],
    [
      'declare query_parameters(n:long, n:string); print n',
      { n: '1' },
      "1:34: the query parameter 'n' is declared twice",
    ],
  ])('refuses %s with %j', (query, parameters, message) => {
    // Act
    const error = failure(query, parameters);
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toContain(message);
  });

  it.each([
    ['declare query_parameters(n:foo); print n', "expected a scalar type name, found 'foo'"],
    ['declare parameters(n:long); print n', "expected 'query_parameters' after declare"],
    ['declare query_parameters(n:long) print n', "expected ';' after the declare statement"],
    ['declare (n:long); print n', "1:1: expected 'query_parameters' after declare"],
  ])('refuses the syntax of %s', (query, message) => {
    // Act
    const error = failure(query, { n: '1' });
    // Assess
    expect(error.code).toBe('QUERY_SYNTAX');
    expect(error.message).toContain(message);
  });

  it('counts set statements and query parameters against the statement limit', () => {
    // Prepare
    const sets = 'set notruncation; '.repeat(3);
    const params = `declare query_parameters(${['a', 'b', 'c'].map((n) => `${n}:long = 1`).join(', ')});`;
    // Act
    const tooManySets = (() => {
      try {
        compile(`${sets} print 1`, { ...options, limits: { maxStatements: 2 } });
      } catch (e) {
        return e as QueryError;
      }
    })();
    const tooManyParams = (() => {
      try {
        compile(`${params} print a`, { ...options, limits: { maxStatements: 2 } });
      } catch (e) {
        return e as QueryError;
      }
    })();
    // Assess
    expect(tooManySets?.code).toBe('QUERY_TOO_MANY_STATEMENTS');
    expect(tooManySets?.message).toContain('more than 2 set statements');
    expect(tooManyParams?.code).toBe('QUERY_TOO_MANY_STATEMENTS');
    expect(tooManyParams?.message).toContain('more than 2 query parameters');
  });
});
