// Marking the Kusto functions the service does not compile: completion items and calls in text.
import { describe, expect, it } from 'vitest';
import {
  UNSUPPORTED_DETAIL,
  markCompletions,
  supportedSet,
  unsupportedCalls,
} from '../../../lib/playground/web/editor-support';

const supported = supportedSet(['ago', 'bin', 'count']);

describe('markCompletions', () => {
  it('marks and sorts last the functions outside the list, leaves the rest as they were', () => {
    const items = [
      { label: 'Value', textEdit: { newText: 'Value' }, sortText: '0001' },
      { label: 'ago(timespan)', textEdit: { newText: 'ago($0)' }, sortText: '0002', detail: 'A time before now' },
      { label: 'dcount(expr)', textEdit: { newText: 'dcount(' }, sortText: '0003', detail: 'Distinct count' },
      { label: 'percentile(expr, p)', insertText: 'percentile($0)', sortText: '0004' },
      { label: 'where', textEdit: { newText: 'where ' }, sortText: '0005' },
    ];
    const marked = markCompletions(items, supported);
    expect(marked[0]).toBe(items[0]);
    expect(marked[1]).toBe(items[1]);
    expect(marked[4]).toBe(items[4]);
    expect(marked[2]).toMatchObject({ detail: `${UNSUPPORTED_DETAIL}: Distinct count`, sortText: '~0003' });
    expect(marked[3]).toMatchObject({ detail: UNSUPPORTED_DETAIL, sortText: '~0004' });
    // Monaco's suggest widget orders by lower-cased sortText in code-unit order ('~' after letters and digits).
    const key = (i: { sortText?: string | undefined }): string => (i.sortText ?? '').toLowerCase();
    const order = [...marked].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map((i) => i.label);
    expect(order.slice(-2)).toEqual(['dcount(expr)', 'percentile(expr, p)']);
  });

  it('marks nothing while the function list is unknown (empty)', () => {
    const items = [{ label: 'dcount(expr)', textEdit: { newText: 'dcount(' } }];
    expect(supportedSet([])).toBeUndefined();
    expect(markCompletions(items, undefined)).toEqual(items);
  });
});

describe('unsupportedCalls', () => {
  it('finds each call of an unsupported function with its document offsets', () => {
    const text = 'States\n| summarize d = dcount(NameId), e = dcount (Uid), c = count() by bin(Timestamp, 1h)';
    const statement = { text, start: 100 };
    const calls = unsupportedCalls(statement, ['dcount', 'count', 'bin', 'dcount'], supported);
    expect(calls.map((c) => c.name)).toEqual(['dcount', 'dcount']);
    for (const call of calls) expect(text.slice(call.start - 100, call.end - 100)).toBe('dcount');
  });

  it('ignores names in strings and comments, other identifiers containing the name, and let functions', () => {
    const text = [
      'let twice = (x: long) { x * 2 };',
      'States // dcount(x) in a comment',
      '| extend s = \'dcount(\', t = @"dcount(""", u = ```dcount(```, my_dcount = 1',
      '| extend v = twice(1), w = my_dcount',
    ].join('\n');
    expect(unsupportedCalls({ text, start: 0 }, ['dcount', 'twice'], supported)).toEqual([]);
  });

  it('finds nothing when the list is unknown', () => {
    expect(unsupportedCalls({ text: 'print dcount(1)', start: 0 }, ['dcount'], undefined)).toEqual([]);
  });
});
