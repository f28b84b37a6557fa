// Task creation: lookups checked against the customer's lists, the asset against the plant's
// register, the new task PENDING; an Idempotency-Key makes a retry answer the first result.
import { createHash } from 'node:crypto';
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import type { LookupKind } from '../registry/model';
import { utcDate } from './dates';
import { requirePlant, type MaintenanceDeps } from './deps';
import { parseInput } from '../core/input';
import type { IdempotencyRecord } from './ports';
import type { Task } from './records';
import { idempotencyKey, taskInput, type TaskInput } from './schemas';

/** How long a key is remembered; a retry after that creates a new task. */
export const IDEMPOTENCY_HOURS = 24;

export interface CreatedTask {
  readonly id: string;
  /** True when an earlier request with the same Idempotency-Key created it. */
  readonly replayed: boolean;
}

const CHECKED_LOOKUPS = ['activityKind', 'assignedToRole', 'priority'] as const satisfies readonly LookupKind[];

/** @throws AppError PRECONDITION_FAILED when a list is not configured, INVALID_INPUT for a value not in it. */
async function checkLookups(deps: MaintenanceDeps, customerId: string, input: TaskInput): Promise<void> {
  const lists = await Promise.all(CHECKED_LOOKUPS.map((kind) => deps.registry.getLookupList(customerId, kind)));
  const unconfigured = CHECKED_LOOKUPS.filter((_, i) => (lists[i]?.values.length ?? 0) === 0);
  if (unconfigured.length > 0) {
    throw new AppError(
      'PRECONDITION_FAILED',
      `the company has no ${unconfigured.join(', ')} values configured; ask the operator to set them up`,
      unconfigured.map((field) => ({ field, reason: 'lookup list not configured' })),
    );
  }
  const wrong = CHECKED_LOOKUPS.filter((kind, i) => !(lists[i]?.values ?? []).includes(input[kind]));
  if (wrong.length > 0) {
    throw new AppError(
      'INVALID_INPUT',
      `${wrong.join(', ')}: not a value of the company's list (values must match exactly, in English)`,
      wrong.map((field) => ({ field, value: input[field], message: 'not a configured value' })),
    );
  }
}

function requestHash(input: TaskInput): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .sort()
      .map((k) => [k, input[k as keyof TaskInput] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

function replay(record: IdempotencyRecord, hash: string): CreatedTask {
  if (record.requestHash !== hash) {
    throw new AppError(
      'PRECONDITION_FAILED',
      'this Idempotency-Key was already used with a different request body; use a new key for a new task',
      { field: 'Idempotency-Key', taskId: record.taskId },
    );
  }
  return { id: record.taskId, replayed: true };
}

export async function createTask(
  deps: MaintenanceDeps,
  caller: Caller,
  plantId: string,
  body: unknown,
  rawKey: string | undefined,
): Promise<CreatedTask> {
  const input = parseInput(taskInput, body, 'body');
  const key = rawKey === undefined ? undefined : parseInput(idempotencyKey, rawKey, 'Idempotency-Key');
  const plant = await requirePlant(deps, caller, plantId);
  const hash = requestHash(input);
  const callerId = caller.tokenId ?? caller.clientId ?? caller.customerId;
  if (key !== undefined) {
    const earlier = await deps.repository.getIdempotency(plantId, callerId, key);
    if (earlier) return replay(earlier, hash);
  }
  await checkLookups(deps, plant.customerId, input);
  const tagNumber = input.asset?.tagNumber;
  const asset = tagNumber === undefined ? undefined : await deps.repository.getAsset(plantId, tagNumber);
  if (tagNumber !== undefined && !asset) {
    throw new AppError('INVALID_INPUT', `asset.tagNumber: no asset "${tagNumber}" in plant "${plantId}"`, {
      field: 'asset.tagNumber',
      value: tagNumber,
      message: 'not an asset of the plant',
    });
  }
  const now = deps.now();
  const task: Task = {
    id: deps.newId(),
    plantId,
    taskTitle: input.taskTitle,
    taskDescription: input.taskDescription ?? null,
    activityKind: input.activityKind,
    assignedToRole: input.assignedToRole,
    priority: input.priority,
    taskStatus: 'PENDING',
    createdDate: input.createdDate ?? utcDate(now),
    dueDate: input.dueDate ?? null,
    incidentDate: input.incidentDate ?? null,
    asset: asset
      ? { tagNumber: asset.tagNumber, serialNumber: asset.serialNumber, externalReference: asset.externalReference }
      : null,
  };
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_HOURS * 3_600_000).toISOString();
  const outcome = await deps.repository.createTask({
    task,
    ...(key !== undefined ? { idempotency: { callerId, key, requestHash: hash, expiresAt } } : {}),
  });
  return outcome.outcome === 'replayed' ? replay(outcome.record, hash) : { id: task.id, replayed: false };
}
