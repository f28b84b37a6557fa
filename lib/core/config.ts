// The only reader of process.env (STYLE.md). Parsed with zod when this module loads, which in a
// function is its cold start: a missing or malformed variable, or two that do not fit together
// (refinements below), stops the start with the variable's name instead of failing a request.
import { z } from 'zod';

// Stage parameters that do not apply are rendered as empty strings: treat them as unset.
const unsetIfEmpty = (value: unknown): unknown => (value === '' ? undefined : value);
const optionalUrl = z.preprocess(unsetIfEmpty, z.url().optional());
const nonEmpty = z.string().min(1);
const optionalText = z.preprocess(unsetIfEmpty, nonEmpty.optional());

const telemetrySchema = z.discriminatedUnion('TELEMETRY_BACKEND', [
  z.object({ TELEMETRY_BACKEND: z.literal('duckdb'), DUCKDB_PATH: nonEmpty }),
  z.object({
    TELEMETRY_BACKEND: z.literal('timestream'),
    TIMESTREAM_DATABASE: nonEmpty,
    TIMESTREAM_STATES_TABLE: nonEmpty.default('States'),
    TIMESTREAM_EVENTS_TABLE: nonEmpty.default('Events'),
  }),
]);

/** The embedded engine's own settings (local stack only); defaults chosen for the host in lib/adapters/duckdb/database.ts. */
const duckDbSchema = z.object({
  /** DuckDB `memory_limit`, e.g. `1GB` or `512MB`. Default: a quarter of the host's memory, between 256 MB and 4 GB. */
  DUCKDB_MEMORY_LIMIT: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^\d+(?:\.\d+)?\s*(?:[KMGT]i?B)$/i, 'a size such as 512MB or 2GB')
      .optional(),
  ),
  /** DuckDB `threads` (worker threads of the one instance, shared by all its queries). Default: the host's cores. */
  DUCKDB_THREADS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(256).optional()),
  /**
   * The write-ahead log size at which the telemetry store checkpoints the database in the
   * background (lib/adapters/duckdb/telemetry-store.ts; DuckDB's own threshold is set to four
   * times this as a backstop). Default 32MB (bench/ingest.bench.ts).
   */
  DUCKDB_CHECKPOINT_THRESHOLD: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^\d+(?:\.\d+)?\s*(?:[KMGT]i?B)$/i, 'a size such as 32MB')
      .default('32MB'),
  ),
});

