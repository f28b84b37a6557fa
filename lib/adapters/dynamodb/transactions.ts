// What a cancelled DynamoDB transaction says about each of its items.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * The cancellation code of each item of a cancelled transaction, in request order ('None' for
 * an item that was fine); undefined when the error is not a cancelled transaction.
 */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof TransactionCanceledException) && (error as { name?: string })?.name !== 'TransactionCanceledException') return undefined;
  return ((error as TransactionCanceledException).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}
