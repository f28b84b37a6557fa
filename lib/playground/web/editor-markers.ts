// Server errors (EditorMarker of contracts.ts: 1-based line:col in the text that was run) placed in the document.
// The text that was run may be one statement of several: its positions are shifted by where that
// statement starts in the document. Pure (no Monaco): the editor passes in what it knows of the
// model's lines. Unit-tested.

/** contracts.ts's EditorMarker, restated: contracts.ts names DOM types, which Node tests lack. */
export interface MarkerInput {
  readonly line: number;
  readonly column: number;
  readonly endColumn?: number;
  readonly message: string;
}

/** Where the text that was run starts in the document, 1-based. */
export interface TextOrigin {
  readonly line: number;
  readonly column: number;
}

/** What the editor knows of the model: line count, a line's max column, a word's end column. */
export interface ModelLines {
  readonly lineCount: number;
  maxColumn(line: number): number;
  /** End column of the word at (line, column), undefined when no word is there. */
  wordEnd(line: number, column: number): number | undefined;
}

/** Monaco's IMarkerData without the severity (the caller sets it). */
export interface PlacedMarker {
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endLineNumber: number;
  readonly endColumn: number;
  readonly message: string;
}

const clamp = (n: number, low: number, high: number): number => Math.min(Math.max(n, low), high);

/**
 * The marker in document coordinates, kept inside the document. Without an end column it spans
 * the word at the position (one character when there is none), so the underline is visible.
 */
export function placeMarker(marker: MarkerInput, origin: TextOrigin, lines: ModelLines): PlacedMarker {
  const shift = (column: number): number => (marker.line === 1 ? origin.column + column - 1 : column);
  const line = clamp(origin.line + Math.trunc(marker.line) - 1, 1, Math.max(lines.lineCount, 1));
  const maxColumn = lines.maxColumn(line);
  let start = clamp(shift(Math.trunc(marker.column)), 1, maxColumn);
  let end =
    marker.endColumn !== undefined ? shift(Math.trunc(marker.endColumn)) : (lines.wordEnd(line, start) ?? start + 1);
  end = clamp(end, start, maxColumn);
  // An error at the end of a line (e.g. a missing operand) still needs a character to underline.
  if (end === start) {
    if (start < maxColumn) end = start + 1;
    else start = Math.max(1, start - 1);
  }
  return { startLineNumber: line, startColumn: start, endLineNumber: line, endColumn: end, message: marker.message };
}
