// The service's HTTP API as the page uses it: the token endpoint, whoami, the schema, query and
// explain. The access token and the client's secret live in this module's memory only (never in
// storage, cookies or the URL); the secret is kept so the token can be renewed before it expires,
// since the client-credentials grant has no refresh token, and is dropped on sign-out.
import type { PlaygroundSchema, QueryAnswer } from './contracts';

/** The service's error envelope, or a network failure put in the same words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: readonly Record<string, unknown>[] = [],
  ) {
    super(message);
  }
}

export interface QueryRequest {
  readonly query: string;
  readonly startTime: string;
  readonly endTime: string;
  readonly plantIds?: readonly string[];
}

export interface Whoami {
  readonly customerId: string;
  readonly plantIds: readonly string[];
  readonly clientId?: string;
}

/** POST /query/explain: the SQL of the service's engine for the query, without running it. */
export interface ExplainAnswer {
  readonly data: { readonly dialect: string; readonly sql: string };
}

/** Renew this long before the token expires, so no request meets an expired one. */
const RENEW_MARGIN_MS = 60_000;

/** The API base: the page is /insights/v1/telemetry/playground on the service's own origin. */
const base = new URL('.', window.location.href);
const api = (path: string): string => new URL(path, base).href;
const origin = window.location.origin;

async function envelopeOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { code?: string; message?: string; error?: string; data?: unknown };
    const code = body.code ?? body.error ?? `HTTP_${response.status}`;
    const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
    return new ApiError(response.status, code, body.message ?? code, data);
  } catch {
    return new ApiError(response.status, `HTTP_${response.status}`, text.slice(0, 300) || response.statusText);
  }
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service did not answer (${(error as Error).message})`);
  }
}

export class Session {
  private token: { value: string; expiresAt: number } | undefined;
  private renewTimer: number | undefined;

  private constructor(
    private readonly clientId: string,
    private clientSecret: string,
    private readonly onRenewFailed: (error: ApiError) => void,
  ) {}

  /** Exchanges the client's credentials for a token. @throws ApiError when the endpoint refuses. */
  static async signIn(clientId: string, clientSecret: string, onRenewFailed: (e: ApiError) => void): Promise<Session> {
    const session = new Session(clientId, clientSecret, onRenewFailed);
    await session.renew();
    return session;
  }

  get expiresAt(): number {
    return this.token?.expiresAt ?? 0;
  }

  signOut(): void {
    window.clearTimeout(this.renewTimer);
    this.token = undefined;
    this.clientSecret = '';
  }

  private async renew(): Promise<void> {
    const response = await send(`${origin}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.clientId,
        client_secret: this.clientSecret,
      }).toString(),
    });
    if (!response.ok) throw await envelopeOf(response);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    window.clearTimeout(this.renewTimer);
    const renewIn = Math.max(5_000, body.expires_in * 1000 - RENEW_MARGIN_MS);
    this.renewTimer = window.setTimeout(() => {
      this.renew().catch((error: unknown) => this.onRenewFailed(error as ApiError));
    }, renewIn);
  }

  /** A call with the token; one 401 renews the token and tries once more. */
  private async call<T>(path: string, init: RequestInit = {}, retried = false): Promise<T> {
    if (!this.token) throw new ApiError(401, 'UNAUTHORIZED', 'signed out: sign in again');
    const response = await send(api(path), {
      ...init,
      headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${this.token.value}` },
    });
    if (response.status === 401 && !retried && this.clientSecret) {
      await this.renew();
      return this.call(path, init, true);
    }
    if (!response.ok) throw await envelopeOf(response);
    return (await response.json()) as T;
  }

  async whoami(): Promise<Whoami> {
    return (await this.call<{ data: Whoami }>('../whoami')).data;
  }

  async schema(): Promise<PlaygroundSchema> {
    return (await this.call<{ data: PlaygroundSchema }>('schema')).data;
  }

  query(request: QueryRequest): Promise<QueryAnswer> {
    return this.call('query/table', json(request));
  }

  explain(request: QueryRequest): Promise<ExplainAnswer> {
    return this.call('query/explain', json(request));
  }
}

function json(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}
