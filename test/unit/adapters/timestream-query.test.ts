// The Timestream query engine against a mocked client: pages through NextToken, including empty
// pages (the first one too), converts each Datum's text back to the column's KQL type, stops and
// cancels when the answer is full or the service aborts, and keeps the engines' error contract
// (lib/query-api/ports.ts): every failure a query can cause is a 4xx, throttling a 429 and an
// unavailable service a 503, both with Retry-After.
import {
  AccessDeniedException,
  CancelQueryCommand,
  InternalServerException,
  QueryCommand,
  QueryExecutionException,
  ThrottlingException,
  TimestreamQueryClient,
  TimestreamQueryServiceException,
  ValidationException,
} from '@aws-sdk/client-timestream-query';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { datumValue, timestreamQueryEngine } from '../../../lib/adapters/timestream/query-engine';
import { AppError } from '../../../lib/core/errors';
import { TableAnswer } from '../../../lib/query-api/answer';

const mock = mockClient(TimestreamQueryClient);
const engine = () => timestreamQueryEngine('db', new TimestreamQueryClient({ region: 'eu-west-1', maxAttempts: 1 }));
const answer = (rowLimit = 100) => new TableAnswer([{ name: 's', columnType: 'string', dataType: 'String' }], { rowLimit, maxResponseBytes: 100_000 });
const running = () => ({ signal: new AbortController().signal });
const meta = { $metadata: {} };

describe('Timestream query engine', () => {
  beforeEach(() => mock.reset());

  it('follows NextToken through empty pages and keeps every row in order', async () => {
    mock
      .on(QueryCommand, { QueryString: 'SELECT 1', NextToken: undefined }).resolves({ QueryId: 'q1', Rows: [], NextToken: 't1', ColumnInfo: [] })
      .on(QueryCommand, { NextToken: 't1' }).resolves({ QueryId: 'q1', Rows: [{ Data: [{ ScalarValue: 'a' }] }], NextToken: 't2' })
      .on(QueryCommand, { NextToken: 't2' }).resolves({ QueryId: 'q1', Rows: [], NextToken: 't3' })
      .on(QueryCommand, { NextToken: 't3' }).resolves({ QueryId: 'q1', Rows: [{ Data: [{ ScalarValue: 'b' }] }, { Data: [{ NullValue: true }] }] });
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
    expect(datumValue({ ScalarValue: '2026-01-02 03:04:05.123456789' }, 'datetime')).toMatch(/^2026-01-02T03:04:05\.123456\d*Z$/);
    expect(datumValue({ ScalarValue: '{"a":[1,2]}' }, 'dynamic')).toEqual({ a: [1, 2] });
    expect(datumValue({ NullValue: true }, 'dynamic')).toBeNull();
    expect(datumValue({ NullValue: true }, 'string')).toBe('');
  });

  it('stops paging and cancels the query once the answer is full', async () => {
    mock.on(CancelQueryCommand).resolves({});
    mock
      .on(QueryCommand, { NextToken: undefined }).resolves({ QueryId: 'q2', Rows: [{ Data: [{ ScalarValue: 'a' }] }, { Data: [{ ScalarValue: 'b' }] }], NextToken: 't1' })
      .on(QueryCommand, { NextToken: 't1' }).resolves({ QueryId: 'q2', Rows: [{ Data: [{ ScalarValue: 'c' }] }] });
    const sink = answer(1);
    await engine().run('SELECT 1', ['string'], sink, running());
    expect(sink.finish()).toMatchObject({ data: { rows: [['a']] }, meta: { truncated: true, truncationReason: 'rowLimit' } });
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

  const failures: [string, Error, { code: string; status: number; retryAfterSeconds?: number }][] = [
    ['ValidationException', new ValidationException({ message: 'line 1:8: mismatched input', ...meta }), { code: 'QUERY_ENGINE_REFUSED', status: 400 }],
    ['QueryExecutionException (a value)', new QueryExecutionException({ message: 'Division by zero', ...meta }), { code: 'QUERY_DATA_ERROR', status: 400 }],
    ['QueryExecutionException (memory)', new QueryExecutionException({ message: 'Query exceeded the memory limit', ...meta }), { code: 'QUERY_MEMORY_LIMIT', status: 400 }],
    ['ThrottlingException', new ThrottlingException({ message: 'Rate exceeded', ...meta }), { code: 'TOO_MANY_REQUESTS', status: 429, retryAfterSeconds: 2 }],
    ['InternalServerException', new InternalServerException({ message: 'internal', ...meta }), { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 5 }],
    [
      'ServiceUnavailable (HTTP 503)',
      new TimestreamQueryServiceException({ name: 'ServiceUnavailable', $fault: 'server', message: 'Service Unavailable', $metadata: { httpStatusCode: 503 } }),
      { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 5 },
    ],
  ];

  it.each(failures)('answers %s with the contract code', async (_name, failure, expected) => {
    mock.on(QueryCommand).rejects(failure);
    const error = await engine().run('SELECT 1', ['string'], answer(), running()).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: expected.code, status: expected.status });
    const data = (error as AppError).data;
    if (expected.retryAfterSeconds === undefined) expect(data.some((d) => 'retryAfterSeconds' in d)).toBe(false);
    else expect(data).toContainEqual({ retryAfterSeconds: expected.retryAfterSeconds });
  });

  it('lets a deployment fault through as it is (a 500, logged)', async () => {
    const denied = new AccessDeniedException({ message: 'not allowed', ...meta });
    mock.on(QueryCommand).rejects(denied);
    await expect(engine().run('SELECT 1', ['string'], answer(), running())).rejects.toBe(denied);
  });
});
