// The table answer: rows cut at the row limit or at the byte cap (as a Lambda response counts
// bytes), a first row too large refused with 400, and the JSON text made once, exactly what
// JSON.stringify of the body gives.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/core/errors';
import { jsonTextOf } from '../../../lib/http/envelope';
import { lambdaBytes, TableAnswer } from '../../../lib/query-api/answer';
import type { ResponseColumn } from '../../../lib/query-api/columns';

const columns: ResponseColumn[] = [
  { name: 'Name', columnType: 'string', dataType: 'String' },
  { name: 'Value', columnType: 'dynamic', dataType: 'Object' },
];

function fill(answer: TableAnswer, rows: unknown[][]): number {
  let taken = 0;
  for (const row of rows) {
    if (!answer.push(row)) break;
    taken++;
  }
  return taken;
}

describe('lambdaBytes', () => {
  it('counts UTF-8 bytes and once more each quote and backslash (escaped again in the Lambda payload)', () => {
    expect(lambdaBytes('[1,2]')).toBe(5);
    expect(lambdaBytes('["a"]')).toBe(7);
    expect(lambdaBytes('["\\n"]')).toBe(6 + 3);
    expect(lambdaBytes('["é"]')).toBe(6 + 2);
    const body = JSON.stringify({ rows: [['x"y', 'z\\']] });
    expect(lambdaBytes(body)).toBe(JSON.stringify({ body }).length - JSON.stringify({ body: '' }).length);
  });
});

describe('TableAnswer', () => {
  it('keeps every row when they fit, and attaches exactly the JSON text of the body', () => {
    const answer = new TableAnswer(columns, { rowLimit: 10, maxResponseBytes: 10_000, render: { kind: 'table' } });
    fill(answer, [
      ['a', { x: 1 }],
      ['b"q', null],
    ]);
    const body = answer.finish();
    expect(body.data.rows).toEqual([
      ['a', { x: 1 }],
      ['b"q', null],
    ]);
    expect(body.meta).toEqual({ truncated: false, rowLimit: 10, maxResponseBytes: 10_000, render: { kind: 'table' } });
    expect(jsonTextOf(body)).toBe(JSON.stringify(body));
  });

  it('cuts at the row limit with reason rowLimit', () => {
    const answer = new TableAnswer(columns, { rowLimit: 2, maxResponseBytes: 10_000 });
    expect(
      fill(answer, [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ]),
    ).toBe(2);
    const body = answer.finish();
    expect(body.meta).toMatchObject({ truncated: true, truncationReason: 'rowLimit' });
    expect(body.data.rows).toHaveLength(2);
    expect(jsonTextOf(body)).toBe(JSON.stringify(body));
  });

  it('cuts at the byte cap with reason responseBytes, the whole body within the cap', () => {
    const maxResponseBytes = 2_000;
    const answer = new TableAnswer(columns, { rowLimit: 1_000, maxResponseBytes });
    const rows = Array.from({ length: 100 }, (_, i) => [`device-"${i}"`, { v: 'x'.repeat(20) }]);
    const taken = fill(answer, rows);
    const body = answer.finish();
    expect(taken).toBeGreaterThan(5);
    expect(taken).toBeLessThan(100);
    expect(body.meta).toMatchObject({ truncated: true, truncationReason: 'responseBytes' });
    const text = jsonTextOf(body) as string;
    expect(text).toBe(JSON.stringify(body));
    expect(lambdaBytes(text)).toBeLessThanOrEqual(maxResponseBytes);
    // One row more would not have fitted.
    expect(
      lambdaBytes(JSON.stringify({ ...body, data: { ...body.data, rows: rows.slice(0, taken + 1) } })),
    ).toBeGreaterThan(maxResponseBytes);
  });

  it('refuses with 400 QUERY_RESULT_TOO_LARGE when not even the first row fits, naming its largest cell', () => {
    const answer = new TableAnswer(columns, { rowLimit: 10, maxResponseBytes: 10_000 });
    expect(answer.push(['small', 'y'.repeat(20_000)])).toBe(false);
    const error = (() => {
      try {
        answer.finish();
      } catch (e) {
        return e as AppError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'QUERY_RESULT_TOO_LARGE', status: 400 });
    expect(error?.message).toMatch(/column 'Value'/);
    expect(error?.data[0]).toMatchObject({ column: 'Value', maxResponseBytes: 10_000 });
  });

  it("takes an engine's word that a row is too large (oversized) without the row", () => {
    const first = new TableAnswer(columns, { rowLimit: 10, maxResponseBytes: 10_000 });
    expect(first.oversized(50_000, 1)).toBe(false);
    expect(() => first.finish()).toThrow(/at least 50000 bytes.*column 'Value'/);
    const later = new TableAnswer(columns, { rowLimit: 10, maxResponseBytes: 10_000 });
    later.push(['a', 1]);
    later.oversized(50_000, 1);
    expect(later.finish()).toMatchObject({
      data: { rows: [['a', 1]] },
      meta: { truncated: true, truncationReason: 'responseBytes' },
    });
  });
});
