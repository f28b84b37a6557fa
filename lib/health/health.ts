// Health report: each component probed concurrently with a time limit; up only when all are up.

export type Probe = () => Promise<void>;

export interface ComponentHealth {
  readonly status: 'up' | 'down';
  readonly latencyMs: number;
  readonly detail?: string;
}

export interface HealthReport {
  readonly status: 'up' | 'down';
  readonly components: Readonly<Record<string, ComponentHealth>>;
}

async function probeOne(probe: Probe, timeoutMs: number): Promise<ComponentHealth> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latencyMs: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(probes: Readonly<Record<string, Probe>>, timeoutMs = 3000): Promise<HealthReport> {
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((name) => probeOne(probes[name] as Probe, timeoutMs)));
  const components = Object.fromEntries(names.map((name, i) => [name, results[i] as ComponentHealth]));
  return { status: results.every((r) => r.status === 'up') ? 'up' : 'down', components };
}

/** The HTTP answer of GET /health: 200 when every component is up, 503 otherwise, never cached. */
export function healthResponse(report: HealthReport): {
  status: number;
  body: HealthReport;
  headers: Record<string, string>;
} {
  return { status: report.status === 'up' ? 200 : 503, body: report, headers: { 'cache-control': 'no-store' } };
}
