// Maintenance tokens: issued by an operator for one plant, handed over through a one-time link,
// checked by the maintenance authorizer, revoked by an operator. Only hashes are stored.
import { AppError } from '../core/errors';
import type { MaintenanceToken, TokenLink } from './model';
import { plantIdSchema } from './model';
import type { Registry } from './ports';
import { checked } from './admin';
import {
  maintenanceTokenId,
  newLinkId,
  newMaintenanceToken,
  sameHash,
  sealToken,
  sha256Hex,
  unsealToken,
} from './secrets';

const DAY_MS = 86_400_000;
export const DEFAULT_TOKEN_DAYS = 90;
export const LINK_DAYS = 7;

/** `90d`, `12h` or `30m` to milliseconds. @throws AppError INVALID_INPUT */
export function parseLifetime(raw: string): number {
  const match = /^([1-9][0-9]{0,4})([dhm])$/.exec(raw.trim());
  if (!match)
    throw new AppError('INVALID_INPUT', `expires must look like 90d, 12h or 30m; got "${raw}"`, {
      field: 'expires',
      value: raw,
    });
  return Number(match[1]) * { d: DAY_MS, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
}

export interface IssuedToken {
  readonly token: MaintenanceToken;
  /** The id of the one-time link, `GET /maintenance/v1/token-links/{linkId}`; shown once. */
  readonly linkId: string;
  readonly linkExpiresAt: string;
}

export async function issueMaintenanceToken(
  registry: Registry,
  input: { plantId: string; lifetimeMs?: number; label?: string; now: Date },
): Promise<IssuedToken> {
  const plant = await registry.getPlant(checked(plantIdSchema, 'plant', input.plantId));
  if (!plant)
    throw new AppError('NOT_FOUND', `plant "${input.plantId}" does not exist`, {
      field: 'plant',
      value: input.plantId,
    });
  const { tokenId, token } = newMaintenanceToken();
  const linkId = newLinkId();
  const now = input.now.getTime();
  const record: MaintenanceToken = {
    tokenId,
    plantId: plant.plantId,
    customerId: plant.customerId,
    tokenHash: sha256Hex(token),
    label: input.label ?? '',
    createdAt: input.now.toISOString(),
    expiresAt: new Date(now + (input.lifetimeMs ?? DEFAULT_TOKEN_DAYS * DAY_MS)).toISOString(),
  };
  const link: TokenLink = {
    linkHash: sha256Hex(linkId),
    tokenId,
    plantId: plant.plantId,
    sealedToken: sealToken(token, linkId),
    createdAt: input.now.toISOString(),
    expiresAt: new Date(now + LINK_DAYS * DAY_MS).toISOString(),
  };
  await registry.createMaintenanceToken(record, link);
  return { token: record, linkId, linkExpiresAt: link.expiresAt };
}

/** The token behind a one-time link. @throws AppError NOT_FOUND (unknown link) or GONE (used or expired). */
export async function redeemTokenLink(
  registry: Registry,
  linkId: string,
  now: Date,
): Promise<{ accessToken: string; tokenId: string; plantId: string; expiresAt: string }> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(linkId)) throw new AppError('NOT_FOUND', 'no such token link', { field: 'id' });
  const result = await registry.redeemTokenLink(sha256Hex(linkId), now);
  if (result.outcome === 'unknown') throw new AppError('NOT_FOUND', 'no such token link', { field: 'id' });
  if (result.outcome !== 'redeemed') {
    throw new AppError(
      'GONE',
      result.outcome === 'used'
        ? 'this link has already been used; ask the operator for a new token'
        : 'this link has expired; ask the operator for a new token',
      { reason: result.outcome },
    );
  }
  const token = await registry.getMaintenanceToken(result.link.tokenId);
  if (!token) throw new AppError('GONE', 'the token of this link no longer exists', { reason: 'deleted' });
  return {
    accessToken: unsealToken(result.link.sealedToken, linkId),
    tokenId: token.tokenId,
    plantId: token.plantId,
    expiresAt: token.expiresAt,
  };
}

export type TokenCheck =
  | { readonly outcome: 'valid'; readonly token: MaintenanceToken }
  | { readonly outcome: 'unknown' }
  | { readonly outcome: 'revoked' | 'expired'; readonly token: MaintenanceToken };

/** Finds a presented token by its id and compares hashes (constant time). */
export async function checkMaintenanceToken(registry: Registry, presented: string, now: Date): Promise<TokenCheck> {
  const tokenId = maintenanceTokenId(presented);
  if (!tokenId) return { outcome: 'unknown' };
  const token = await registry.getMaintenanceToken(tokenId);
  if (!token || !sameHash(token.tokenHash, sha256Hex(presented))) return { outcome: 'unknown' };
  if (token.revokedAt !== undefined) return { outcome: 'revoked', token };
  if (Date.parse(token.expiresAt) <= now.getTime()) return { outcome: 'expired', token };
  return { outcome: 'valid', token };
}
