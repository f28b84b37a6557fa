// Server errors placed in the document: shifted to the statement that ran, kept visible.
import { describe, expect, it } from 'vitest';
import { placeMarker, type ModelLines } from '../../../lib/playground/web/editor-markers';

// A document as the editor sees it: words are runs of letters and digits.
function linesOf(text: string): ModelLines {
  const lines = text.split('\n');
  return {
    lineCount: lines.length,
    maxColumn: (line) => (lines[line - 1] ?? '').length + 1,
    wordEnd: (line, column) => {
      const content = lines[line - 1] ?? '';
      if (!/\w/.test(content[column - 1] ?? '')) return undefined;
      let end = column;
      while (/\w/.test(content[end - 1] ?? '')) end += 1;
      return end;
    },
  };
}

const doc = 'States | take 1\n\nStates\n| where Vaule > 1';

describe('placeMarker', () => {
  it('places a marker of the whole text at its line:col, spanning the word there', () => {
    const placed = placeMarker(
      { line: 4, column: 9, message: "unknown column 'Vaule'" },
      { line: 1, column: 1 },
      linesOf(doc),
    );
    expect(placed).toEqual({
      startLineNumber: 4,
      startColumn: 9,
      endLineNumber: 4,
      endColumn: 14,
      message: "unknown column 'Vaule'",
    });
  });

  it('shifts a marker of a statement that starts further down by that statement position', () => {
    const placed = placeMarker(
      { line: 2, column: 9, endColumn: 14, message: 'm' },
      { line: 3, column: 1 },
      linesOf(doc),
    );
    expect(placed).toMatchObject({ startLineNumber: 4, startColumn: 9, endColumn: 14 });
    const first = placeMarker({ line: 1, column: 3, message: 'm' }, { line: 2, column: 5 }, linesOf('\nab  cdef'));
    expect(first).toMatchObject({ startLineNumber: 2, startColumn: 7, endColumn: 9 });
  });

  it('keeps the marker inside the document and at least one character wide', () => {
    const lines = linesOf(doc);
    expect(placeMarker({ line: 9, column: 99, message: 'm' }, { line: 1, column: 1 }, lines)).toMatchObject({
      startLineNumber: 4,
      startColumn: 17,
      endColumn: 18,
    });
    expect(placeMarker({ line: 1, column: 16, message: 'end of line' }, { line: 1, column: 1 }, lines)).toMatchObject({
      startLineNumber: 1,
      startColumn: 15,
      endColumn: 16,
    });
    expect(placeMarker({ line: 0, column: 0, message: 'm' }, { line: 1, column: 1 }, lines)).toMatchObject({
      startLineNumber: 1,
      startColumn: 1,
      endColumn: 7,
    });
  });
});
