// The Timestream query engine against a mocked client: pages through NextToken, including empty
// pages (the first one too), and converts each Datum's text back to the column's KQL type.
import { CancelQueryCommand, QueryCommand, TimestreamQueryClient } from '@aws-sdk/client-timestream-query';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { datumValue, timestreamQueryEngine } from '../../../lib/adapters/timestream/query-engine';

const mock = mockClient(TimestreamQueryClient);
const engine = () => timestreamQueryEngine('db', new TimestreamQueryClient({ region: 'eu-west-1' }));

describe('Timestream query engine', () => {
  beforeEach(() => mock.reset());

  it('follows NextToken through empty pages and keeps every row in order', async () => {
    mock
      .on(QueryCommand, { QueryString: 'SELECT 1', NextToken: undefined }).resolves({ QueryId: 'q1', Rows: [], NextToken: 't1', ColumnInfo: [] })
      .on(QueryCommand, { NextToken: 't1' }).resolves({ QueryId: 'q1', Rows: [{ Data: [{ ScalarValue: 'a' }] }], NextToken: 't2' })
      .on(QueryCommand, { NextToken: 't2' }).resolves({ QueryId: 'q1', Rows: [], NextToken: 't3' })
      .on(QueryCommand, { NextToken: 't3' }).resolves({ QueryId: 'q1', Rows: [{ Data: [{ ScalarValue: 'b' }] }, { Data: [{ NullValue: true }] }] });
    const rows = await engine().run('SELECT 1', ['string'], { timeoutMs: 5000 });
    expect(rows).toEqual([['a'], ['b'], ['']]);
    expect(mock.commandCalls(QueryCommand)).toHaveLength(4);
  });

  it('converts Datum text to each KQL type', () => {
    expect(datumValue({ ScalarValue: '42' }, 'long')).toBe(42);
    expect(datumValue({ ScalarValue: '9007199254740993' }, 'long')).toBe('9007199254740993');
    expect(datumValue({ ScalarValue: '2.5' }, 'real')).toBe(2.5);
    expect(datumValue({ ScalarValue: 'NaN' }, 'real')).toBe('NaN');
    expect(datumValue({ ScalarValue: 'true' }, 'bool')).toBe(true);
    expect(datumValue({ ScalarValue: '2026-01-02 03:04:05.123456789' }, 'datetime')).toMatch(/^2026-01-02T03:04:05\.123456\d*Z$/);
    expect(datumValue({ ScalarValue: '{"a":[1,2]}' }, 'dynamic')).toEqual({ a: [1, 2] });
    expect(datumValue({ NullValue: true }, 'dynamic')).toBeNull();
    expect(datumValue({ NullValue: true }, 'string')).toBe('');
  });

  it('gives up with QUERY_TIMEOUT when the pages take longer than the limit, cancelling the query', async () => {
    mock.on(CancelQueryCommand).resolves({});
    mock.on(QueryCommand).callsFake(async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { QueryId: 'q', Rows: [], NextToken: 'again' };
    });
    await expect(engine().run('SELECT 1', ['string'], { timeoutMs: 100 })).rejects.toMatchObject({ code: 'QUERY_TIMEOUT', status: 504 });
    expect(mock.commandCalls(CancelQueryCommand)[0]?.args[0].input).toEqual({ QueryId: 'q' });
  });
});
