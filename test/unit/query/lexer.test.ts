// Lexer: token kinds, spans and literal decoding.
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../lib/query/lexer';
import { QueryError } from '../../../lib/query/errors';

const kinds = (text: string): string[] => tokenize(text).map((t) => `${t.kind}:${t.text}`);

describe('lexer', () => {
  it('gives every token its span', () => {
    // Prepare
    const text = 'States | where Value > 5';
    // Act
    const tokens = tokenize(text);
    // Assess
    for (const t of tokens.slice(0, -1)) expect(text.slice(t.span.start, t.span.end)).toBe(t.text);
    expect(tokens.at(-1)).toMatchObject({ kind: 'eof', span: { start: text.length, end: text.length } });
  });

  it('reads hyphenated operator names as one identifier but keeps subtraction apart', () => {
    expect(kinds('project-away a')).toEqual(['ident:project-away', 'ident:a', 'eof:']);
    expect(kinds('a-b')).toEqual(['ident:a', 'op:-', 'ident:b', 'eof:']);
  });

  it('reads negated and case-insensitive operators', () => {
    expect(kinds('x !has "a" and y !in~ ("b") and z in~ ("c") and w != 1 and v !~ "d"')).toEqual([
      'ident:x',
      'op:!has',
      'string:"a"',
      'ident:and',
      'ident:y',
      'op:!in~',
      'op:(',
      'string:"b"',
      'op:)',
      'ident:and',
      'ident:z',
      'op:in~',
      'op:(',
      'string:"c"',
      'op:)',
      'ident:and',
      'ident:w',
      'op:!=',
      'long:1',
      'ident:and',
      'ident:v',
      'op:!~',
      'string:"d"',
      'eof:',
    ]);
  });

  // https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/timespan
  it.each([
    ['2d', 2n * 864_000_000_000n],
    ['1.5h', 54_000_000_000n],
    ['30m', 18_000_000_000n],
    ['10s', 100_000_000n],
    ['100ms', 1_000_000n],
    ['10microsecond', 100n],
    ['1tick', 1n],
    ['2min', 1_200_000_000n],
    ['5sec', 50_000_000n],
    ['3hr', 108_000_000_000n],
    ['1hours', 36_000_000_000n],
    ['2minutes', 1_200_000_000n],
    ['1second', 10_000_000n],
    ['7milliseconds', 70_000n],
  ])('reads the timespan literal %s as ticks', (text, ticks) => {
    expect(tokenize(text)[0]).toMatchObject({ kind: 'timespan', value: ticks });
  });

  // https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/string
  it('decodes escapes, verbatim strings and multi-line strings', () => {
    expect(tokenize(String.raw`"a\"b\\c\n"`)[0]!.value).toBe('a"b\\c\n');
    expect(tokenize(`'it''s'`).length).toBe(3); // two adjacent literals, not one with a doubled quote
    expect(tokenize(`@"C:\\temp\\""x"`)[0]!.value).toBe('C:\\temp\\"x');
    expect(tokenize('```line1\nline2```')[0]!.value).toBe('line1\nline2');
  });

  it('skips // comments, including ones that look like SQL', () => {
    expect(kinds('States // ; DROP TABLE States; --\n| count')).toEqual([
      'ident:States',
      'op:|',
      'ident:count',
      'eof:',
    ]);
  });

  it('reads datetime(...) and dynamic(...) as typed literals with raw content', () => {
    const [dt, , dyn] = tokenize('datetime(2024-01-01 10:30) , dynamic({"a": [1, ")"]})');
    expect(dt).toMatchObject({ kind: 'typedLiteral', typeName: 'datetime', value: '2024-01-01 10:30' });
    expect(dyn).toMatchObject({ kind: 'typedLiteral', typeName: 'dynamic', value: '{"a": [1, ")"]}' });
  });

  it.each([
    ['"abc', '1:1: unterminated string literal'],
    ['x = 5 # 3', "1:7: unexpected character '#'"],
    ['\n  1.5parsecs', "2:3: unknown timespan unit 'parsecs'"],
    // Every step consumes input: a lone `$` (once an endless loop) and other dead ends stop with a position.
    ['print $', "1:7: '$' must be followed by a name, as in $left"],
    ['print $ + 1', "1:7: '$' must be followed by a name, as in $left"],
    ['print 0x', '1:7: a hexadecimal literal needs at least one digit after 0x'],
    ['print 0x8000000000000000', '1:7: the hexadecimal literal is out of the range of long'],
    ['print 123456789012345678901', '1:7: the integer literal is out of the range of long'],
    // Forms Kusto.Language reads no number or timespan from (an unknown name, or a missing expression).
    ['print 1e400d', "1:7: '1e400d' is not a timespan: a timespan literal takes no exponent"],
    ['print 1e5h', "1:7: '1e5h' is not a timespan: a timespan literal takes no exponent"],
    ['print 1.5e+2h', "1:7: '1.5e+2h' is not a timespan: a timespan literal takes no exponent"],
    ['print 1.h', "1:7: '1.h' is not a timespan: write a digit after the decimal point"],
    ['print .5h', "1:7: '.5h' is not a number: write a digit before the decimal point"],
    ['print 1 + .5', "1:11: '.5' is not a number: write a digit before the decimal point"],
    ['print 0x10h', "1:7: '0x10h' is not a number: a hexadecimal literal has no unit"],
    ['print 10675200d', '1:7: the timespan literal is out of range (at most 10675199 days)'],
    ['print 99999999999999999999999999999s', '1:7: the timespan literal is out of range (at most 10675199 days)'],
    ['print \u0007', '1:7: unexpected character U+0007'],
    ['print \u{1F600}', "1:7: unexpected character '\u{1F600}'"],
    ['print é', "1:7: unexpected character 'é'"],
  ])('rejects %j with a positioned syntax error', (text, message) => {
    expect(() => tokenize(text)).toThrow(QueryError);
    expect(() => tokenize(text)).toThrow(message);
  });

  it('reads .5 inside real(), double() and decimal(), signed or not, as Kusto.Language does', () => {
    expect(kinds('real(.5) double(-.5) decimal(+.5e3) todouble(1)')).toEqual([
      'ident:real',
      'op:(',
      'real:.5',
      'op:)',
      'ident:double',
      'op:(',
      'op:-',
      'real:.5',
      'op:)',
      'ident:decimal',
      'op:(',
      'op:+',
      'real:.5e3',
      'op:)',
      'ident:todouble',
      'op:(',
      'long:1',
      'op:)',
      'eof:',
    ]);
    expect(() => tokenize('print todouble(.5)')).toThrow("1:16: '.5' is not a number");
  });

  it('reads digits beyond a long inside real(), double() and decimal() as a real, as Kusto.Language does', () => {
    // A real answer such as 9223372036854775807 * -2.5 written back as a literal (the differential's where context).
    expect(kinds('real(-23058430092136940000) double(100000000000000000000) decimal(7)')).toEqual([
      'ident:real',
      'op:(',
      'op:-',
      'real:23058430092136940000',
      'op:)',
      'ident:double',
      'op:(',
      'real:100000000000000000000',
      'op:)',
      'ident:decimal',
      'op:(',
      'long:7',
      'op:)',
      'eof:',
    ]);
    expect(() => tokenize('print todouble(23058430092136940000)')).toThrow(
      '1:16: the integer literal is out of the range of long',
    );
  });

  it('reads digits run into a word that is no timespan as one name, as Kusto.Language does', () => {
    // The series_fir page: `extend 5h_MovingAvg=series_fir(...)`; `5h` alone stays a timespan.
    expect(kinds('5h_MovingAvg = 5h, 1e5x 10microsecondx')).toEqual([
      'ident:5h_MovingAvg',
      'op:=',
      'timespan:5h',
      'op:,',
      'ident:1e5x',
      'ident:10microsecondx',
      'eof:',
    ]);
    // A signed exponent is no name character: `1e-5x` is 1e minus 5x, as Kusto.Language reads it.
    expect(kinds('1e-5x 2E+3y')).toEqual(['ident:1e', 'op:-', 'ident:5x', 'ident:2E', 'op:+', 'ident:3y', 'eof:']);
  });

  it('reads the longest timespan Kusto has, and names that start with $', () => {
    expect(tokenize('10675199d')[0]).toMatchObject({ kind: 'timespan', value: 10_675_199n * 864_000_000_000n });
    expect(kinds('$left.a $right_2')).toEqual(['ident:$left', 'op:.', 'ident:a', 'ident:$right_2', 'eof:']);
  });

  it.each([
    [String.raw`print extract("\d+", 0, "a12")`, 15, 17, String.raw`'\d' is not an escape of a quoted string`],
    [String.raw`print 'a\.b'`, 8, 10, String.raw`'\.' is not an escape of a quoted string`],
    [String.raw`print h"\x4"`, 8, 10, String.raw`'\x' needs 2 hexadecimal digits`],
    [String.raw`print "\u004g"`, 7, 9, String.raw`'\u' needs 4 hexadecimal digits`],
  ])('refuses a backslash that starts no escape, as Kusto.Language does: %s', (text, start, end, message) => {
    try {
      tokenize(text);
    } catch (e) {
      expect((e as QueryError).code).toBe('QUERY_SYNTAX');
      expect((e as QueryError).message).toContain(message);
      expect((e as QueryError).message).toContain('verbatim string');
      expect((e as QueryError).span).toEqual({ start, end });
      return;
    }
    throw new Error('expected a syntax error');
  });

  it("decodes the escapes Kusto.Language reads: C#'s, hexadecimal and octal ones", () => {
    const values = tokenize(String.raw`"\t\r\a\b\f\v\0" "\x41\u0042\U00000043" "\101\400" @"\d" "\\d"`).map(
      (t) => t.value,
    );
    expect(values.slice(0, 5)).toEqual(['\t\r\x07\b\f\v\0', 'ABC', 'A 0', '\\d', '\\d']);
  });

  it('keeps the span of a string cut after a backslash inside the text (found by the fuzzer)', () => {
    try {
      tokenize('print a = "a\\');
    } catch (e) {
      expect((e as QueryError).message).toBe('1:11: unterminated string literal');
      expect((e as QueryError).span).toEqual({ start: 10, end: 13 });
      return;
    }
    throw new Error('expected a syntax error');
  });

  it('gives an astral character one span of two code units', () => {
    try {
      tokenize('x \u{1F600}');
    } catch (e) {
      expect((e as QueryError).span).toEqual({ start: 2, end: 4 });
      return;
    }
    throw new Error('expected a syntax error');
  });
});
