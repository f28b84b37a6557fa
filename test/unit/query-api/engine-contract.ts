// The engines' error contract as a table (lib/query-api/ports.ts, docs/errors.md), written out
// here rather than read from the code so that a change of either shows as a failing test. Both
// engines are tested against it: DuckDB for real (test/integration/duckdb-engine-contract.test.ts),
// Timestream with a mocked client (timestream-engine-contract.test.ts).
import type { Context } from 'aws-lambda';
import { expect } from 'vitest';
import { AppError } from '../../../lib/core/errors';
import { httpHandler, type HttpEvent } from '../../../lib/http/chain';
import type { EngineFailure } from '../../../lib/query-api/ports';

export interface ContractRow {
  /** The AppError code; absent: the engine's own error, thrown as it is. */
  readonly code?: string;
  /** The HTTP status a client gets. */
  readonly status: number;
  /** A refusal to retry later: `data` holds `{retryAfterSeconds}` and the answer has `Retry-After`. */
  readonly retryAfter: boolean;
}

/** Every failure of the contract, and `internal`: what is not translated (a 500, logged). */
export const ENGINE_CONTRACT: Readonly<Record<EngineFailure | 'internal', ContractRow>> = {
  refused: { code: 'QUERY_ENGINE_REFUSED', status: 400, retryAfter: false },
  data: { code: 'QUERY_DATA_ERROR', status: 400, retryAfter: false },
  memory: { code: 'QUERY_MEMORY_LIMIT', status: 400, retryAfter: false },
  resultTooLarge: { code: 'QUERY_RESULT_TOO_LARGE', status: 400, retryAfter: false },
  timeout: { code: 'QUERY_TIMEOUT', status: 504, retryAfter: false },
  throttled: { code: 'TOO_MANY_REQUESTS', status: 429, retryAfter: true },
  unavailable: { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: true },
  internal: { status: 500, retryAfter: false },
};

export type ContractKind = keyof typeof ENGINE_CONTRACT;

/** How a test makes an engine fail in one way, or why that way cannot happen on this engine. */
export type Provocation<T> = { readonly cases: readonly (readonly [string, T])[] } | { readonly notApplicable: string };

const context = { awsRequestId: 'contract', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const event = {
  version: '2.0',
  routeKey: 'POST /q',
  rawPath: '/q',
  rawQueryString: '',
  headers: {},
  isBase64Encoded: false,
  requestContext: { requestId: 'contract-req' },
} as unknown as HttpEvent;

/**
 * Checks an engine's rejection against the contract row of `kind`, then what the HTTP chain
 * answers with it: the status, the envelope's code, and Retry-After for refusals to retry later.
 */
export async function expectContract(rejection: unknown, kind: ContractKind): Promise<void> {
  const row = ENGINE_CONTRACT[kind];
  if (row.code === undefined) expect(rejection).not.toBeInstanceOf(AppError);
  else {
    expect(rejection).toBeInstanceOf(AppError);
    expect(rejection).toMatchObject({ code: row.code, status: row.status });
    const data = (rejection as AppError).data;
    if (row.retryAfter) expect(data).toContainEqual({ retryAfterSeconds: expect.any(Number) });
    else expect(data.some((d) => 'retryAfterSeconds' in d)).toBe(false);
  }
  const handler = httpHandler(async () => Promise.reject(rejection), { timeoutEarlyInMillis: 0 });
  const answer = (await handler(event, context)) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };
  expect(answer.statusCode).toBe(row.status);
  expect(JSON.parse(answer.body)).toMatchObject({ status: 'ERROR', code: row.code ?? 'INTERNAL_ERROR' });
  if (row.retryAfter) expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  else expect(answer.headers).not.toHaveProperty('retry-after');
}
