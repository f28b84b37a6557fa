#!/usr/bin/env node
// `npm start`: checks what the local stack needs (Node, Java, free ports), starts it as one
// process group (`osls offline start`: DynamoDB Local, the MQTT broker, serverless-offline),
// waits until /health reports every component up, seeds the demo tenant once, prints one
// summary, and on Ctrl-C stops the stack in order (broker, HTTP, DynamoDB Local) so no java or
// node process is left behind. If this process is killed outright, the stack notices that its
// parent is gone and stops itself the same way.
import '../../lib/cli/node-runtime.mjs';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { playgroundStaleReason } from '../playground/fresh.mjs';
import { cachedBundles } from './bundle-cache.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const env = process.env;
const dataDir = path.resolve(root, env.INSIGHTS_DATA_DIR ?? '.data');
const ports = {
  http: Number(env.INSIGHTS_HTTP_PORT ?? 3000),
  lambda: Number(env.INSIGHTS_LAMBDA_PORT ?? 3002),
  dynamodb: Number(env.INSIGHTS_DYNAMODB_PORT ?? 8000),
  mqtt: Number(env.INSIGHTS_MQTT_PORT ?? 1883),
};
const portVariables = {
  http: 'INSIGHTS_HTTP_PORT',
  lambda: 'INSIGHTS_LAMBDA_PORT',
  dynamodb: 'INSIGHTS_DYNAMODB_PORT',
  mqtt: 'INSIGHTS_MQTT_PORT',
};

function fail(line) {
  console.error(`npm start: ${line}`);
  process.exit(1);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19))
    fail(
      `Node ${process.versions.node} is too old; install Node 20.19 or newer (22 LTS recommended) and run npm ci again.`,
    );
}

function checkJava() {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (run.error)
    fail(
      'Java was not found on PATH; DynamoDB Local needs Java 17 or newer: install it (Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17) and run npm start again.',
    );
  const text = `${run.stdout ?? ''}${run.stderr ?? ''}`; // java prints its version on stderr
  const match = /version "(\d+)(?:\.(\d+))?/.exec(text);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : 0;
  if (major < 17)
    fail(
      `Java ${match ? match[1] : '(unknown version)'} was found, but DynamoDB Local needs Java 17 or newer: install it and make it the first java on PATH.`,
    );
}

function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function checkPorts() {
  for (const [name, port] of Object.entries(ports)) {
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
      fail(`${portVariables[name]}=${port} is not a port number.`);
    if (!(await portFree(port))) {
      fail(
        `port ${port} (${name}) is already in use, probably by another npm start: stop that process, or choose another port with ${portVariables[name]}=<port> npm start.`,
      );
    }
  }
}

async function waitForHealth(child, timeoutMs) {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let last = 'no answer yet';
  let nextNote = started + 20_000;
  while (Date.now() < deadline) {
    if (Date.now() >= nextNote) {
      // A slow or busy machine bundles and starts for longer: say that it is still going.
      process.stderr.write(
        `npm start: still starting after ${Math.round((Date.now() - started) / 1000)} s (${last})\n`,
      );
      nextNote += 20_000;
    }
    if (child.exitCode !== null) return { ok: false, last: `the stack exited with code ${child.exitCode}` };
    try {
      const response = await fetch(`http://127.0.0.1:${ports.http}/health`);
      const body = await response.json();
      if (body.status === 'up') return { ok: true, body };
      last = Object.entries(body.components ?? {})
        .filter(([, c]) => c.status !== 'up')
        .map(([n, c]) => `${n}: ${c.detail ?? c.status}`)
        .join('; ');
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ok: false, last };
}

async function seed() {
  // The demo tenant (identity issue): seeded once; a seed module prints how to get credentials.
  const seedModule = path.join(root, 'infra/local/seed.ts');
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', seedModule], {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...env,
        INSIGHTS_DATA_DIR: dataDir,
        INSIGHTS_DYNAMODB_PORT: String(ports.dynamodb),
        INSIGHTS_HTTP_PORT: String(ports.http),
        INSIGHTS_MQTT_PORT: String(ports.mqtt),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.trim();
  } catch (error) {
    if (error.code === 'ENOENT' || /Cannot find module .*seed\.ts/.test(String(error.stderr))) return '';
    return `(demo seeding failed: ${String(error.stderr ?? error.message)
      .trim()
      .split('\n')
      .slice(-3)
      .join(' ')})`;
  }
}

