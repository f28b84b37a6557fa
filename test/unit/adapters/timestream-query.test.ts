// The Timestream query engine against a mocked client: pages through NextToken, including empty
// pages (the first one too), converts each Datum's text back to the column's KQL type, stops and
// cancels when the answer is full or the service aborts. Its errors are tested against the
// engines' contract in test/unit/query-api/timestream-engine-contract.test.ts.
import { CancelQueryCommand, QueryCommand, TimestreamQueryClient } from '@aws-sdk/client-timestream-query';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { datumValue, timestreamQueryEngine } from '../../../lib/adapters/timestream/query-engine';
import { AppError } from '../../../lib/core/errors';
import { TableAnswer } from '../../../lib/query-api/answer';

const mock = mockClient(TimestreamQueryClient);
const engine = () => timestreamQueryEngine('db', new TimestreamQueryClient({ region: 'eu-west-1', maxAttempts: 1 }));
const answer = (rowLimit = 100) =>
  new TableAnswer([{ name: 's', columnType: 'string', dataType: 'String' }], { rowLimit, maxResponseBytes: 100_000 });
const running = () => ({ signal: new AbortController().signal });

describe('Timestream query engine', () => {
  beforeEach(() => mock.reset());

  it('follows NextToken through empty pages and keeps every row in order', async () => {
    mock
      .on(QueryCommand, { QueryString: 'SELECT 1', NextToken: undefined })
      .resolves({ QueryId: 'q1', Rows: [], NextToken: 't1', ColumnInfo: [] })
      .on(QueryCommand, { NextToken: 't1' })
      .resolves({ QueryId: 'q1', Rows: [{ Data: [{ ScalarValue: 'a' }] }], NextToken: 't2' })
      .on(QueryCommand, { NextToken: 't2' })
      .resolves({ QueryId: 'q1', Rows: [], NextToken: 't3' })
      .on(QueryCommand, { NextToken: 't3' })
      .resolves({ QueryId: 'q1', Rows: [{ Data: [{ ScalarValue: 'b' }] }, { Data: [{ NullValue: true }] }] });
    const sink = answer();
    await engine().run('SELECT 1', ['string'], sink, running());
    expect(sink.finish().data.rows).toEqual([['a'], ['b'], ['']]);
    expect(mock.commandCalls(QueryCommand)).toHaveLength(4);
  });

  it('converts Datum text to each KQL type', () => {
    expect(datumValue({ ScalarValue: '42' }, 'long')).toBe(42);
    expect(datumValue({ ScalarValue: '9007199254740993' }, 'long')).toBe('9007199254740993');
    expect(datumValue({ ScalarValue: '2.5' }, 'real')).toBe(2.5);
    expect(datumValue({ ScalarValue: 'NaN' }, 'real')).toBe('NaN');
    expect(datumValue({ ScalarValue: 'true' }, 'bool')).toBe(true);
    expect(datumValue({ ScalarValue: '2026-01-02 03:04:05.123456789' }, 'datetime')).toMatch(
      /^2026-01-02T03:04:05\.123456\d*Z$/,
    );
    expect(datumValue({ ScalarValue: '{"a":[1,2]}' }, 'dynamic')).toEqual({ a: [1, 2] });
    expect(datumValue({ NullValue: true }, 'dynamic')).toBeNull();
    expect(datumValue({ NullValue: true }, 'string')).toBe('');
  });

  it('stops paging and cancels the query once the answer is full', async () => {
    mock.on(CancelQueryCommand).resolves({});
    mock
      .on(QueryCommand, { NextToken: undefined })
      .resolves({
        QueryId: 'q2',
        Rows: [{ Data: [{ ScalarValue: 'a' }] }, { Data: [{ ScalarValue: 'b' }] }],
        NextToken: 't1',
      })
      .on(QueryCommand, { NextToken: 't1' })
      .resolves({ QueryId: 'q2', Rows: [{ Data: [{ ScalarValue: 'c' }] }] });
    const sink = answer(1);
    await engine().run('SELECT 1', ['string'], sink, running());
    expect(sink.finish()).toMatchObject({
      data: { rows: [['a']] },
      meta: { truncated: true, truncationReason: 'rowLimit' },
    });
    expect(mock.commandCalls(QueryCommand)).toHaveLength(1);
    expect(mock.commandCalls(CancelQueryCommand)[0]?.args[0].input).toEqual({ QueryId: 'q2' });
  });

  it('rejects with the abort reason when the service aborts, cancelling the query', async () => {
    mock.on(CancelQueryCommand).resolves({});
    mock.on(QueryCommand).callsFake(async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { QueryId: 'q', Rows: [], NextToken: 'again' };
    });
    const reason = new AppError('QUERY_TIMEOUT', 'too slow');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 100);
    await expect(engine().run('SELECT 1', ['string'], answer(), { signal: controller.signal })).rejects.toBe(reason);
    expect(mock.commandCalls(CancelQueryCommand)[0]?.args[0].input).toEqual({ QueryId: 'q' });
  });
});
