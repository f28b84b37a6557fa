// Reading the parts of an HTTP API request the maintenance handlers need (path, headers).
import { AppError } from '../core/errors';

interface RequestParts {
  readonly pathParameters?: Readonly<Record<string, string | undefined>> | null;
  readonly headers?: Readonly<Record<string, string | undefined>> | null;
}

/** A path parameter, URL-decoded. @throws AppError INVALID_INPUT when missing or badly encoded. */
export function pathParam(event: RequestParts, name: string): string {
  const raw = event.pathParameters?.[name];
  if (raw === undefined || raw === '') throw new AppError('INVALID_INPUT', `${name} is missing from the path`, { field: name });
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('INVALID_INPUT', `${name}: not a valid URL-encoded value`, { field: name });
  }
}

/** A header by case-insensitive name (API Gateway lower-cases, serverless-offline may not). */
export function headerOf(event: RequestParts, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}