const baseSchema = z.object({
  ...duckDbSchema.shape,
  STAGE: nonEmpty.default('local'),
  SERVICE_NAME: nonEmpty.default('industrial-insights'),
  AWS_REGION: nonEmpty.default('eu-west-1'),
  /** The single DynamoDB table of registry and maintenance records. */
  MAIN_TABLE: nonEmpty,
  /** Set locally to DynamoDB Local's address; unset when deployed. */
  DYNAMODB_ENDPOINT: optionalUrl,
  /** Local data lake and dead letter folders; deployed, the Firehose stream and the S3 bucket. */
  LAKE_DIR: optionalText,
  FIREHOSE_STREAM: optionalText,
  DEAD_LETTER_DIR: optionalText,
  DEAD_LETTER_BUCKET: optionalText,
  /** The local MQTT broker standing in for AWS IoT Core (health check only). */
  LOCAL_MQTT_URL: optionalUrl,
  /** Name of the message hub written into every cloud message as ingestionId. */
  INGESTION_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('local-hub'),
  /** Telemetry query API: most rows returned (more are cut and reported), time limit, widest window. */
  QUERY_ROW_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(900_000).default(20_000),
  QUERY_MAX_WINDOW_DAYS: z.coerce.number().min(1).max(3660).default(31),
  /**
   * Largest query answer in bytes as a Lambda response counts it (the JSON body, each `"` and `\`
   * once more for the escaping in the response payload). Rows past it are cut. A Lambda response
   * is at most 6 MB (6,291,456 bytes), so the default leaves room for headers and status.
   */
  QUERY_MAX_RESPONSE_BYTES: z.coerce.number().int().min(10_000).max(6_000_000).default(5_000_000),
  /** Telemetry queries running at once in one process; more wait in a short queue. Default: half of UV_THREADPOOL_SIZE. */
  QUERY_CONCURRENCY: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(256).optional()),
  /** Of those, how many one client (or plant token) may have running or waiting. Default: a quarter of QUERY_CONCURRENCY, at least 1. */
  QUERY_CONCURRENCY_PER_CLIENT: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(256).optional()),
  /**
   * libuv's thread pool size, which Node reads once at start (the process that starts the stack
   * sets it). DuckDB queries, WebCrypto (token checks), scrypt and file access all use it, so the
   * query concurrency must stay below it. Node's default is 4.
   */
  UV_THREADPOOL_SIZE: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(1024).default(4)),
  /**
   * Issuer of query-API access tokens (`iss`). Locally the stack's own address (the local token
   * endpoint signs with it); deployed, the Cognito user pool's issuer URL. Empty means "derive it
   * from COGNITO_USER_POOL_ID".
   */
  OAUTH_ISSUER: z.union([z.url(), z.literal('')]).optional(),
  /** Deployed: the Cognito user pool id; the issuer is then https://cognito-idp.<region>.amazonaws.com/<id>. */
  COGNITO_USER_POOL_ID: z.string().optional(),
  /**
   * Deployed: the Cognito user pool's token endpoint. POST /oauth2/token on the API forwards
   * client-credentials requests there (lib/auth/token-proxy.ts), so pages served by the API sign in
   * on their own origin. Unset locally, where the local identity provider answers.
   */
  COGNITO_TOKEN_URL: optionalUrl,
  /** The API resource identifier: access tokens must carry the scope `<OAUTH_RESOURCE>/.default`. */
  OAUTH_RESOURCE: nonEmpty.default('api://industrial-insights'),
  /** JWKS address; default `<issuer>/.well-known/jwks.json`. Unused when AUTH_SIGNING_KEY_DIR is set. */
  OAUTH_JWKS_URL: optionalUrl,
  /**
   * Local only: the folder of the local identity provider's signing key (made on first use). When
   * set, the token endpoint and the JWKS route are served and the authorizers read the key from
   * here; when unset (deployed), those routes answer 404 and Cognito is the identity provider.
   */
  AUTH_SIGNING_KEY_DIR: z.string().optional(),
  /**
   * What the deployed telemetry store accepts, applied locally too (lib/telemetry/store-rules.ts):
   * the Timestream tables' memory-store retention, magnetic-store retention and whether late rows
   * may be written to the magnetic store. Defaults = the deployed stage parameters (serverless.yml).
   */
  STORE_MEMORY_RETENTION_HOURS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(8766).default(24)),
  STORE_MAGNETIC_RETENTION_DAYS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(73000).default(3650)),
  STORE_MAGNETIC_WRITES: z
    .preprocess(unsetIfEmpty, z.enum(['true', 'false']).default('true'))
    .transform((v) => v === 'true'),
});

type Settings = z.infer<typeof baseSchema>;
const isSet = (value: string | undefined): boolean => value !== undefined && value !== '';

/** Queries at once: QUERY_CONCURRENCY, else half of libuv's pool (lib/wiring/query.ts admissionLimits). */
export function queryConcurrencyOf(cfg: Pick<Settings, 'QUERY_CONCURRENCY' | 'UV_THREADPOOL_SIZE'>): number {
  return cfg.QUERY_CONCURRENCY ?? Math.max(1, Math.floor(cfg.UV_THREADPOOL_SIZE / 2));
}

/** Checks across variables; each issue's path is the variable to change. */
function crossChecks(cfg: Settings, ctx: z.RefinementCtx): void {
  const problem = (variable: keyof Settings, message: string) =>
    ctx.addIssue({ code: 'custom', path: [variable], message });
  // One destination each: a local folder (npm start) or the deployed resource, never both.
  if (isSet(cfg.LAKE_DIR) === isSet(cfg.FIREHOSE_STREAM))
    problem('LAKE_DIR', 'set exactly one of LAKE_DIR (local) and FIREHOSE_STREAM (deployed)');
  if (isSet(cfg.DEAD_LETTER_DIR) === isSet(cfg.DEAD_LETTER_BUCKET))
    problem('DEAD_LETTER_DIR', 'set exactly one of DEAD_LETTER_DIR (local) and DEAD_LETTER_BUCKET (deployed)');
  // The token issuer is given, or derived from the Cognito user pool (lib/wiring/auth.ts).
  if (!isSet(cfg.OAUTH_ISSUER) && !isSet(cfg.COGNITO_USER_POOL_ID))
    problem('OAUTH_ISSUER', "set OAUTH_ISSUER or COGNITO_USER_POOL_ID (the issuer is then the user pool's)");
  // Queries must leave libuv threads to token checks and file access (docs/query-api.md, "Limits").
  const concurrency = queryConcurrencyOf(cfg);
  if (cfg.UV_THREADPOOL_SIZE > 1 && concurrency >= cfg.UV_THREADPOOL_SIZE) {
    problem(
      'QUERY_CONCURRENCY',
      `QUERY_CONCURRENCY (${concurrency}${cfg.QUERY_CONCURRENCY === undefined ? ', half of the pool' : ''}) must be below UV_THREADPOOL_SIZE (${cfg.UV_THREADPOOL_SIZE}), or token checks and file access wait behind queries`,
    );
  }
  if (cfg.QUERY_CONCURRENCY_PER_CLIENT !== undefined && cfg.QUERY_CONCURRENCY_PER_CLIENT > concurrency) {
    problem(
      'QUERY_CONCURRENCY_PER_CLIENT',
      `QUERY_CONCURRENCY_PER_CLIENT (${cfg.QUERY_CONCURRENCY_PER_CLIENT}) must not exceed QUERY_CONCURRENCY (${concurrency})`,
    );
  }
}

