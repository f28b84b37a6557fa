// The outputs of a deployed stage's CloudFormation stack (DescribeStacks), as name -> value.
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { AppError } from '../../core/errors';

/** @throws AppError NOT_FOUND when the stack does not exist. */
export async function readStackOutputs(
  stackName: string,
  client: CloudFormationClient,
): Promise<Record<string, string>> {
  try {
    const out = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = out.Stacks?.[0];
    if (!stack) throw new AppError('NOT_FOUND', `stack ${stackName} not found`);
    return Object.fromEntries(
      (stack.Outputs ?? []).flatMap((o) =>
        o.OutputKey && o.OutputValue !== undefined ? [[o.OutputKey, o.OutputValue]] : [],
      ),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ValidationError')
      throw new AppError(
        'NOT_FOUND',
        `stack ${stackName} not found in this account and region (deploy it with: npx osls deploy --stage <stage>)`,
        undefined,
        { cause: error },
      );
    throw error;
  }
}
