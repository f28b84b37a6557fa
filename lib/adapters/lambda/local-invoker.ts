// IngestInvoker on the running local stack: serverless-offline's Lambda endpoint
// (POST http://127.0.0.1:<lambda port>/2015-03-31/functions/<name>/invocations, RequestResponse),
// the same endpoint the local MQTT broker's rule invokes.
import { AppError } from '../../core/errors';
import { ingestAnswerSchema, type IngestInvoker, type ReplayOutcome } from '../../ingest/dead-letter';
import type { RuleEvent } from '../../ingest/rule-event';

/** The ingest function's name on the local stack (osls: <service>-<stage>-<function key>). */
export const LOCAL_INGEST_FUNCTION = 'industrial-insights-local-ingest';

/** Parses a function's JSON answer; anything else is a failure of the function. */
export function ingestAnswer(functionName: string, text: string): ReplayOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `function ${functionName} answered something that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  const parsed = ingestAnswerSchema.safeParse(json);
  if (!parsed.success)
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `function ${functionName} answered without an ingest outcome: ${text.slice(0, 200)}`,
    );
  const { status, messageId, reason } = parsed.data;
  return { status, ...(messageId !== undefined ? { messageId } : {}), ...(reason !== undefined ? { reason } : {}) };
}

export function localIngestInvoker(
  lambdaPort: number,
  functionName = LOCAL_INGEST_FUNCTION,
  host = '127.0.0.1',
): IngestInvoker {
  const url = `http://${host}:${lambdaPort}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`;
  return {
    target: `${functionName} on the local stack (${host}:${lambdaPort})`,
    async invoke(event: RuleEvent): Promise<ReplayOutcome> {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
          body: JSON.stringify(event),
        });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code === 'ECONNREFUSED')
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            `the local stack is not running: nothing answers on ${host}:${lambdaPort} (start it with npm start, or give its --lambda-port)`,
          );
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `cannot reach the local stack on ${host}:${lambdaPort}: ${code ?? (error as Error).message}`,
          undefined,
          { cause: error },
        );
      }
      const text = await response.text();
      if (response.status === 404)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `the local stack on ${host}:${lambdaPort} has no function ${functionName}`,
        );
      if (!response.ok || response.headers.get('x-amz-function-error'))
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `function ${functionName} failed (HTTP ${response.status}): ${text.slice(0, 300)}`,
        );
      return ingestAnswer(functionName, text);
    },
  };
}
