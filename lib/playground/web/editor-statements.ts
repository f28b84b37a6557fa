// Statements of a query document as Kusto tools see them: blocks of text separated by one or more
// blank (empty or whitespace-only) lines. A `let` block followed by its query without a blank
// line is one statement, so it runs with its `let`s. Pure (no DOM, no Monaco): unit-tested.

/** A statement: its text (trimmed of blank lines around it) and its offsets in the document. */
export interface Statement {
  readonly text: string;
  /** Offset of the statement's first character. */
  readonly start: number;
  /** Offset just past its last character (exclusive). */
  readonly end: number;
}

interface Line {
  readonly start: number;
  readonly end: number;
  readonly blank: boolean;
}

// A blank line inside a ``` multi-line string literal is part of the string, not a separator.
// Kusto's other string forms cannot span lines, so counting fences is enough.
function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let inFence = false;
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const content = text.slice(start, end);
    const blank = !inFence && content.trim() === '';
    lines.push({ start, end, blank });
    if ((content.split('```').length - 1) % 2 === 1) inFence = !inFence;
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

/** Every statement of the document, in order; an empty or blank document has none. */
export function splitStatements(text: string): Statement[] {
  const statements: Statement[] = [];
  let first: Line | undefined;
  let last: Line | undefined;
  const close = (): void => {
    if (first && last) {
      const end = text[last.end - 1] === '\r' ? last.end - 1 : last.end;
      statements.push({ text: text.slice(first.start, end), start: first.start, end });
    }
    first = undefined;
    last = undefined;
  };
  for (const line of linesOf(text)) {
    if (line.blank) {
      close();
    } else {
      first ??= line;
      last = line;
    }
  }
  close();
  return statements;
}

/**
 * The statement under the cursor offset. On a blank line between statements it is the one above
 * (the one just written, as when the cursor sits below a query after typing it), else the one
 * below; undefined only when the document has no statement.
 */
export function statementAt(text: string, offset: number): Statement | undefined {
  const statements = splitStatements(text);
  let above: Statement | undefined;
  for (const statement of statements) {
    if (offset >= statement.start && offset <= statement.end) return statement;
    if (statement.end < offset) above = statement;
  }
  return above ?? statements[0];
}
