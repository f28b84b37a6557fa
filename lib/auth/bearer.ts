// Reading credentials from request headers. Header names are compared case-insensitively:
// serverless-offline keeps the client's case (`Authorization`), API Gateway lower-cases.
import { AppError } from '../core/errors';

export function headerValue(
  headers: Readonly<Record<string, string | undefined>> | null | undefined,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** Longest Authorization header read at all (a token is at most 8 KB, docs/auth.md). */
export const MAX_AUTHORIZATION_CHARS = 10_000;

/**
 * The token of `Authorization: Bearer <token>`, else undefined (missing header or another scheme).
 * @throws AppError UNAUTHORIZED when the header is longer than MAX_AUTHORIZATION_CHARS.
 */
export function bearerToken(
  headers: Readonly<Record<string, string | undefined>> | null | undefined,
): string | undefined {
  const value = headerValue(headers, 'authorization') ?? '';
  if (value.length > MAX_AUTHORIZATION_CHARS)
    throw new AppError('UNAUTHORIZED', `the Authorization header is longer than ${MAX_AUTHORIZATION_CHARS} characters`);
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(value);
  return match?.[1];
}

/**
 * `Authorization: Basic base64(urlencoded id ":" urlencoded secret)` (RFC 6749 section 2.3.1);
 * 'malformed' also for a header longer than MAX_AUTHORIZATION_CHARS.
 */
export function basicCredentials(
  headers: Readonly<Record<string, string | undefined>> | null | undefined,
): { id: string; secret: string } | 'malformed' | undefined {
  const value = headerValue(headers, 'authorization');
  if (value !== undefined && value.length > MAX_AUTHORIZATION_CHARS) return 'malformed';
  const match = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(value ?? '');
  if (!match?.[1]) return value !== undefined && /^Basic\b/i.test(value) ? 'malformed' : undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return 'malformed';
  }
}

/** A compact JWS has three base64url parts; maintenance tokens start with `mnt_`. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(token);
}
