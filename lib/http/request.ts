// Reading the path of an HTTP API request. Headers need no helper: the chain lower-cases their
// names (@middy/http-header-normalizer), so handlers read `event.headers['if-match']`.
import { AppError } from '../core/errors';

interface RequestPath {
  readonly pathParameters?: Readonly<Record<string, string | undefined>> | null;
}

/** A path parameter, URL-decoded. @throws AppError INVALID_INPUT when missing or badly encoded. */
export function pathParam(event: RequestPath, name: string): string {
  const raw = event.pathParameters?.[name];
  if (raw === undefined || raw === '')
    throw new AppError('INVALID_INPUT', `${name} is missing from the path`, { field: name });
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('INVALID_INPUT', `${name}: not a valid URL-encoded value`, { field: name });
  }
}
