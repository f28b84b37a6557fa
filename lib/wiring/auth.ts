// Builds the identity functions' dependencies from configuration: the registry on the main table,
// and the token policy with either the local signing key (offline) or the issuer's JWKS (Cognito).
import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { verifyAccessToken, type TokenPolicy } from '../auth/access-token';
import { authenticateQuery, type AuthorizerDeps } from '../auth/authorize';
import type { Caller } from '../auth/caller';
import { localSigningKey, type SigningKey } from '../auth/local-keys';
import { cachingVerifier } from '../auth/verified-token-cache';
import type { TokenEndpointDeps } from '../auth/token-endpoint';
import type { TokenProxyDeps } from '../auth/token-proxy';
import { postForm } from '../adapters/cognito/post-form';
import { config, type Config } from '../core/config';
import { logger } from '../core/logger';
import { registry } from '../adapters/dynamodb/registry';
import { withShortCache } from '../registry/short-cache';
import type { Registry } from '../registry/ports';
import { once, onceSync } from './once';

/** The expected `iss`: OAUTH_ISSUER, else the Cognito pool's issuer. @throws Error when neither is set. */
export function oauthIssuer(cfg: Pick<Config, 'OAUTH_ISSUER' | 'COGNITO_USER_POOL_ID' | 'AWS_REGION'>): string {
  if (cfg.OAUTH_ISSUER) return cfg.OAUTH_ISSUER.replace(/\/+$/, '');
  if (cfg.COGNITO_USER_POOL_ID)
    return `https://cognito-idp.${cfg.AWS_REGION}.amazonaws.com/${cfg.COGNITO_USER_POOL_ID}`;
  throw new Error('invalid configuration: OAUTH_ISSUER or COGNITO_USER_POOL_ID must be set');
}

/** The local identity provider's key, or undefined when deployed (Cognito signs). */
export function localKey(): (() => Promise<SigningKey>) | undefined {
  const dir = config().AUTH_SIGNING_KEY_DIR;
  return dir ? () => localSigningKey(dir) : undefined;
}

let keySet: JWTVerifyGetKey | undefined;

const tokenPolicy: () => Promise<TokenPolicy> = once(async () => {
  const cfg = config();
  const issuer = oauthIssuer(cfg);
  const local = localKey();
  if (local) {
    keySet = createLocalJWKSet({ keys: [(await local()).publicJwk] });
  } else {
    // jose caches the remote key set and refetches when a token names an unknown kid (rotation).
    keySet ??= createRemoteJWKSet(new URL(cfg.OAUTH_JWKS_URL ?? `${issuer}/.well-known/jwks.json`), {
      cooldownDuration: 30_000,
      cacheMaxAge: 3_600_000,
    });
  }
  return { issuer, resource: cfg.OAUTH_RESOURCE, keys: keySet };
});

/** How long a warm authorizer reuses a client's registry entry and its customer's plant list. */
const AUTHORIZER_CACHE_MS = 30_000;
const authorizerRegistry = onceSync((): Registry => withShortCache(registry(), AUTHORIZER_CACHE_MS));

/** One per container: both authorizers of a process share it (the same tokens reach both). */
const verifyToken = onceSync(() => cachingVerifier(verifyAccessToken));

export function authorizerDeps(): AuthorizerDeps {
  return {
    registry: authorizerRegistry(),
    verify: verifyToken(),
    policy: tokenPolicy,
    now: () => new Date(),
    log: (message, attributes) => logger.info(message, attributes),
  };
}

/**
 * The caller of a query route that checks its token itself (no Lambda authorizer; docs/auth.md):
 * the query authorizer's decision with the same dependencies and caches. An accepted caller's ids
 * go on the request's own log line (the chain's `request done`) instead of a line of their own;
 * a refusal is logged as the authorizer logs it. @throws AppError 401/403.
 */
export function queryCaller(event: Parameters<typeof authenticateQuery>[0]): Promise<Caller> {
  return authenticateQuery(event, {
    ...authorizerDeps(),
    accepted: ({ route: _route, ...ids }) => logger.appendKeys(ids),
  });
}

/** @returns undefined when the local identity provider is off (deployed). */
export function tokenEndpointDeps(): TokenEndpointDeps | undefined {
  const signingKey = localKey();
  if (!signingKey) return undefined;
  const cfg = config();
  return {
    registry: registry(),
    signingKey,
    issuer: oauthIssuer(cfg),
    resource: cfg.OAUTH_RESOURCE,
    now: () => new Date(),
  };
}

/** Deployed: where POST /oauth2/token forwards to; undefined when COGNITO_TOKEN_URL is not set. */
export function tokenProxyDeps(): TokenProxyDeps | undefined {
  const tokenUrl = config().COGNITO_TOKEN_URL;
  return tokenUrl ? { tokenUrl, post: postForm } : undefined;
}