/**
 * Starts the simulated gateway (infra/local/demo-gateway.ts): it publishes a day of demo values on
 * the first start of a data folder and, unless INSIGHTS_DEMO_GATEWAY=off, live values every 10 s.
 * Resolves with what it reported once the history was acknowledged by the broker.
 */
function startDemoGateway() {
  const gateway = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'infra/local/demo-gateway.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...env, INSIGHTS_DATA_DIR: dataDir, INSIGHTS_MQTT_PORT: String(ports.mqtt) },
  });
  demoGateway = gateway;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ failed: 'no answer within 120 s' }), 120_000);
    gateway.on('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    gateway.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ failed: `it exited with code ${code}` });
    });
  });
}

function describeDemoTelemetry(report) {
  if (report.failed) return [`  Demo telemetry    the simulated gateway failed: ${report.failed}`];
  const history =
    report.ready.backfilled > 0
      ? `a day of values published now (${report.ready.backfilled} messages)`
      : 'a day of values published on the first start';
  const live = report.ready.live
    ? 'a simulated gateway publishes live values every 10 s (INSIGHTS_DEMO_GATEWAY=off to stop it)'
    : 'no live values (INSIGHTS_DEMO_GATEWAY=off)';
  return [`  Demo telemetry    4 devices in demo-plant-1 and demo-plant-2: ${history};`, `                    ${live}`];
}

/**
 * The running stack describes itself in <data>/stack.json, so the CLIs (lib/cli/local-stack.ts)
 * reach it whatever ports it was given; the file is trusted only while this process lives.
 */
const stackFile = path.join(dataDir, 'stack.json');
function describeStack() {
  const temporary = `${stackFile}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ pid: process.pid, ports, startedAt: new Date().toISOString() })}\n`);
  renameSync(temporary, stackFile);
}

/** Commands printed for pasting: with the data folder when it is not the default one. */
function pasteable(text) {
  const prefix = dataDir === path.resolve(root, '.data') ? '' : `INSIGHTS_DATA_DIR=${dataDir} `;
  return text.replaceAll('npx insights-admin', `${prefix}npx insights-admin`);
}

function summary(health, seeded, demo) {
  const http = `http://127.0.0.1:${ports.http}`;
  const lines = [
    '',
    'Industrial insights, local stack ready',
    `  HTTP API          ${http}`,
    `    health          GET  ${http}/health  (${Object.keys(health.components).join(', ')}: up)`,
    `    maintenance     ${http}/maintenance/v1/plants/{plantId}/...`,
    `    telemetry query POST ${http}/insights/v1/telemetry/query/table`,
    `    token endpoint  POST ${http}/oauth2/token`,
    `  Playground        ${http}/insights/v1/telemetry/playground  (KQL in the browser; sign in with the demo client below)`,
    `  MQTT (IoT Core)   mqtt://127.0.0.1:${ports.mqtt}  publish edge GDM to gdm/<agentId>/messages, client id = agentId`,
    `  Data              ${dataDir}  (dynamodb/, telemetry.duckdb, lake/, dead-letter/, iot-journal/)`,
    '  Credentials       ' +
      (seeded ? '' : pasteable('npx insights-admin --help (customers, plants, agents, clients, tokens)')),
  ];
  if (seeded)
    lines.push(
      ...pasteable(seeded)
        .split('\n')
        .map((l) => `    ${l}`),
    );
  lines.push(...describeDemoTelemetry(demo));
  lines.push('  Stop              Ctrl-C (stops DynamoDB Local, the broker and the HTTP server)', '');
  return lines.join('\n');
}

