// Stock level of a part in a plant: replaces the level and appends a history entry (who, when,
// old and new quantity) in one transaction, so nothing is lost by an overwrite.
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import { actorOf, requirePlant, type MaintenanceDeps } from './deps';
import { parseInput } from '../core/input';
import type { StockLevel } from './records';
import { stockLevelInput } from './schemas';

const MAX_ATTEMPTS = 5;

/** `If-Match: "3"` (or W/"3", or *) to the expected version; undefined when absent. @throws AppError INVALID_INPUT */
export function parseIfMatch(raw: string | undefined): number | '*' | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (value === '*') return '*';
  const match = /^(?:W\/)?"?([1-9][0-9]{0,9})"?$/.exec(value);
  if (!match)
    throw new AppError('INVALID_INPUT', 'If-Match: must be the ETag of an earlier answer, e.g. "3"', {
      field: 'If-Match',
      value: raw,
    });
  return Number(match[1]);
}

/**
 * @throws AppError INVALID_INPUT (body, id differing from the path), NOT_FOUND (plant or part),
 *   PRECONDITION_FAILED (If-Match does not name the current version).
 */
export async function setStockLevel(
  deps: MaintenanceDeps,
  caller: Caller,
  plantId: string,
  partId: string,
  body: unknown,
  ifMatch: string | undefined,
): Promise<StockLevel> {
  const input = parseInput(stockLevelInput, body, 'body');
  if (input.id !== partId)
    throw new AppError('INVALID_INPUT', `id: must equal the part in the path ("${partId}")`, {
      field: 'id',
      value: input.id,
      message: 'must equal {partId} of the path',
    });
  const expected = parseIfMatch(ifMatch);
  const plant = await requirePlant(deps, caller, plantId);
  const part = await deps.registry.findPart(plant.customerId, plantId, partId);
  if (!part)
    throw new AppError('NOT_FOUND', `part "${partId}" does not exist for plant "${plantId}" nor company-wide`, {
      field: 'partId',
      value: partId,
    });
  for (let attempt = 1; ; attempt++) {
    const current = await deps.repository.getStockLevel(plantId, partId);
    const version = current?.version ?? 0;
    if (expected !== undefined && (expected === '*' ? version === 0 : expected !== version)) {
      throw new AppError(
        'PRECONDITION_FAILED',
        current
          ? `the stock level is at version ${version}, not ${String(expected)}; read it again before changing it`
          : 'the stock level does not exist yet; send it without If-Match',
        { field: 'If-Match', currentVersion: version },
      );
    }
    const at = deps.now().toISOString();
    const by = actorOf(caller);
    const level: StockLevel = {
      plantId,
      partId,
      quantity: input.quantity,
      unit: input.unit ?? part.unit ?? current?.unit ?? null,
      remark: input.remark ?? null,
      isShort: input.isShort ?? false,
      version: version + 1,
      updatedAt: at,
      updatedBy: by,
    };
    const change = {
      plantId,
      partId,
      version: level.version,
      at,
      by,
      oldQuantity: current?.quantity ?? null,
      newQuantity: level.quantity,
      oldUnit: current?.unit ?? null,
      newUnit: level.unit,
      remark: level.remark,
      isShort: level.isShort,
    };
    if (await deps.repository.putStockLevel(level, change, version)) return level;
    // Another change came first: with If-Match the client asked to fail; otherwise apply on top of it.
    if (expected !== undefined)
      throw new AppError('PRECONDITION_FAILED', 'the stock level changed meanwhile; read it again before changing it', {
        field: 'If-Match',
      });
    if (attempt >= MAX_ATTEMPTS) throw new AppError('SERVICE_UNAVAILABLE', 'the stock level kept changing; try again');
  }
}
