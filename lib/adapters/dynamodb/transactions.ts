// What DynamoDB says when a condition refused a write: one place that reads a cancelled
// transaction's reasons and a failed single-item condition, for every DynamoDB adapter.
// Errors are recognised by name as well as by class, so that an error from another copy of the
// SDK (a test double, a bundled duplicate) is recognised too.
import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

const nameOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;

/**
 * The cancellation code of each item of a cancelled transaction, in request order ('None' for an
 * item that was fine); undefined when the error is not a cancelled transaction.
 */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (nameOf(error) !== 'TransactionCanceledException') return undefined;
  return ((error as TransactionCanceledException).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/** The request positions of the items whose condition failed (empty when none did). */
export function failedConditionIndexes(codes: readonly string[]): number[] {
  return codes.flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : []));
}

/** A transaction another writer got in the way of: a failed condition or a conflicting transaction. */
export function lostRace(codes: readonly string[]): boolean {
  return codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict');
}

/** A single-item write (PutItem, UpdateItem) whose ConditionExpression was false. */
export function isConditionFailure(error: unknown): boolean {
  return nameOf(error) === 'ConditionalCheckFailedException';
}
