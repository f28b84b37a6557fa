// The deployed token route (lib/auth/token-proxy.ts): what it sends to Cognito and what it passes
// back. The outbound call is replaced by a recorder here (it stands for the cloud endpoint's
// request shape only); the real fetch adapter is tested against a local HTTP server below.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardTokenRequest, type PostForm } from '../../../lib/auth/token-proxy';
import { postForm } from '../../../lib/adapters/cognito/post-form';
import { AppError } from '../../../lib/core/errors';

const URL_ = 'https://pool.auth.eu-west-1.amazoncognito.com/oauth2/token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function recorder(answer: { status: number; body: unknown } | Error) {
  const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
  const post: PostForm = async (url, request) => {
    calls.push({ url, headers: { ...request.headers }, body: request.body });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, post };
}

describe('forwardTokenRequest', () => {
  it('moves form credentials into HTTP Basic, as Cognito wants for a client with a secret', async () => {
    const { calls, post } = recorder({
      status: 200,
      body: { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 },
    });
    const answer = await forwardTokenRequest(
      {
        headers: FORM,
        body: 'grant_type=client_credentials&client_id=abc&client_secret=s%2Bx%20y&scope=api%3A%2F%2Fx%2F.default',
      },
      { tokenUrl: URL_, post },
    );
    expect(answer).toMatchObject({
      status: 200,
      body: { access_token: 'a.b.c' },
      headers: { 'cache-control': 'no-store' },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(URL_);
    const sent = new URLSearchParams(calls[0]?.body);
    expect(sent.get('client_secret')).toBeNull();
    expect(sent.get('client_id')).toBe('abc');
    expect(sent.get('scope')).toBe('api://x/.default');
    const basic = calls[0]?.headers.authorization ?? '';
    expect(Buffer.from(basic.replace(/^Basic /, ''), 'base64').toString()).toBe('abc:s%2Bx+y');
  });

  it('forwards an Authorization header as it came and leaves the form alone', async () => {
    const { calls, post } = recorder({ status: 200, body: { access_token: 't' } });
    await forwardTokenRequest(
      { headers: { ...FORM, Authorization: 'Basic YWJjOmRlZg==' }, body: 'grant_type=client_credentials' },
      { tokenUrl: URL_, post },
    );
    expect(calls[0]?.headers.authorization).toBe('Basic YWJjOmRlZg==');
    expect(calls[0]?.body).toBe('grant_type=client_credentials');
  });

  it("passes Cognito's OAuth errors back with their status", async () => {
    const { post } = recorder({ status: 400, body: { error: 'invalid_client' } });
    const answer = await forwardTokenRequest(
      { headers: FORM, body: 'grant_type=client_credentials' },
      { tokenUrl: URL_, post },
    );
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
  });

  it('refuses a body that is not a form, a form or header too long, without calling out', async () => {
    const { calls, post } = recorder({ status: 200, body: {} });
    const json = await forwardTokenRequest(
      { headers: { 'content-type': 'application/json' }, body: '{}' },
      { tokenUrl: URL_, post },
    );
    const long = await forwardTokenRequest(
      { headers: FORM, body: `scope=${'x'.repeat(5000)}` },
      { tokenUrl: URL_, post },
    );
    expect(json).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(long).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['unreachable', new Error('connect ECONNREFUSED')],
    ['a 5xx', { status: 502, body: { message: 'bad gateway' } }],
    ['not JSON', { status: 200, body: undefined }],
  ] as const)('a provider that is %s is a 503 to retry', async (_name, answer) => {
    const { post } = recorder(answer);
    const failure = await forwardTokenRequest(
      { headers: FORM, body: 'grant_type=client_credentials' },
      { tokenUrl: URL_, post },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).status).toBe(503);
    expect((failure as AppError).data).toEqual([{ retryAfterSeconds: 5 }]);
  });
});

describe('postForm (fetch adapter)', () => {
  let url = '';
  const seen: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      if (req.url === '/text') return res.writeHead(200).end('<html>not json</html>');
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts the form with its headers and parses the JSON answer', async () => {
    const answer = await postForm(`${url}/token`, { headers: { ...FORM, authorization: 'Basic eDp5' }, body: 'a=1' });
    expect(answer).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    expect(seen.at(-1)).toMatchObject({
      body: 'a=1',
      headers: { authorization: 'Basic eDp5', 'content-type': FORM['content-type'] },
    });
  });

  it('answers an undefined body when the provider sends no JSON', async () => {
    expect(await postForm(`${url}/text`, { headers: FORM, body: '' })).toEqual({ status: 200, body: undefined });
  });
});
