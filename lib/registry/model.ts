// The registry's records: who may send (agents), read (query clients) and change (maintenance
// tokens) what, per customer (tenant) and plant; plus the per-customer lookup lists and parts.
import { z } from 'zod';

/** Customer and plant ids: short, URL- and key-safe, no commas (authorizer context joins them). */
export const customerIdSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{1,39}$/,
    'a customer id is 2-40 lowercase letters, digits or dashes, starting with a letter or digit',
  );
export const plantIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'a plant id is 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit',
  );
/** The agent id is the IoT thing name: a lowercase UUID (max 36 characters, spec limit). */
export const agentIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'an agent id is a lowercase UUID');
export const partNumberSchema = z.string().trim().min(1).max(100);

export const LOOKUP_KINDS = ['activityKind', 'assignedToRole', 'priority', 'department'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export interface Customer {
  readonly customerId: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface Plant {
  readonly plantId: string;
  readonly customerId: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface Agent {
  readonly agentId: string;
  readonly customerId: string;
  readonly name: string;
  readonly createdAt: string;
}

/** A query-API client (OAuth 2.0 client credentials). */
export interface QueryClient {
  readonly clientId: string;
  readonly customerId: string;
  readonly name: string;
  /** The plants it may read; null means every plant of its customer. */
  readonly plantIds: readonly string[] | null;
  /** Local identity provider only: `scrypt$...` of the secret. Cognito clients have none here. */
  readonly secretHash?: string;
  readonly idp: 'local' | 'cognito';
  readonly createdAt: string;
}

/** A maintenance-API bearer token; the token itself is never stored, only its SHA-256. */
export interface MaintenanceToken {
  readonly tokenId: string;
  readonly plantId: string;
  readonly customerId: string;
  readonly tokenHash: string;
  readonly label: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly revokedAt?: string;
}

/**
 * The one-time retrieval link of a new token: stored under the SHA-256 of its id, holding the token
 * encrypted with a key derived from the id, so the table alone never yields a usable token.
 */
export interface TokenLink {
  readonly linkHash: string;
  readonly tokenId: string;
  readonly plantId: string;
  /** base64url of iv | ciphertext | tag (AES-256-GCM); absent once retrieved. */
  readonly sealedToken?: string;
  readonly createdAt: string;
  /** After this the link answers 410; the item itself is removed by the table's TTL later. */
  readonly expiresAt: string;
  readonly retrievedAt?: string;
}

export interface LookupList {
  readonly customerId: string;
  readonly kind: LookupKind;
  readonly values: readonly string[];
  readonly updatedAt: string;
}

/** A spare part: company-wide (plantId null) or for one plant. */
export interface Part {
  readonly customerId: string;
  readonly plantId: string | null;
  readonly partNumber: string;
  readonly description: string;
  readonly unit?: string;
}

/** What the demo seed created, kept so that a second run reports instead of creating again. */
export interface SeedMarker {
  readonly name: string;
  readonly createdAt: string;
  readonly details: Readonly<Record<string, string>>;
}
