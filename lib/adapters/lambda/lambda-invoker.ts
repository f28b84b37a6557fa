// IngestInvoker on a deployed stage: Lambda Invoke (RequestResponse) of the stage's ingest
// function, with the event the IoT rule would send. The SDK retries throttling and server errors
// (sdk-config.ts); an error the function itself raised is not retried (it may have written).
import { InvokeCommand, LambdaClient, ResourceNotFoundException } from '@aws-sdk/client-lambda';
import { AppError } from '../../core/errors';
import type { IngestInvoker, ReplayOutcome } from '../../ingest/dead-letter';
import type { RuleEvent } from '../../ingest/rule-event';
import { sdkClientConfig } from '../sdk-config';
import { ingestAnswer } from './local-invoker';

export function lambdaIngestInvoker(
  functionName: string,
  client: LambdaClient = new LambdaClient(sdkClientConfig({})),
): IngestInvoker {
  return {
    target: `Lambda function ${functionName}`,
    async invoke(event: RuleEvent): Promise<ReplayOutcome> {
      const command = new InvokeCommand({
        FunctionName: functionName,
        InvocationType: 'RequestResponse',
        Payload: new TextEncoder().encode(JSON.stringify(event)),
      });
      let out;
      try {
        out = await client.send(command);
      } catch (error) {
        if (error instanceof ResourceNotFoundException)
          throw new AppError(
            'NOT_FOUND',
            `Lambda function ${functionName} not found (is the stage deployed in this region?)`,
            undefined,
            { cause: error },
          );
        throw error;
      }
      const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
      if (out.FunctionError)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `function ${functionName} failed (${out.FunctionError}): ${text.slice(0, 300)}`,
        );
      return ingestAnswer(functionName, text);
    },
  };
}
