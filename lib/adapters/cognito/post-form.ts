// The token proxy's one outbound call (lib/auth/token-proxy.ts): a form POST with a deadline well
// inside the HTTP chain's early timeout, answering the status and the parsed JSON body.
import type { PostForm } from '../../auth/token-proxy';

/** Cognito answers in well under a second; past this the caller gets a 503 to retry. */
const DEADLINE_MS = 4_000;
/** A token answer is a few KB; anything far larger is not one. */
const MAX_ANSWER_CHARS = 64 * 1024;

export const postForm: PostForm = async (url, request) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    redirect: 'error',
    signal: AbortSignal.timeout(DEADLINE_MS),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text.length <= MAX_ANSWER_CHARS ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
};
