// Parser: structure of the tree and positioned errors for malformed or unsupported input.
import { describe, expect, it } from 'vitest';
import { parse } from '../../../lib/query/parser';
import { QueryError } from '../../../lib/query/errors';

function errorOf(text: string): QueryError {
  try {
    parse(text);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${text} to fail`);
}

describe('parser', () => {
  it('parses a pipeline with lets and operators', () => {
    // Act
    const program = parse('let n = 5;\nlet t = States | where Name == "a";\nt | take n | project x = Value.a["b"]');
    // Assess
    expect(program.lets.map((l) => [l.name, l.value.kind])).toEqual([
      ['n', 'literal'],
      ['t', 'pipeline'],
    ]);
    expect(program.query.source).toMatchObject({ kind: 'table', name: 't' });
    expect(program.query.operators.map((o) => o.kind)).toEqual(['take', 'project']);
  });

  // Kusto.Language accepts a trailing comma after the last column of a datatable schema and after its last value.
  it('reads a datatable whose schema or value list ends with a comma', () => {
    // Act
    const program = parse('datatable(a:long, b:string,)[1, "x",]');
    // Assess
    expect(program.query.source).toMatchObject({
      kind: 'datatable',
      columns: [
        { name: 'a', type: 'long' },
        { name: 'b', type: 'string' },
      ],
      values: [{ kind: 'literal' }, { kind: 'literal' }],
    });
    expect(errorOf('datatable(,)[1]').message).toContain('expected a column name');
  });

  it('reads a let of a tabular expression in parentheses as a tabular let, at the top and in a function body', () => {
    // Act
    const program = parse(
      'let t = (States | take 1);\nlet f = (T:(*)) { let u = (T | take 2); u };\nlet n = (1 + 2);\nt | invoke f()',
    );
    // Assess
    expect(program.lets.map((l) => [l.name, l.value.kind])).toEqual([
      ['t', 'pipeline'],
      ['f', 'function'],
      ['n', 'binary'],
    ]);
    expect(program.lets[0]).not.toHaveProperty('materialized');
  });

  it('reads a parenthesized tabular expression followed by pipes as one pipeline, wherever a tabular expression goes', () => {
    // Act
    const program = parse(
      [
        'let x = (States) | count;',
        'let y = ((States | take 1)) | extend z = 1;',
        'let m = materialize((States) | take 2);',
        '(x | union (print a = 1), ((y) | take 1)) | where toscalar((Events) | count) > 0',
        '| join ((Events) | take 3) on Uid',
      ].join('\n'),
    );
    // Assess
    const [x, y, m] = program.lets.map((l) => l.value);
    expect(x).toMatchObject({ kind: 'pipeline', source: { name: 'States' }, operators: [{ kind: 'count' }] });
    expect(y).toMatchObject({ source: { name: 'States' }, operators: [{ kind: 'take' }, { kind: 'extend' }] });
    expect(m).toMatchObject({ source: { name: 'States' }, operators: [{ kind: 'take' }] });
    expect(program.lets[2]).toHaveProperty('materialized', true);
    const { source, operators } = program.query;
    expect(source).toMatchObject({ kind: 'table', name: 'x' });
    expect(operators.map((o) => o.kind)).toEqual(['union', 'where', 'join']);
    const union = operators[0]!;
    expect(union.kind === 'union' && union.union.legs).toMatchObject([
      { pipeline: { source: { kind: 'print' } } },
      { pipeline: { source: { name: 'y' }, operators: [{ kind: 'take' }] } },
    ]);
    expect(operators[2]).toMatchObject({
      join: { right: { source: { name: 'Events' }, operators: [{ kind: 'take' }] } },
    });
  });

  it('reads a parenthesized source after a batch separator, and still refuses an unclosed one', () => {
    // Act
    const program = parse('print a = 1; (print b = 2) | count');
    // Assess
    expect(program.batch?.[0]?.query).toMatchObject({ source: { kind: 'print' }, operators: [{ kind: 'count' }] });
    expect(errorOf('(States | count').message).toMatch(/expected '\)'/);
  });

  it('binds and tighter than or, and comparison tighter than and', () => {
    const program = parse('States | where a == 1 or b == 2 and c == 3');
    const where = program.query.operators[0]!;
    expect(where.kind === 'where' && where.predicate.kind === 'binary' && where.predicate.op).toBe('or');
  });

  it('gives every node the span of its text', () => {
    const text = 'States | where Value > 5';
    const where = parse(text).query.operators[0]!;
    expect(text.slice(where.span.start, where.span.end)).toBe('where Value > 5');
  });

  it('reads .[expr] as the element access [expr], and .["name"] as a member', () => {
    // Act
    const program = parse('let p = "b"; print x = d.[p], y = d.["a"].[0]');
    // Assess
    const print = program.query.source;
    const [x, y] = print.kind === 'print' ? print.items.map((c) => c.expr) : [];
    expect(x).toMatchObject({ kind: 'index', target: { kind: 'name', name: 'd' }, index: { kind: 'name', name: 'p' } });
    expect(y).toMatchObject({ kind: 'index', target: { kind: 'member', name: 'a' }, index: { kind: 'literal' } });
  });

  it.each([
    ['States | where', 'QUERY_SYNTAX', '1:15: unexpected end of query'],
    ['States\n| where x ==', 'QUERY_SYNTAX', '2:13: unexpected end of query'],
    ['States | summarize count( by x', 'QUERY_SYNTAX', "1:30: expected ')', found 'x'"],
    ['States | frobnicate', 'QUERY_SYNTAX', "1:10: unknown operator 'frobnicate'"],
    ['States | join (Events) on DeviceId, $left.Name', 'QUERY_SYNTAX', "1:47: expected '==', found 'end of query'"],
    ['States | join kind=outer (Events) on DeviceId', 'QUERY_SYNTAX', "1:20: unknown join kind 'outer'"],
    [
      'States | lookup kind=fullouter (Events) on DeviceId',
      'QUERY_SEMANTIC',
      "1:22: lookup supports kind=leftouter and kind=inner only, not 'fullouter'",
    ],
    [
      'States | evaluate autocluster(Value)',
      'QUERY_UNSUPPORTED',
      "1:19: the 'autocluster' plugin is not supported: its page does not define how segments are chosen (its examples run over StormEvents, whose rows the page does not print)",
    ],
    ['States | mv-apply x = Value on (take 1', 'QUERY_SYNTAX', "1:39: expected ')', found 'end of query'"],
    ['States | mv-apply x = Value on take 1', 'QUERY_SYNTAX', "1:32: expected '(', found 'take'"],
    ['States | mv-apply x = Value with (take 1)', 'QUERY_SYNTAX', "1:29: expected 'on', found 'with'"],
    [
      'States | mv-apply kind=array x = Value on (take 1)',
      'QUERY_SYNTAX',
      '1:19: mv-apply does not take kind=; expand a bag with an inner mv-expand',
    ],
    [
      'States | mv-apply x = Value context_id=c on (take 1)',
      'QUERY_UNSUPPORTED',
      "1:29: mv-apply's context_id is not supported",
    ],
    ['States | mv-apply x = Value on (| take 1)', 'QUERY_SYNTAX', "1:33: expected an operator after '|', found '|'"],
    ['union isfuzzy=maybe States, Events', 'QUERY_SYNTAX', "1:15: isfuzzy is 'true' or 'false'"],
    ['externaldata "x"', 'QUERY_UNSUPPORTED', "1:1: 'externaldata' is not supported"],
    ['States Events', 'QUERY_SYNTAX', "1:8: expected ';' before another statement, found 'Events'"],
    ['let f = (x: long) { }; print f(1)', 'QUERY_SYNTAX', '1:21: the function body has no result expression'],
    ['print datetime(2024-13-01)', 'QUERY_SYNTAX', "1:7: invalid datetime literal '2024-13-01'"],
    ['let x = 1', 'QUERY_SYNTAX', "1:10: expected ';' after the let statement"],
    ['print x = d.[]', 'QUERY_SYNTAX', "1:14: unexpected ']'"],
  ])('rejects %j', (text, code, message) => {
    const error = errorOf(text);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
  });

  // After a join the right side's clashing columns end in 1: `project-away *1` (Kusto.Language reads it).
  it('reads digits after a star in a column pattern, and not across a space', () => {
    // Act
    const program = parse('T | project-away *1, k*12*, a | project-keep *2');
    // Assess
    expect(program.query.operators).toMatchObject([
      {
        kind: 'projectAway',
        names: [{ name: '*1', wildcard: true }, { name: 'k*12*', wildcard: true }, { name: 'a' }],
      },
      { kind: 'projectKeep', names: [{ name: '*2', wildcard: true }] },
    ]);
    expect(errorOf('T | project-away * 1').message).toBe("1:20: expected ';' before another statement, found '1'");
  });

  it('reports the data array with line, column and offsets', () => {
    const error = errorOf('States\n| where x ==');
    expect(error.toData()).toEqual([{ line: 2, column: 13, start: 19, end: 19 }]);
  });

  // Kusto.Language's lexer reads True, TRUE, False and FALSE as bool literals, and accepts them as an
  // operator's bool option (casemut M3: `as hint.materialized=TRUE` was refused).
  it('reads every spelling of a bool word as an operator option', () => {
    // Act
    const program = parse(
      'print x = 1 | union isfuzzy=True (print x = 1) | as hint.materialized=TRUE T | union isfuzzy=FALSE T',
    );
    // Assess
    expect(program.query.operators).toMatchObject([
      { kind: 'union', union: { fuzzy: true } },
      { kind: 'as', name: 'T', materialized: true },
      { kind: 'union', union: { unionKind: 'outer' } },
    ]);
    expect(program.query.operators[2]).not.toHaveProperty('union.fuzzy');
    expect(parse('print x = 1 | as hint.materialized=False T').query.operators[0]).not.toHaveProperty('materialized');
    expect(errorOf('print x = 1 | consume decodeblocks=tRue').message).toBe("1:36: decodeblocks is 'true' or 'false'");
  });
});
