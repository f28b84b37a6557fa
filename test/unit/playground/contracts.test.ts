// The playground's browser code keeps its own copy of the answer's shape (it imports nothing from
// the Node side); the type check of this file fails when the service's answer stops fitting it.
import { describe, expect, it } from 'vitest';
import type { TableResponse } from '../../../lib/query-api/answer';
import type { QueryAnswer } from '../../../lib/playground/web/answer-shape';

describe('playground contracts', () => {
  it('a service answer is a playground answer', () => {
    const answer: TableResponse = {
      data: { columns: [{ name: 'x', columnType: 'long', dataType: 'Int64' }], rows: [[1]] },
      meta: {
        truncated: false,
        rowLimit: 10,
        maxResponseBytes: 100,
        render: { visualization: 'table', properties: {} },
      },
    };
    const seen: QueryAnswer = answer;
    expect(seen.data.columns[0]?.columnType).toBe('long');
  });
});