const schema = z.intersection(baseSchema.superRefine(crossChecks), telemetrySchema);
export type Config = z.infer<typeof schema>;

function configError(error: z.ZodError): Error {
  const problems = error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`);
  return new Error(`invalid configuration: ${problems.join('; ')}`);
}

const atLoad = schema.safeParse(process.env);

// In a function (Lambda, or serverless-offline's emulation, both name it in AWS_LAMBDA_FUNCTION_NAME)
// a bad environment ends the cold start here. Other processes that load this module (the admin
// CLI, tests, benchmarks) read only their own variables and learn of it only if they call config().
if (!atLoad.success && process.env.AWS_LAMBDA_FUNCTION_NAME) throw configError(atLoad.error);

/** The environment as parsed at load. @throws Error naming every bad variable. */
export function config(): Config {
  if (!atLoad.success) throw configError(atLoad.error);
  return atLoad.data;
}

let cachedDuckDb: z.infer<typeof duckDbSchema> | undefined;

/**
 * The embedded engine's variables alone: the DuckDB adapter also opens databases in processes
 * without the service's whole configuration (tests, benchmarks). Parsed once; throws naming the variable.
 */
export function duckDbConfig(): z.infer<typeof duckDbSchema> {
  if (cachedDuckDb) return cachedDuckDb;
  const parsed = duckDbSchema.safeParse(process.env);
  if (!parsed.success)
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  cachedDuckDb = parsed.data;
  return cachedDuckDb;
}

/** For tests: parse a given environment. @throws Error naming every bad variable, as config() does. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw configError(parsed.error);
  return parsed.data;
}

/**
 * The CLIs' view of the local stack: the same variables `npm start` reads. The data folder (its
 * dead letter is <dir>/dead-letter, its running stack describes itself in <dir>/stack.json) and the
 * four ports, undefined when not set (lib/cli/local-stack.ts then asks the running stack).
 */
const port = z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(65535).optional());
const adminSchema = z.object({
  INSIGHTS_DATA_DIR: z.preprocess(unsetIfEmpty, nonEmpty.default('.data')),
  INSIGHTS_HTTP_PORT: port,
  INSIGHTS_LAMBDA_PORT: port,
  INSIGHTS_DYNAMODB_PORT: port,
  INSIGHTS_MQTT_PORT: port,
});
export type AdminConfig = z.infer<typeof adminSchema>;

/** Parses the CLIs' variables (not cached: a CLI run reads them once). */
export function adminConfig(env: Record<string, string | undefined> = process.env): AdminConfig {
  const parsed = adminSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/**
 * The region variables of the AWS CLI, for the admin CLI on a deployed stage: AWS_REGION, then
 * AWS_DEFAULT_REGION (which the SDK alone does not read); the profile's region comes after them
 * from the SDK (lib/adapters/aws-admin/stage.ts).
 */
export function awsRegionVariables(env: Record<string, string | undefined> = process.env): {
  readonly AWS_REGION?: string;
  readonly AWS_DEFAULT_REGION?: string;
} {
  const pick = (name: 'AWS_REGION' | 'AWS_DEFAULT_REGION') => (env[name] ? { [name]: env[name] } : {});
  return { ...pick('AWS_REGION'), ...pick('AWS_DEFAULT_REGION') };
}
