// Reading stored items through their schemas (items.ts, item-schemas.ts) and what a refused
// condition or a cancelled transaction says (transactions.ts).
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { jobDoneItem, plantItem, queryClientItem } from '../../../lib/adapters/dynamodb/item-schemas';
import { parseItem, parseOptionalItem } from '../../../lib/adapters/dynamodb/items';
import {
  cancellationCodes,
  failedConditionIndexes,
  isConditionFailure,
  lostRace,
} from '../../../lib/adapters/dynamodb/transactions';
import { AppError } from '../../../lib/core/errors';

const stored = {
  PK: 'PLANT#p1',
  SK: 'PLANT',
  GSI1PK: 'CUSTOMER#c1',
  GSI1SK: 'PLANT#p1',
  Type: 'Plant',
  Rev: 2,
  plantId: 'p1',
  customerId: 'c1',
  name: 'Mill',
  createdAt: '2026-01-01T00:00:00Z',
};

describe('parseItem', () => {
  it('returns exactly the record: keys, Type and Rev are dropped', () => {
    expect(parseItem(plantItem, 'Plant', stored)).toEqual({
      plantId: 'p1',
      customerId: 'c1',
      name: 'Mill',
      createdAt: '2026-01-01T00:00:00Z',
    });
  });

  it('refuses an item that does not match with an INTERNAL_ERROR naming kind, key and fields', () => {
    const broken = { ...stored, name: 7, customerId: undefined };
    let thrown: unknown;
    try {
      parseItem(plantItem, 'Plant', broken);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('INTERNAL_ERROR');
    expect((thrown as AppError).message).toMatch(
      /^stored Plant item PLANT#p1 \/ PLANT does not match its schema \(customerId: .+; name: .+\)$/,
    );
    expect((thrown as AppError).data).toEqual([
      { kind: 'Plant', fields: [expect.stringMatching(/^customerId: /), expect.stringMatching(/^name: /)] },
    ]);
  });

  it('checks nested and enumerated fields (a query client of an unknown identity provider, a job on a date that is not one)', () => {
    const client = {
      PK: 'CLIENT#q',
      SK: 'CLIENT',
      clientId: 'q',
      customerId: 'c1',
      name: 'n',
      plantIds: null,
      idp: 'okta',
      createdAt: 'x',
    };
    expect(() => parseItem(queryClientItem, 'QueryClient', client)).toThrow(/idp: /);
    expect(parseItem(queryClientItem, 'QueryClient', { ...client, idp: 'cognito' }).plantIds).toBeNull();
    expect(() => parseItem(jobDoneItem, 'JobDone', { id: 'j', plantId: 'p', doneDate: '2026-02-30' })).toThrow(
      /stored JobDone item \? \/ \? does not match/,
    );
  });

  it('an absent item stays absent', () => {
    expect(parseOptionalItem(plantItem, 'Plant', undefined)).toBeUndefined();
  });
});

describe('refused conditions', () => {
  const cancelled = new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, {}, { Code: 'TransactionConflict' }],
  });

  it('reads the code of each item of a cancelled transaction, in request order', () => {
    expect(cancellationCodes(cancelled)).toEqual(['None', 'ConditionalCheckFailed', 'None', 'TransactionConflict']);
    expect(failedConditionIndexes(cancellationCodes(cancelled) ?? [])).toEqual([1]);
    // By name too: an error from another copy of the SDK.
    expect(
      cancellationCodes({
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
      }),
    ).toEqual(['ConditionalCheckFailed']);
  });

  it('is not fooled by other errors', () => {
    expect(cancellationCodes(new Error('boom'))).toBeUndefined();
    expect(cancellationCodes(undefined)).toBeUndefined();
    expect(isConditionFailure(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }))).toBe(true);
    expect(isConditionFailure(cancelled)).toBe(false);
    expect(isConditionFailure(null)).toBe(false);
  });

  it('tells a lost race (condition or conflict) from a cancellation for another reason', () => {
    expect(lostRace(['None', 'TransactionConflict'])).toBe(true);
    expect(lostRace(['ConditionalCheckFailed'])).toBe(true);
    expect(lostRace(['None', 'ValidationError'])).toBe(false);
  });
});
