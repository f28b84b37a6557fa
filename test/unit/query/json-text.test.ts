// The stored text of a dynamic literal (lib/query/json-text.ts): whitespace outside strings goes,
// a real is written as its value (as the engine's JSON writer does) and stays a real, integers and strings stay as written.
import { describe, expect, it } from 'vitest';
import { minifiedJson } from '../../../lib/query/json-text';

describe('minifiedJson', () => {
  it.each([
    ['{ "a" : [1 , 2] }', '{"a":[1,2]}'],
    ['20.50', '20.5'],
    ['1.0', '1.0'],
    ['[1E5, 2e+3, -3e-1, 1.5e-7]', '[100000.0,2000.0,-0.3,1.5e-7]'],
    ['1e300', '1e300'],
    ['-0.0', '-0.0'],
    ['9007199254740993', '9007199254740993'],
    ['{"k 1.50": "2.50 x"}', '{"k 1.50":"2.50 x"}'],
    ['"a\\" 1.50"', '"a\\" 1.50"'],
    // Escapes as DuckDB's json() writes them (parse_json): characters as themselves, control characters escaped.
    ['["\\u00e9", "\\/", "\\ud83d\\ude00", "\\u001f\\n"]', '["é","/","😀","\\u001F\\n"]'],
    ['{"k\\u00e9": "\\\\u0041"}', '{"ké":"\\\\u0041"}'],
  ])('%s is stored as %s', (raw, stored) => {
    // Act
    const text = minifiedJson(raw);
    // Assess
    expect(text).toBe(stored);
    expect(JSON.parse(text)).toEqual(JSON.parse(raw));
  });

  it('writes a number beyond the double range as the string of an infinite real', () => {
    // Act / Assess: JSON.parse reads 1e400 as Infinity, which no JSON text holds
    expect(minifiedJson('[1e400, -1e400]')).toBe('["Infinity","-Infinity"]');
  });

  it('throws on text that is not JSON', () => {
    // Act / Assess
    expect(() => minifiedJson('[1,]')).toThrow(SyntaxError);
  });
});
