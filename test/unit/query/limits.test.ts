// The compiler's limits (lib/query/limits.ts): each at its boundary (the limit accepted, one more
// refused with its own code at the position where it was crossed), and the attacker's inputs of
// issue 12 at the compile() level: each a positioned QueryError, quickly, never anything else.
import { describe, expect, it } from 'vitest';
import {
  compile,
  DEFAULT_QUERY_LIMITS,
  QueryError,
  type CompileOptions,
  type QueryLimits,
} from '../../../lib/query/index';
import { ErrorFactory } from '../../../lib/query/errors';
import { tokenize } from '../../../lib/query/lexer';
import { CompileBudget } from '../../../lib/query/limits';
import { once } from '../../../lib/query/once-per-process';
import { DEPTH_SHAPES, inListTerms, lets, nameOfLength, queryOfLength, stackedOperators } from './limit-queries';

const L = DEFAULT_QUERY_LIMITS;

// Big inputs get a generous budget: these tests are about the other limits, on a shared machine.
const options = (limits: Partial<QueryLimits> = {}): CompileOptions => ({
  dialect: 'duckdb',
  scope: {
    customerId: 'cust-a',
    plantIds: ['plant-1'],
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
  limits: { compileBudgetMs: 60_000, ...limits },
});

function failure(
  query: string,
  limits: Partial<QueryLimits> = {},
  dialect: CompileOptions['dialect'] = 'duckdb',
): QueryError {
  try {
    compile(query, { ...options(limits), dialect });
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected the query to fail: ${query.slice(0, 80)}`);
}

const accepts = (query: string, limits: Partial<QueryLimits> = {}): void => {
  expect(() => compile(query, options(limits))).not.toThrow();
  expect(() => compile(query, { ...options(limits), dialect: 'timestream' })).not.toThrow();
};

/** 1-based column of the n-th (1-based) occurrence of `token` in a one-line query. */
function columnOf(query: string, token: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = query.indexOf(token, at + 1);
  if (at < 0) throw new Error(`no ${n}th '${token}'`);
  return at + 1;
}

describe('limits: defaults', () => {
  it('are documented numbers a person never reaches', () => {
    expect(L).toEqual({
      maxQueryLength: 100_000,
      maxDepth: 64,
      maxTerms: 2_000,
      maxQueryTerms: 5_000,
      maxNameLength: 1_024,
      maxStatements: 100,
      maxSqlLength: 131_072,
      compileBudgetMs: 500,
    });
  });

  it('refuses limits that are not positive integers: a caller bug, not a query error', () => {
    expect(() => compile('print 1', options({ maxDepth: 0 }))).toThrow(TypeError);
    expect(() => compile('print 1', options({ maxTerms: 1.5 }))).toThrow(TypeError);
  });
});

describe('limits: query text size', () => {
  it(`accepts ${L.maxQueryLength} characters and refuses one more at the first character past the limit`, () => {
    // Prepare
    const atLimit = queryOfLength(L.maxQueryLength);
    // Act
    const error = failure(queryOfLength(L.maxQueryLength + 1));
    // Assess
    accepts(atLimit);
    expect(error.code).toBe('QUERY_TOO_LONG');
    expect(error.message).toBe(`1:${L.maxQueryLength + 1}: the query is 100,001 characters long; the limit is 100,000`);
  });

  it('is configurable', () => {
    accepts(queryOfLength(50), { maxQueryLength: 50 });
    expect(failure(queryOfLength(51), { maxQueryLength: 50 }).code).toBe('QUERY_TOO_LONG');
  });
});

describe('limits: nesting depth', () => {
  // Each shape: the token whose n-th occurrence crosses the limit.
  const crossing: Record<string, string> = {
    'a + b chain': '+',
    'unary minus': '-',
    'nested calls': '(',
    'nested iff': '(',
    'tolong(todouble())': '(',
    '.member access': '.',
    'startofday(t, 1)': '(',
    'substring(s, 1)': '(',
  };
  for (const [shape, build] of Object.entries(DEPTH_SHAPES)) {
    it(`${shape}: accepts depth ${L.maxDepth}, refuses ${L.maxDepth + 2} at the token that goes past`, () => {
      // Prepare (depth + 2: one shape nests two levels per step)
      const over = build(L.maxDepth + 2);
      // Act
      const error = failure(over);
      // Assess
      accepts(build(L.maxDepth));
      expect(error.code).toBe('QUERY_TOO_DEEP');
      expect(error.message).toMatch(/the limit is 64$/);
      // The query's head (range ... | extend x =) holds none of these tokens: the 65th is the one.
      expect(error.column).toBe(columnOf(over, crossing[shape]!, L.maxDepth + 1));
    });
  }

  it('counts parentheses while reading: 65 nested parentheses are refused at the 65th', () => {
    const query = `print x = ${'('.repeat(65)}1${')'.repeat(65)}`;
    const error = failure(query);
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.message).toBe(
      `1:${columnOf(query, '(', 65)}: an expression nested more than 64 levels deep; the limit is 64`,
    );
    accepts(`print x = ${'('.repeat(64)}1${')'.repeat(64)}`);
  });

  it('counts an and/or chain as one level whatever its length', () => {
    accepts(`print x = ${Array(500).fill('true').join(' and ')}`);
    accepts(`print x = ${Array(500).fill('false').join(' or ')}`);
  });

  it('counts the depth of a let value where the let is used', () => {
    // Prepare: a is 60 deep; `a + a + a + a + a` puts the first a 4 levels down (64), a 6-term chain 5 (65).
    const value = `${'abs('.repeat(60)}1${')'.repeat(60)}`;
    const over = `let a = ${value}; print x = a + a + a + a + a + a`;
    const roomy = { maxQueryTerms: 100_000 }; // two deep expressions: more than the query's terms allow
    // Act
    const error = failure(over, roomy);
    // Assess
    accepts(`let a = ${value}; print x = a + a + a + a + a`, roomy);
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.message).toBe(
      `1:${over.indexOf('x = a') + 5}: 'a' stands for an expression that, used here, is 65 levels deep; the limit is 64`,
    );
  });

  it('counts the depth of an extend column used later in the same extend', () => {
    const value = `${'abs('.repeat(63)}r${')'.repeat(63)}`;
    accepts(`range r from 1 to 1 step 1 | extend a = ${value}, b = -a`, { maxQueryTerms: 100_000 });
    const error = failure(`range r from 1 to 1 step 1 | extend a = ${value}, b = - -a`, { maxQueryTerms: 100_000 });
    expect(error.code).toBe('QUERY_TOO_DEEP');
  });

  it('counts brackets inside a dynamic literal', () => {
    accepts(`print x = dynamic(${'['.repeat(64)}${']'.repeat(64)})`);
    const query = `print x = dynamic(${'['.repeat(65)}${']'.repeat(65)})`;
    const error = failure(query);
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.column).toBe(columnOf(query, '[', 65));
  });

  it(`accepts ${L.maxDepth} operators stacked on one source, refuses the next at its position, through let tables too`, () => {
    // Prepare
    const over = stackedOperators(L.maxDepth + 1);
    const viaLet = `let t = ${stackedOperators(40)}; t${' | take 5'.repeat(25)}`;
    // Act
    const error = failure(over);
    const letError = failure(viaLet);
    // Assess
    accepts(stackedOperators(L.maxDepth));
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.message).toBe(
      `1:${columnOf(over, 'extend', L.maxDepth + 1)}: 65 tabular operators stacked on one source (let tables included); the limit is 64`,
    );
    expect(letError.code).toBe('QUERY_TOO_DEEP');
    expect(letError.column).toBe(columnOf(viaLet, 'take', 25));
  });
});

describe('limits: terms', () => {
  it(`accepts an expression of ${L.maxTerms} terms, refuses one more at the term past the limit`, () => {
    // Prepare
    const over = inListTerms(L.maxTerms + 1);
    // Act
    const error = failure(over);
    // Assess: the `in` node is the term past the limit (its operand and values come first).
    accepts(inListTerms(L.maxTerms));
    expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
    expect(error.message).toBe(
      `1:${over.indexOf(' in (') + 2}: an expression of more than 2,000 terms; the limit is 2,000`,
    );
  });

  it('counts terms after let substitution: doubling lets are refused at the expression that uses them', () => {
    // Prepare: a9 stands for 2^10 - 1 = 1,023 terms, a9 + a9 for 2,047 (rand() as the seed: sums of
    // literals are folded into one literal, constant-fold.ts).
    const doubling = `let a0 = rand(); ${Array.from({ length: 9 }, (_, i) => `let a${i + 1} = a${i} + a${i};`).join(' ')}`;
    // Act
    const error = failure(`${doubling} print x = a9 + a9`);
    // Assess
    accepts(`${doubling} print x = a9`);
    expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
    expect(error.message).toMatch(
      /: an expression of 2,047 terms once its names are replaced by their values; the limit is 2,000$/,
    );
    expect(error.span.start).toBe(doubling.length + ' print x = '.length);
  });

  it('refuses doubling extend columns before their SQL can grow exponentially', () => {
    const query = `print a0 = 1 | extend ${Array.from({ length: 60 }, (_, i) => `a${i + 1} = a${i} + a${i}`).join(', ')}`;
    expect(failure(query).code).toBe('QUERY_TOO_MANY_TERMS');
  });

  it('counts the terms of the whole query: the limit accepted, one less refused', () => {
    // Prepare: a print of n columns counts n expressions + n columns of its subquery + n passed outward.
    const query = `print ${Array.from({ length: 10 }, (_, i) => `c${i} = ${i}`).join(', ')}`;
    // Act
    const error = failure(query, { maxQueryTerms: 29 });
    // Assess
    accepts(query, { maxQueryTerms: 30 });
    expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
    expect(error.message).toMatch(/: a query of more than 29 terms in all \(.*\); the limit is 29$/);
  });

  it('counts a deep expression as at least its depth squared', () => {
    // Prepare: an expression 40 deep has 41 terms but counts 1,600; four of them pass 5,000.
    const deep = `${'abs('.repeat(40)}r${')'.repeat(40)}`;
    const query = `range r from 1 to 1 step 1 | extend ${Array.from({ length: 4 }, (_, i) => `x${i} = ${deep}`).join(', ')}`;
    // Act
    const error = failure(query);
    // Assess
    accepts(query.replace(/, x3 = .*$/, ''));
    expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
    expect(error.span.start).toBe(query.indexOf('x3 = ') + 5);
  });

  it(`refuses a query of more than ${L.maxQueryTerms} terms in all at the expression that goes past`, () => {
    // Prepare: 3 columns of 1,999 terms: 5,997 expression terms.
    const list = Array.from({ length: 1997 }, (_, i) => String(i)).join(', ');
    const query = `range r from 1 to 1 step 1 | extend a = r in (${list}), b = r in (${list}), c = r in (${list})`;
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe('QUERY_TOO_MANY_TERMS');
    expect(error.span.start).toBe(query.indexOf('c = ') + 4);
  });
});

describe('limits: names', () => {
  it(`accepts a name of ${L.maxNameLength} characters, refuses ${L.maxNameLength + 1} at the name`, () => {
    // Act
    const bracketed = failure(nameOfLength(L.maxNameLength + 1));
    const plain = failure(`print x = 1 | extend ${'n'.repeat(L.maxNameLength + 1)} = 2`);
    // Assess
    accepts(nameOfLength(L.maxNameLength));
    accepts(`print x = 1 | extend ${'n'.repeat(L.maxNameLength)} = 2`);
    expect(bracketed.code).toBe('QUERY_NAME_TOO_LONG');
    expect(bracketed.message).toBe('1:7: a name of 1,025 characters; the limit is 1,024');
    expect(plain.code).toBe('QUERY_NAME_TOO_LONG');
    expect(plain.span).toEqual({ start: 21, end: 21 + L.maxNameLength + 1 });
  });
});

describe('limits: statements', () => {
  it(`accepts ${L.maxStatements} let statements, refuses the next at its 'let'`, () => {
    // Prepare
    const over = lets(L.maxStatements + 1);
    // Act
    const error = failure(over);
    // Assess
    accepts(lets(L.maxStatements));
    expect(error.code).toBe('QUERY_TOO_MANY_STATEMENTS');
    expect(error.message).toBe(
      `1:${columnOf(over, 'let', L.maxStatements + 1)}: more than 100 let statements; the limit is 100`,
    );
  });
});

describe('limits: generated SQL size', () => {
  it.each(['duckdb', 'timestream'] as const)(
    '%s: accepts SQL of exactly the limit, refuses it with a limit one character lower',
    (dialect) => {
      // Prepare
      const query = 'States | where todouble(Value.a) > 1 | project s = tostring(todouble(Value.b))';
      const length = compile(query, { ...options(), dialect }).sql.length;
      // Act
      const error = failure(query, { maxSqlLength: length - 1 }, dialect);
      // Assess
      expect(compile(query, { ...options({ maxSqlLength: length }), dialect }).sql).toHaveLength(length);
      expect(error.code).toBe('QUERY_TOO_LARGE');
      expect(error.message).toMatch(new RegExp(`the limit is ${(length - 1).toLocaleString('en-US')}$`));
    },
  );

  it('stops SQL that grows exponentially with nesting (dialects repeat some arguments) at the expression', () => {
    // On Timestream tostring(dynamic) writes its argument 3-4 times and parse_json 2-3 times: 30 levels would be 6^15 copies.
    const nested = (levels: number): string =>
      `range r from 1 to 1 step 1 | extend x = ${'tostring(parse_json('.repeat(levels)}r${'))'.repeat(levels)}`;
    const query = nested(15);
    const error = failure(query, {}, 'timestream');
    expect(error.code).toBe('QUERY_TOO_LARGE');
    expect(error.span.start).toBeGreaterThanOrEqual(query.indexOf('x = ') + 4);
    // DuckDB binds both texts once: its SQL grows by about the same length per level.
    const length = (levels: number): number => compile(nested(levels), { ...options(), dialect: 'duckdb' }).sql.length;
    expect(length(15) - length(14)).toBe(length(3) - length(2));
  });
});

describe('limits: compile budget', () => {
  it('stops with QUERY_TOO_COMPLEX once the budget is spent, at the position being worked on', () => {
    // Prepare: a clock that advances 1 ms each time it is read.
    let now = 0;
    const clock = (): number => now++;
    const query = `print x = 1 | extend ${Array.from({ length: 1000 }, (_, i) => `c${i} = ${i}`).join(', ')}`;
    // Act
    let thrown: unknown;
    try {
      compile(query, { ...options({ compileBudgetMs: 5 }), clock });
    } catch (e) {
      thrown = e;
    }
    // Assess
    expect(thrown).toBeInstanceOf(QueryError);
    const error = thrown as QueryError;
    expect(error.code).toBe('QUERY_TOO_COMPLEX');
    expect(error.message).toMatch(
      /^1:\d+: compiling the query took longer than its budget of 5 ms; simplify the query$/,
    );
    expect(error.span.start).toBeLessThanOrEqual(query.length);
  });

  it("counts a wall-clock overrun only once the process has also used the CPU time (a loaded machine is not the query's fault)", () => {
    // Prepare: the wall clock jumps 10 ms per read (the compile waits for a core); CPU time as set below.
    let wall = 0;
    let cpu = 100;
    const budget = new CompileBudget(
      5,
      () => (wall += 10),
      new ErrorFactory('print 1'),
      0,
      () => cpu,
    );
    const ticks = (n: number): void => {
      for (let i = 0; i < n; i++) budget.tick(0);
    };
    // Act / Assess: 1,024 ticks read the clock 4 times, far past the deadline; the CPU is counted from
    // the first read (at 100 ms), and 3 ms of it are used by the fourth
    ticks(256);
    cpu += 3;
    expect(() => ticks(768)).not.toThrow();
    // Assess: once the CPU used since then passes the budget, the next clock read stops it
    cpu += 3;
    expect(() => ticks(256)).toThrow(/took longer than its budget of 5 ms/);
  });

  it("leaves the process's once-only work (once-per-process.ts) out of the budget, and counts any other", () => {
    // Prepare: a budget of 50 ms on the real clock, and work that takes 100 ms of it.
    const budget = new CompileBudget(50, () => performance.now(), new ErrorFactory('print 1'));
    const ticks = (n: number): void => {
      for (let i = 0; i < n; i++) budget.tick(0);
    };
    const work = (): void => {
      const until = performance.now() + 100;
      while (performance.now() < until);
    };
    // Act / Assess: 100 ms of once-only work (the Unicode word set's first scan) is not this compile's
    once(work);
    expect(() => ticks(256)).not.toThrow();
    // Act / Assess: the same 100 ms of the compile's own work passes its 50 ms
    work();
    expect(() => ticks(256)).toThrow(/took longer than its budget of 50 ms/);
  });

  it('lets the same query through when the clock stays within the budget', () => {
    const query = `print x = 1 | extend ${Array.from({ length: 1000 }, (_, i) => `c${i} = ${i}`).join(', ')}`;
    expect(() => compile(query, { ...options({ compileBudgetMs: 5 }), clock: () => 0 })).not.toThrow();
  });
});

// Issue 12's table, each row as query text through compile(): a positioned 400, never anything else.
describe("issue 12: the attacker's queries at the compile() level", () => {
  it('print $ is a positioned syntax error, and $left lexes as a name (joins will use it)', () => {
    expect(failure('print $')).toMatchObject({
      code: 'QUERY_SYNTAX',
      message: "1:7: '$' must be followed by a name, as in $left",
    });
    expect(failure('print x = $left')).toMatchObject({
      code: 'QUERY_SEMANTIC',
      message: "1:11: unknown column '$left'",
    });
    expect(tokenize('$left $right').map((t) => `${t.kind}:${t.text}`)).toEqual(['ident:$left', 'ident:$right', 'eof:']);
  });

  it('45,000-character bracketed names are refused at the name, without computing a hint', () => {
    const error = failure(`print ['${'a'.repeat(45_000)}'] = 1 | project ['${'b'.repeat(45_000)}']`);
    expect(error).toMatchObject({
      code: 'QUERY_NAME_TOO_LONG',
      message: '1:7: a name of 45,000 characters; the limit is 1,024',
    });
  });

  it('200 lets and a 45,000-character unknown table name are refused', () => {
    const error = failure(
      `${Array.from({ length: 200 }, (_, i) => `let v${i} = ${i};`).join(' ')} ${'x'.repeat(45_000)}`,
    );
    expect(['QUERY_TOO_MANY_STATEMENTS', 'QUERY_NAME_TOO_LONG']).toContain(error.code);
  });

  it('an unknown 1,024-character table name after 99 lets gets no hint and no edit distance', () => {
    const error = failure(
      `${Array.from({ length: 99 }, (_, i) => `let v${i} = range r from 1 to 1 step 1;`).join(' ')} ${'x'.repeat(1024)}`,
    );
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(/unknown table 'x{64}…'$/);
  });

  it.each([700, 900])('print x = 1+1+... with %i terms is too deep', (terms) => {
    const query = `print x = ${Array(terms).fill('1').join('+')}`;
    const error = failure(query);
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.column).toBe(columnOf(query, '+', L.maxDepth + 1));
  });

  it.each([
    ['3,000 nested parentheses', `print x = ${'('.repeat(3000)}1${')'.repeat(3000)}`, 'QUERY_TOO_DEEP'],
    ['a 5,000-term sum', `print x = ${Array(5000).fill('1').join(' + ')}`, 'QUERY_TOO_DEEP'],
    ['40,000 unary minus', `print x = ${'-'.repeat(40_000)}1`, 'QUERY_TOO_DEEP'],
    ['6,000 ands', `print x = ${Array(6000).fill('true').join(' and ')}`, 'QUERY_TOO_MANY_TERMS'],
  ])('%s: a positioned limit error, no stack overflow', (_name, query, code) => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      const error = failure(query, {}, dialect);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/^1:\d+: .*; the limit is [\d,]+$/);
    }
  });

  it("print x = ago(-100000000000d): the timespan literal is out of Kusto's range, at the literal", () => {
    expect(failure('print x = ago(-100000000000d)')).toMatchObject({
      code: 'QUERY_SYNTAX',
      message: '1:16: the timespan literal is out of range (at most 10675199 days)',
    });
  });

  it.each([
    'range x from 1 to 10 step 0',
    'range x from datetime(2024-01-01) to datetime(2024-01-02) step 0s',
    'range x from 1h to 2h step 0s',
    'range x from 1.0 to 10.0 step 0.0',
    'let s = 1 - 1; range x from 1 to 10 step s',
    'range x from 1 to 10 step 2 - 2',
  ])('%s: a zero step is a positioned 400 at the step', (query) => {
    const error = failure(query);
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toBe(
      `1:${query.indexOf('step ') + 6}: the range step cannot be 0: the range would never end`,
    );
  });

  it('range x from 1 to 10 step 0s: a timespan step on numbers is a type error, positioned', () => {
    expect(failure('range x from 1 to 10 step 0s')).toMatchObject({
      code: 'QUERY_SEMANTIC',
      message: '1:1: range cannot go from long to long by timespan',
    });
  });
});
