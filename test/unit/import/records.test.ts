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

  it('gives a record after a multi-line CRLF record and blank lines the line it starts on', () => {
    // Prepare: a BOM, CRLF line ends, a quoted field over three lines, blank lines in between
    const text = '\uFEFFpartNumber;description\r\nA;"one\r\ntwo\r\nthree"\r\n\r\n;\r\nB;x\r\n';
    // Act
    const records = parseCsvRecords(text);
    // Assess
    expect(records).toEqual([
      { line: 2, value: { partNumber: 'A', description: 'one\r\ntwo\r\nthree' } },
      { line: 7, value: { partNumber: 'B', description: 'x' } },
    ]);
  });

  it('keeps a quote inside an unquoted field and refuses cells beyond the header by line', () => {
    expect(parseCsvRecords('partNumber,description\nP-12,Pipe 12" steel\n,\nP-13,x,\n')).toEqual([
      { line: 2, value: { partNumber: 'P-12', description: 'Pipe 12" steel' } },
      { line: 4, value: { partNumber: 'P-13', description: 'x' } },
    ]);
    expect(() => parseCsvRecords('partNumber,description\nA,b\nC,d,e\n')).toThrow(
      'line 3: 3 fields, but the header names 2 columns',
    );
  });

  it('names the line a malformed record starts on', () => {
    expect(() => parseCsvRecords('partNumber,description\nÄ-1,"ß"\n\nB,"open\nmore\n')).toThrow(
      'line 4: a quoted field is not closed',
    );
    expect(() => parseCsvRecords('')).toThrow('the CSV file is empty');
  });

  it('gives each JSON array element the line it starts on', () => {
    const text = '[\n  {"partNumber": "A"},\n  {\n    "partNumber": "B, [x]"\n  },\n  {"partNumber": "C"}\n]';
    expect(parseJsonRecords(text).map((r) => r.line)).toEqual([2, 3, 6]);
    expect(parseJsonRecords('{"rows":\n[\n{"partNumber":"A"}]}').map((r) => r.line)).toEqual([3]);
    expect(() => parseJsonRecords('{"partNumber":"A"}')).toThrow(/array/);
  });
});
