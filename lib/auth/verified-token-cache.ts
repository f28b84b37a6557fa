// A warm authorizer's memory of access tokens it has verified, so that a client sending the same
// token with every request pays for the RS256 check once (docs/auth.md, "Verified-token cache").
// Keyed on the full token text: another token, even of the same client, is verified afresh. An
// entry is used only before the token's own `exp` and at most `maxAgeMs` after its verification,
// and only with the same token policy (issuer, resource, key set). Refusals are never kept, so a
// bad token is checked every time. What the cache does not change: the registry lookups after it
// (a deleted client is refused within the registry cache's time) and every other check.
import type { TokenPolicy, VerifiedAccessToken } from './access-token';

export type TokenVerifier = (token: string, policy: TokenPolicy, now: Date) => Promise<VerifiedAccessToken>;

export interface VerifiedTokenCacheOptions {
  /** Tokens kept at most; the oldest entry goes first. Each key is at most MAX_TOKEN_CHARS long. */
  readonly maxEntries: number;
  /** Longest use of one verification, also for a token that lives longer (key rotation). */
  readonly maxAgeMs: number;
}

/** 500 tokens of at most 8 KB: a bound of 4 MB of keys for a container of 256 MB. */
export const DEFAULT_TOKEN_CACHE: VerifiedTokenCacheOptions = { maxEntries: 500, maxAgeMs: 5 * 60_000 };

interface Entry {
  readonly verified: VerifiedAccessToken;
  readonly policy: TokenPolicy;
  readonly until: number;
}

/** Wraps `verify` with the cache. @throws whatever `verify` throws (never cached). */
export function cachingVerifier(
  verify: TokenVerifier,
  options: VerifiedTokenCacheOptions = DEFAULT_TOKEN_CACHE,
): TokenVerifier & { readonly size: () => number } {
  if (options.maxEntries < 1 || options.maxAgeMs < 0) throw new RangeError('token cache bounds must be positive');
  const entries = new Map<string, Entry>();
  const cached = async (token: string, policy: TokenPolicy, now: Date): Promise<VerifiedAccessToken> => {
    const at = now.getTime();
    const hit = entries.get(token);
    if (hit && hit.policy === policy && at < hit.until) return hit.verified;
    if (hit) entries.delete(token);
    const verified = await verify(token, policy, now);
    // A verified token has an exp (verifyAccessToken requires it); without one it is not kept.
    if (verified.expiresAt === undefined) return verified;
    const until = Math.min(verified.expiresAt * 1000, at + options.maxAgeMs);
    if (until <= at) return verified;
    while (entries.size >= options.maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    entries.set(token, { verified, policy, until });
    return verified;
  };
  return Object.assign(cached, { size: () => entries.size });
}
