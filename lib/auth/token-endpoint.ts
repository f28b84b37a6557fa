// The local identity provider's token endpoint (OAuth 2.0 client credentials, RFC 6749 section 4.4).
// Answers exactly as Cognito's /oauth2/token does for integrators: `{access_token, token_type,
// expires_in}`, and RFC 6749 section 5.2 errors `{error, error_description}` (not the API envelope).
import type { Registry } from '../registry/ports';
import { verifyClientSecret } from '../registry/secrets';
import { ACCESS_TOKEN_SECONDS, requiredScope, signAccessToken } from './access-token';
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
}

type OAuthError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

function oauthError(status: number, error: OAuthError, description: string, extraHeaders: Record<string, string> = {}): TokenResponse {
  return { status, body: { error, error_description: description }, headers: { ...NO_STORE, ...extraHeaders } };
}

export async function issueToken(request: TokenRequest, deps: TokenEndpointDeps): Promise<TokenResponse> {
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType.trim())) {
    return oauthError(400, 'invalid_request', "send the request as 'Content-Type: application/x-www-form-urlencoded'");
  }
  const form = new URLSearchParams(request.body);
  for (const name of ['grant_type', 'client_id', 'client_secret', 'scope']) {
    if (form.getAll(name).length > 1) return oauthError(400, 'invalid_request', `the parameter ${name} is repeated`);
  }
  const basic = basicCredentials(request.headers);
  if (basic === 'malformed') return oauthError(401, 'invalid_client', 'the Basic authorization header is malformed', { 'www-authenticate': 'Basic realm="token"' });
  if (basic && (form.has('client_secret') || (form.has('client_id') && form.get('client_id') !== basic.id))) {
    return oauthError(400, 'invalid_request', 'use one client authentication method: the Basic header or the form fields, not both');
  }
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported');

  const clientId = basic?.id ?? form.get('client_id') ?? '';
  const secret = basic?.secret ?? form.get('client_secret') ?? '';
  const challenge: Record<string, string> = basic ? { 'www-authenticate': 'Basic realm="token"' } : {};
  if (clientId === '' || secret === '') return oauthError(401, 'invalid_client', 'client_id and client_secret are required', challenge);
  const client = await deps.registry.getClient(clientId).catch(() => undefined);
  if (!client?.secretHash || !(await verifyClientSecret(secret, client.secretHash))) {
    return oauthError(401, 'invalid_client', 'client authentication failed', challenge);
  }

  const allowed = requiredScope(deps.resource);
  const requested = (form.get('scope') ?? allowed).split(' ').filter((s) => s !== '');
  if (requested.length === 0 || requested.some((s) => s !== allowed)) return oauthError(400, 'invalid_scope', `the only scope this service grants is ${allowed}`);

  const accessToken = await signAccessToken(await deps.signingKey(), { issuer: deps.issuer, clientId: client.clientId, scope: allowed, now: deps.now() });
  return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS }, headers: { ...NO_STORE } };
}
