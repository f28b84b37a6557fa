// Query-API access tokens: RS256 JWTs with kid, iss, client_id, scope and exp, as the local token
// endpoint signs them and as Cognito issues them (token_use "access", no aud). Verification
// accepts RS256 only, so `alg: none` and HS256 tokens "signed" with the public key are refused.
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import { AppError } from '../core/errors';
import type { SigningKey } from './local-keys';

export const ACCESS_TOKEN_SECONDS = 3600;

/**
 * Bounds of what a token may carry (docs/auth.md, "Input bounds"). Cognito's access tokens are
 * about 1 KB and its client ids 26 characters; these leave ample room and keep every later step
 * (the registry lookup, the logs) on small values.
 */
export const MAX_TOKEN_CHARS = 8192;
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
export const MAX_SCOPE_CHARS = 1024;

export interface TokenPolicy {
  readonly issuer: string;
  /** The API resource identifier; the token must carry `<resource>/.default`. */
  readonly resource: string;
  readonly keys: JWTVerifyGetKey;
}

export interface VerifiedAccessToken {
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** The token's `exp` (seconds since the epoch): how long a verification may be reused. */
  readonly expiresAt?: number;
}

export function requiredScope(resource: string): string {
  return `${resource}/.default`;
}

export async function signAccessToken(
  key: SigningKey,
  claims: { issuer: string; clientId: string; scope: string; now: Date },
): Promise<string> {
  const iat = Math.floor(claims.now.getTime() / 1000);
  return new SignJWT({ client_id: claims.clientId, scope: claims.scope, token_use: 'access' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(claims.issuer)
    .setSubject(claims.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

function refusal(error: unknown): AppError {
  if (error instanceof errors.JWTExpired)
    return new AppError('UNAUTHORIZED', 'the access token has expired; request a new one', [], { cause: error });
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'iss')
    return new AppError('UNAUTHORIZED', 'the access token was not issued by this service', [], { cause: error });
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new AppError('UNAUTHORIZED', 'the access token must be signed with RS256', [], { cause: error });
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey)
    return new AppError('UNAUTHORIZED', 'the access token signature is not valid', [], { cause: error });
  return new AppError('UNAUTHORIZED', 'the access token is not valid', [], { cause: error });
}

/**
 * Checks length, signature (by kid from the key set), algorithm, issuer, expiry, token use, the
 * client id's form and the scope.
 * @throws AppError UNAUTHORIZED for a bad token, FORBIDDEN when the scope is not this API's.
 */
export async function verifyAccessToken(token: string, policy: TokenPolicy, now: Date): Promise<VerifiedAccessToken> {
  if (token.length > MAX_TOKEN_CHARS)
    throw new AppError('UNAUTHORIZED', `the access token is longer than ${MAX_TOKEN_CHARS} characters`);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, policy.keys, {
      algorithms: ['RS256'],
      issuer: policy.issuer,
      currentDate: now,
      clockTolerance: 5,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    throw refusal(error);
  }
  if (payload.token_use !== 'access')
    throw new AppError('UNAUTHORIZED', 'an access token is required (token_use "access")');
  if (typeof payload.client_id !== 'string' || payload.client_id === '')
    throw new AppError('UNAUTHORIZED', 'the access token names no client');
  if (!CLIENT_ID_PATTERN.test(payload.client_id))
    throw new AppError(
      'UNAUTHORIZED',
      'the access token names no valid client (client_id: 1-128 letters, digits, ".", "_" or "-")',
    );
  if (typeof payload.scope === 'string' && payload.scope.length > MAX_SCOPE_CHARS)
    throw new AppError('UNAUTHORIZED', `the access token's scope is longer than ${MAX_SCOPE_CHARS} characters`);
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter((s) => s !== '') : [];
  if (!scopes.includes(requiredScope(policy.resource)))
    throw new AppError('FORBIDDEN', `the access token lacks the scope ${requiredScope(policy.resource)}`, {
      requiredScope: requiredScope(policy.resource),
    });
  return {
    clientId: payload.client_id,
    scopes,
    ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
  };
}
