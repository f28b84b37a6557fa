// The local identity provider's token endpoint (OAuth 2.0 client credentials, RFC 6749 section 4.4).
// Answers exactly as Cognito's /oauth2/token does for integrators: `{access_token, token_type,
// expires_in}`, and RFC 6749 section 5.2 errors `{error, error_description}` (not the API envelope).
import type { Registry } from '../registry/ports';
import { DUMMY_CLIENT_SECRET_HASH, verifyClientSecret } from '../registry/secrets';
import {
  ACCESS_TOKEN_SECONDS,
  CLIENT_ID_PATTERN,
  MAX_SCOPE_CHARS,
  requiredScope,
  signAccessToken,
} from './access-token';
import { basicCredentials, headerValue } from './bearer';
import type { SigningKey } from './local-keys';

export interface TokenRequest {
  readonly headers: Readonly<Record<string, string | undefined>> | null | undefined;
  /** The raw body, already base64-decoded. */
  readonly body: string;
}

export interface TokenResponse {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;
}

export interface TokenEndpointDeps {
  readonly registry: Registry;
  readonly signingKey: () => Promise<SigningKey>;
  readonly issuer: string;
  readonly resource: string;
  readonly now: () => Date;
  /** Checks a secret against a stored hash (default: scrypt, lib/registry/secrets.ts). */
  readonly verifySecret?: (secret: string, stored: string) => Promise<boolean>;
}

/**
 * Bounds of the form (docs/auth.md, "Input bounds"): a client id as Cognito's (26 characters)
 * with room, a secret as ours (43) with room; longer is refused before any lookup or hashing.
 */
export const MAX_FORM_BYTES = 4096;
export const MAX_SECRET_CHARS = 256;

type OAuthError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable';

/** Retry-After of the 503 when the client registry cannot be read: a busy table is usually back within seconds. */
export const REGISTRY_RETRY_SECONDS = 2;

/** Headers of every token answer (RFC 6749 section 5.1), the forwarded ones included (token-proxy.ts). */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

export function oauthError(
  status: number,
  error: OAuthError,
  description: string,
  extraHeaders: Record<string, string> = {},
): TokenResponse {
  return { status, body: { error, error_description: description }, headers: { ...NO_STORE, ...extraHeaders } };
}

export async function issueToken(request: TokenRequest, deps: TokenEndpointDeps): Promise<TokenResponse> {
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType.trim())) {
    return oauthError(400, 'invalid_request', "send the request as 'Content-Type: application/x-www-form-urlencoded'");
  }
  if (Buffer.byteLength(request.body, 'utf8') > MAX_FORM_BYTES)
    return oauthError(413, 'invalid_request', `the request body is larger than ${MAX_FORM_BYTES} bytes`);
  const form = new URLSearchParams(request.body);
  for (const name of ['grant_type', 'client_id', 'client_secret', 'scope']) {
    if (form.getAll(name).length > 1) return oauthError(400, 'invalid_request', `the parameter ${name} is repeated`);
  }
  const basic = basicCredentials(request.headers);
  if (basic === 'malformed')
    return oauthError(401, 'invalid_client', 'the Basic authorization header is malformed', {
      'www-authenticate': 'Basic realm="token"',
    });
  if (basic && (form.has('client_secret') || (form.has('client_id') && form.get('client_id') !== basic.id))) {
    return oauthError(
      400,
      'invalid_request',
      'use one client authentication method: the Basic header or the form fields, not both',
    );
  }
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials')
    return oauthError(400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported');

  const clientId = basic?.id ?? form.get('client_id') ?? '';
  const secret = basic?.secret ?? form.get('client_secret') ?? '';
  const challenge: Record<string, string> = basic ? { 'www-authenticate': 'Basic realm="token"' } : {};
  if (clientId === '' || secret === '')
    return oauthError(401, 'invalid_client', 'client_id and client_secret are required', challenge);
  if (!CLIENT_ID_PATTERN.test(clientId))
    return oauthError(400, 'invalid_request', 'client_id must be 1-128 letters, digits, ".", "_" or "-"');
  if (secret.length > MAX_SECRET_CHARS)
    return oauthError(400, 'invalid_request', `client_secret is longer than ${MAX_SECRET_CHARS} characters`);
  const scope = form.get('scope');
  if (scope !== null && scope.length > MAX_SCOPE_CHARS)
    return oauthError(400, 'invalid_request', `scope is longer than ${MAX_SCOPE_CHARS} characters`);

  // The same scrypt runs whether the client exists or not, and the same answer follows: a
  // caller cannot tell registered ids from others, nor make unknown ids cheap to try.
  const verify = deps.verifySecret ?? verifyClientSecret;
  // A registry that cannot be read is not a wrong secret: answering 401 there told a correct client
  // that its credentials were revoked (seen under load, DynamoDB Local throttled). It gets a 503 it
  // can retry, with RFC 6749's temporarily_unavailable code, and nothing about the client.
  let client;
  try {
    client = await deps.registry.getClient(clientId);
  } catch {
    return oauthError(503, 'temporarily_unavailable', 'the client registry is unavailable; retry shortly', {
      'retry-after': String(REGISTRY_RETRY_SECONDS),
    });
  }
  const matches = await verify(secret, client?.secretHash ?? DUMMY_CLIENT_SECRET_HASH);
  if (!client?.secretHash || !matches)
    return oauthError(401, 'invalid_client', 'client authentication failed', challenge);

  const allowed = requiredScope(deps.resource);
  const requested = (scope ?? allowed).split(' ').filter((s) => s !== '');
  if (requested.length === 0 || requested.some((s) => s !== allowed))
    return oauthError(400, 'invalid_scope', `the only scope this service grants is ${allowed}`);

  const accessToken = await signAccessToken(await deps.signingKey(), {
    issuer: deps.issuer,
    clientId: client.clientId,
    scope: allowed,
    now: deps.now(),
  });
  return {
    status: 200,
    body: { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS },
    headers: { ...NO_STORE },
  };
}
