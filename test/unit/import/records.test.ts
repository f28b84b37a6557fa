// Import files: every record keeps the line it starts on (CSV with quotes and line breaks, JSON arrays).
import { describe, expect, it } from 'vitest';
import { parseCsvRecords, parseJsonRecords } from '../../../lib/import/records';

describe('import records', () => {
  it('reads CSV with quoted separators, doubled quotes, line breaks and a semicolon separator', () => {
    const records = parseCsvRecords('partNumber,description\nA,"one, two"\nB,"say ""hi""\nsecond line"\n\nC,plain\n');
    expect(records).toEqual([
      { line: 2, value: { partNumber: 'A', description: 'one, two' } },
      { line: 3, value: { partNumber: 'B', description: 'say "hi"\nsecond line' } },
      { line: 6, value: { partNumber: 'C', description: 'plain' } },
    ]);
    expect(parseCsvRecords('a;b\r\n1;2\r\n')).toEqual([{ line: 2, value: { a: '1', b: '2' } }]);
    expect(() => parseCsvRecords('a\n"open')).toThrow(/not closed/);
  });

  it('gives each JSON array element the line it starts on', () => {
    const text = '[\n  {"partNumber": "A"},\n  {\n    "partNumber": "B, [x]"\n  },\n  {"partNumber": "C"}\n]';
    expect(parseJsonRecords(text).map((r) => r.line)).toEqual([2, 3, 6]);
    expect(parseJsonRecords('{"rows":\n[\n{"partNumber":"A"}]}').map((r) => r.line)).toEqual([3]);
    expect(() => parseJsonRecords('{"partNumber":"A"}')).toThrow(/array/);
  });
});
