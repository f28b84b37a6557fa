// Deployed, POST /oauth2/token on the API's own origin forwards a client-credentials request to
// the Cognito user pool's token endpoint, so that a browser page served by the API (the query
// playground) signs in without a cross-origin call, and integrators keep one base address.
// Cognito wants a client with a secret to send it as HTTP Basic (its token endpoint docs), so
// credentials sent in the form (client_secret_post) are moved into that header; everything else
// of the form is forwarded unchanged. Cognito's answer (token or RFC 6749 error) is passed back.
import { AppError } from '../core/errors';
import { MAX_FORM_BYTES, NO_STORE, oauthError, type TokenRequest, type TokenResponse } from './token-endpoint';
import { headerValue, MAX_AUTHORIZATION_CHARS } from './bearer';

/** One POST to the identity provider: the status and the JSON body it answered. */
export type PostForm = (
  url: string,
  request: { readonly headers: Readonly<Record<string, string>>; readonly body: string },
) => Promise<{ readonly status: number; readonly body: unknown }>;

export interface TokenProxyDeps {
  /** Cognito's token endpoint: https://<domain>.auth.<region>.amazoncognito.com/oauth2/token */
  readonly tokenUrl: string;
  readonly post: PostForm;
}

/** Base64 of `id:secret`, each form-encoded first as RFC 6749 section 2.3.1 asks. */
function basic(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`, 'utf8').toString('base64')}`;
}

export async function forwardTokenRequest(request: TokenRequest, deps: TokenProxyDeps): Promise<TokenResponse> {
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType.trim()))
    return oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  if (Buffer.byteLength(request.body, 'utf8') > MAX_FORM_BYTES)
    return oauthError(400, 'invalid_request', `the form is longer than ${MAX_FORM_BYTES} bytes`);
  const form = new URLSearchParams(request.body);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const authorization = headerValue(request.headers, 'authorization');
  if (authorization !== undefined && authorization.length > MAX_AUTHORIZATION_CHARS)
    return oauthError(
      400,
      'invalid_request',
      `the Authorization header is longer than ${MAX_AUTHORIZATION_CHARS} characters`,
    );
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  if (authorization !== undefined) {
    headers.authorization = authorization;
  } else if (id !== null && secret !== null) {
    headers.authorization = basic(id, secret);
    form.delete('client_secret');
  }
  let answer: { status: number; body: unknown };
  try {
    answer = await deps.post(deps.tokenUrl, { headers, body: form.toString() });
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'the identity provider did not answer; try again', {
      retryAfterSeconds: 5,
    });
  }
  const body =
    answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body)
      ? (answer.body as Record<string, unknown>)
      : undefined;
  if (!body || answer.status >= 500)
    throw new AppError('SERVICE_UNAVAILABLE', 'the identity provider answered with an error; try again', {
      retryAfterSeconds: 5,
    });
  return { status: answer.status, body, headers: NO_STORE };
}
