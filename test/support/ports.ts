// Free TCP ports on 127.0.0.1, so tests run beside `npm start` and beside each other.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Thrown by a waitUntil check when waiting longer cannot help (the process being waited for has
 * exited): waitUntil rethrows it at once instead of polling on to its time limit.
 */
export class StopWaiting extends Error {}

/**
 * Polls until check() resolves true or the time is up. Any other error of check() counts as "not
 * yet" (a server that does not listen yet refuses the connection).
 * @throws the check's StopWaiting, or a timeout naming `what`.
 */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const done = await check().catch((error: unknown) => {
      if (error instanceof StopWaiting) throw error;
      return false;
    });
    if (done) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
