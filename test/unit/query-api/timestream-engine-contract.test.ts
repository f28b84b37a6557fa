// The Timestream query engine against the engines' one error contract (engine-contract.ts), with a
// mocked client: each failure Timestream can answer a query with becomes the contract's code and
// HTTP status, Retry-After included; a deployment fault stays a 500.
import {
  AccessDeniedException,
  CancelQueryCommand,
  ConflictException,
  InternalServerException,
  InvalidEndpointException,
  QueryCommand,
  QueryExecutionException,
  ResourceNotFoundException,
  ServiceQuotaExceededException,
  ThrottlingException,
  TimestreamQueryClient,
  TimestreamQueryServiceException,
  ValidationException,
} from '@aws-sdk/client-timestream-query';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, it } from 'vitest';
import { timestreamQueryEngine } from '../../../lib/adapters/timestream/query-engine';
import { AppError } from '../../../lib/core/errors';
import { TableAnswer } from '../../../lib/query-api/answer';
import { ENGINE_CONTRACT, expectContract, type ContractKind, type Provocation } from './engine-contract';

const mock = mockClient(TimestreamQueryClient);
const meta = { $metadata: {} };
const answer = () =>
  new TableAnswer([{ name: 's', columnType: 'string', dataType: 'String' }], {
    rowLimit: 10,
    maxResponseBytes: 100_000,
  });
// One attempt: the SDK would otherwise retry throttling and 5xx before the engine sees them.
const engine = () => timestreamQueryEngine('db', new TimestreamQueryClient({ region: 'eu-west-1', maxAttempts: 1 }));

/** The rejection of one query whose QueryCommand fails with `error`. */
function failingWith(error: Error): () => Promise<unknown> {
  return async () => {
    mock.on(QueryCommand).rejects(error);
    return engine()
      .run('SELECT 1', ['string'], answer(), { signal: new AbortController().signal })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
  };
}

const serverError = (name: string, httpStatusCode: number) =>
  new TimestreamQueryServiceException({ name, $fault: 'server', message: name, $metadata: { httpStatusCode } });

const TIMESTREAM: Record<ContractKind, Provocation<() => Promise<unknown>>> = {
  refused: {
    cases: [
      ['ValidationException', failingWith(new ValidationException({ message: 'line 1:8: mismatched input', ...meta }))],
    ],
  },
  data: {
    cases: [
      [
        'QueryExecutionException, division by zero',
        failingWith(new QueryExecutionException({ message: 'Division by zero', ...meta })),
      ],
      [
        'QueryExecutionException, a cast',
        failingWith(new QueryExecutionException({ message: "Cannot cast 'abc' to BIGINT", ...meta })),
      ],
    ],
  },
  memory: {
    cases: [
      [
        'QueryExecutionException, memory',
        failingWith(new QueryExecutionException({ message: 'Query exceeded the memory limit', ...meta })),
      ],
      [
        'QueryExecutionException, resources',
        failingWith(
          new QueryExecutionException({ message: 'Query exhausted resources at this scale factor', ...meta }),
        ),
      ],
    ],
  },
  resultTooLarge: {
    cases: [
      [
        'QueryExecutionException, row over 1 MB',
        failingWith(
          new QueryExecutionException({
            message: 'Query aborted as max page response size has been exceeded by the output result row',
            ...meta,
          }),
        ),
      ],
    ],
  },
  timeout: {
    cases: [
      [
        'QueryExecutionException, its own time limit',
        failingWith(new QueryExecutionException({ message: 'Query timed out', ...meta })),
      ],
      [
        "the service's time limit (the signal's reason)",
        async () => {
          // A long query: pages keep coming (the mock ignores the abort signal, as a slow network would).
          mock.on(CancelQueryCommand).resolves({});
          mock
            .on(QueryCommand)
            .callsFake(
              async () =>
                new Promise((resolve) => setTimeout(() => resolve({ QueryId: 'q', Rows: [], NextToken: 'more' }), 30)),
            );
          const controller = new AbortController();
          setTimeout(() => controller.abort(new AppError('QUERY_TIMEOUT', 'too slow')), 20);
          return engine()
            .run('SELECT 1', ['string'], answer(), { signal: controller.signal })
            .then(
              () => undefined,
              (e: unknown) => e,
            );
        },
      ],
    ],
  },
  throttled: {
    cases: [
      ['ThrottlingException', failingWith(new ThrottlingException({ message: 'Rate exceeded', ...meta }))],
      [
        'an unmodelled HTTP 429',
        failingWith(
          new TimestreamQueryServiceException({
            name: 'TooManyRequests',
            $fault: 'client',
            message: 'slow down',
            $metadata: { httpStatusCode: 429 },
          }),
        ),
      ],
    ],
  },
  unavailable: {
    cases: [
      ['InternalServerException', failingWith(new InternalServerException({ message: 'internal', ...meta }))],
      ['ServiceUnavailable (HTTP 503)', failingWith(serverError('ServiceUnavailable', 503))],
      ['an unmodelled HTTP 502', failingWith(serverError('BadGateway', 502))],
      ['ServiceQuotaExceededException', failingWith(new ServiceQuotaExceededException({ message: 'quota', ...meta }))],
      [
        'ConflictException (the query was cancelled elsewhere)',
        failingWith(new ConflictException({ message: 'Unable to poll results for a cancelled query', ...meta })),
      ],
    ],
  },
  internal: {
    cases: [
      ['AccessDeniedException', failingWith(new AccessDeniedException({ message: 'not allowed', ...meta }))],
      [
        'ResourceNotFoundException (no such table)',
        failingWith(new ResourceNotFoundException({ message: 'table not found', ...meta })),
      ],
      ['InvalidEndpointException', failingWith(new InvalidEndpointException({ message: 'bad endpoint', ...meta }))],
    ],
  },
};

describe('Timestream query engine: the error contract', () => {
  beforeEach(() => mock.reset());

  for (const kind of Object.keys(ENGINE_CONTRACT) as ContractKind[]) {
    const provocation = TIMESTREAM[kind];
    if ('notApplicable' in provocation) it.skip(`${kind}: ${provocation.notApplicable}`, () => undefined);
    else {
      it.each(provocation.cases)(`${kind} (${ENGINE_CONTRACT[kind].status}): %s`, async (_name, reject) => {
        await expectContract(await reject(), kind);
      });
    }
  }
});