/** Builds the playground page when its sources changed since the last build (never per request). */
function buildPlayground() {
  const stale = playgroundStaleReason(root);
  if (stale === undefined) return;
  console.log(`npm start: building the playground page (${stale})`);
  const build = spawnSync(process.execPath, [path.join(root, 'infra/playground/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0)
    console.error(
      'npm start: the playground build failed (its address answers 503); see above, then run npm run build:playground.',
    );
}

/**
 * The function bundles for the current sources: reused from <data>/bundles/ when nothing that goes
 * into them changed, built in one esbuild call otherwise (infra/local/bundle-cache.mjs). The stack
 * serves them (infra/local/prebuilt-plugin.mjs) instead of having serverless-esbuild bundle every
 * function at every start. Says which, and how long it took.
 */
async function functionBundles() {
  let bundles;
  try {
    bundles = await cachedBundles(path.join(dataDir, 'bundles'));
  } catch (error) {
    // esbuild has printed where a source does not compile.
    fail(`the function bundles did not build (${String(error.message).split('\n')[0]}); see above.`);
  }
  const relative = path.relative(root, bundles.dir);
  const where = relative.startsWith('..') ? bundles.dir : relative;
  console.log(
    bundles.reused
      ? `npm start: function bundles reused from ${where} (sources unchanged: ${bundles.files} files checked in ${Math.round(bundles.checkMs)} ms)`
      : `npm start: function bundles built in ${((bundles.checkMs + bundles.buildMs) / 1000).toFixed(1)} s into ${where} (first start, or sources changed)`,
  );
  return bundles.dir;
}

checkNode();
checkJava();
await checkPorts();
buildPlayground();
for (const sub of ['dynamodb', 'lake', 'dead-letter']) mkdirSync(path.join(dataDir, sub), { recursive: true });
const bundleDir = await functionBundles();

const child = spawn(process.execPath, [path.join(root, 'node_modules/osls/bin/serverless.js'), 'offline', 'start'], {
  cwd: root,
  detached: true,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...env,
    INSIGHTS_DATA_DIR: dataDir,
    INSIGHTS_HTTP_PORT: String(ports.http),
    INSIGHTS_LAMBDA_PORT: String(ports.lambda),
    INSIGHTS_DYNAMODB_PORT: String(ports.dynamodb),
    INSIGHTS_MQTT_PORT: String(ports.mqtt),
    INSIGHTS_PREBUILT_DIR: bundleDir,
    UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE ?? '16',
  }, // queries leave threads to token checks (docs/query-api.md)
});

let stopping = false;
let demoGateway;
const groupAlive = () => {
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
};
/**
 * Orderly stop: SIGINT to the stack process only (not its group), which stops the broker (the
 * batch in flight finishes, the rest stays journaled), then the HTTP and Lambda servers, then
 * DynamoDB Local (infra/local/iot/plugin.ts). Whatever is left of the group after that (or after
 * 45 s) is killed, so no java or node process stays behind.
 */
async function stop(code) {
  if (stopping) return;
  stopping = true;
  demoGateway?.kill('SIGTERM');
  rmSync(stackFile, { force: true });
  if (child.exitCode === null && child.signalCode === null) {
    process.stderr.write(
      '\nstopping the local stack (the broker finishes its batch in flight; the rest stays journaled)…\n',
    );
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(child.pid, 'SIGINT');
    } catch {
      /* already gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 45_000))]);
  }
  // DynamoDB Local got its SIGTERM from the stack: give it a moment to close its files.
  for (let waited = 0; waited < 5000 && groupAlive(); waited += 100) await new Promise((r) => setTimeout(r, 100));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* nothing left */
  }
  process.exit(code);
}
// A second Ctrl-C while stopping: stop at once (acknowledged messages are journaled on disk).
process.on('SIGINT', () => {
  if (!stopping) return stop(0);
  process.stderr.write('stopping at once\n');
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* nothing left */
  }
  process.exit(130);
});
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));
child.on('exit', (code) => {
  if (!stopping) {
    console.error(
      `npm start: the local stack stopped unexpectedly (exit code ${code}); see the lines above for the cause.`,
    );
    stop(1);
  }
});

const health = await waitForHealth(child, 180_000);
if (!health.ok) {
  console.error(`npm start: the local stack did not become healthy within 180 s (${health.last}).`);
  await stop(1);
} else {
  describeStack();
  const seeded = await seed();
  console.log(summary(health.body, seeded, await startDemoGateway()));
}
