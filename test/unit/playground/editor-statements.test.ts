// Statement splitting for Ctrl/Cmd+Enter: blank lines separate statements, as in Kusto Explorer.
import { describe, expect, it } from 'vitest';
import { splitStatements, statementAt } from '../../../lib/playground/web/editor-statements';

const at = (text: string, marker: string): string | undefined => {
  const offset = text.indexOf(marker);
  if (offset < 0) throw new Error(`marker ${marker} not in text`);
  return statementAt(text, offset)?.text;
};

describe('splitStatements', () => {
  it('splits on blank lines and keeps offsets that point back into the text', () => {
    const text = 'States | take 1\n\n\nEvents\n| count\n';
    const statements = splitStatements(text);
    expect(statements.map((s) => s.text)).toEqual(['States | take 1', 'Events\n| count']);
    for (const s of statements) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('treats whitespace-only lines as blank and strips the carriage return of CRLF text', () => {
    const text = 'States\r\n  \t\r\nEvents | take 2\r\n';
    expect(splitStatements(text).map((s) => s.text)).toEqual(['States', 'Events | take 2']);
  });

  it('keeps let lines with their query when no blank line separates them', () => {
    const text = 'let since = ago(1h);\nlet plant = "p1";\nStates\n| where Timestamp > since and PlantId == plant';
    expect(splitStatements(text)).toHaveLength(1);
    expect(splitStatements(text)[0]?.text).toBe(text);
  });

  it('does not split inside a ``` multi-line string', () => {
    const text = 'print s = ```\nline one\n\nline three```\n| project s\n\nStates';
    expect(splitStatements(text).map((s) => s.text)).toEqual([
      'print s = ```\nline one\n\nline three```\n| project s',
      'States',
    ]);
  });

  it('finds no statement in an empty or blank document', () => {
    expect(splitStatements('')).toEqual([]);
    expect(splitStatements('\n  \n\n')).toEqual([]);
  });
});

describe('statementAt', () => {
  const text = 'States | take 10\n\nEvents\n| where Severity > 2\n| count\n\n\nStates | count';

  it('returns the statement that holds the cursor', () => {
    expect(at(text, 'take')).toBe('States | take 10');
    expect(at(text, 'Severity')).toBe('Events\n| where Severity > 2\n| count');
    expect(at(text, 'States | count')).toBe('States | count');
  });

  it('counts the end of a statement (cursor after its last character) as inside it', () => {
    expect(statementAt(text, 'States | take 10'.length)?.text).toBe('States | take 10');
  });

  it('on a blank line picks the statement above, at the top the one below', () => {
    const blankAfterSecond = text.indexOf('| count\n') + '| count\n'.length + 1;
    expect(statementAt(text, blankAfterSecond)?.text).toBe('Events\n| where Severity > 2\n| count');
    expect(statementAt('\n\nStates', 0)?.text).toBe('States');
  });

  it('is undefined for a document without statements', () => {
    expect(statementAt('  \n', 1)).toBeUndefined();
  });
});
