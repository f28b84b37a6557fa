#!/usr/bin/env node
// `npm start`: checks what the local stack needs (Node, Java, free ports), starts it as one
// process group (`osls offline start`: DynamoDB Local, the MQTT broker, serverless-offline),
// waits until /health reports every component up, seeds the demo tenant once, prints one
// summary, and on Ctrl-C stops the stack in order (broker, HTTP, DynamoDB Local) so no java or
// node process is left behind. If this process is killed outright, the stack notices that its
// parent is gone and stops itself the same way.
import '../../lib/cli/node-runtime.mjs';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const env = process.env;
const dataDir = path.resolve(root, env.INSIGHTS_DATA_DIR ?? '.data');
const ports = {
  http: Number(env.INSIGHTS_HTTP_PORT ?? 3000),
  lambda: Number(env.INSIGHTS_LAMBDA_PORT ?? 3002),
  dynamodb: Number(env.INSIGHTS_DYNAMODB_PORT ?? 8000),
  mqtt: Number(env.INSIGHTS_MQTT_PORT ?? 1883),
};
const portVariables = { http: 'INSIGHTS_HTTP_PORT', lambda: 'INSIGHTS_LAMBDA_PORT', dynamodb: 'INSIGHTS_DYNAMODB_PORT', mqtt: 'INSIGHTS_MQTT_PORT' };

function fail(line) {
  console.error(`npm start: ${line}`);
  process.exit(1);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) fail(`Node ${process.versions.node} is too old; install Node 20.19 or newer (22 LTS recommended) and run npm ci again.`);
}

function checkJava() {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (run.error) fail('Java was not found on PATH; DynamoDB Local needs Java 17 or newer: install it (Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17) and run npm start again.');
  const text = `${run.stdout ?? ''}${run.stderr ?? ''}`; // java prints its version on stderr
  const match = /version "(\d+)(?:\.(\d+))?/.exec(text);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : 0;
  if (major < 17) fail(`Java ${match ? match[1] : '(unknown version)'} was found, but DynamoDB Local needs Java 17 or newer: install it and make it the first java on PATH.`);
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
    if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`${portVariables[name]}=${port} is not a port number.`);
    if (!(await portFree(port))) {
      fail(`port ${port} (${name}) is already in use, probably by another npm start: stop that process, or choose another port with ${portVariables[name]}=<port> npm start.`);
    }
  }
}

async function waitForHealth(child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { ok: false, last: `the stack exited with code ${child.exitCode}` };
    try {
      const response = await fetch(`http://127.0.0.1:${ports.http}/health`);
      const body = await response.json();
      if (body.status === 'up') return { ok: true, body };
      last = Object.entries(body.components ?? {}).filter(([, c]) => c.status !== 'up').map(([n, c]) => `${n}: ${c.detail ?? c.status}`).join('; ');
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
      env: { ...env, INSIGHTS_DATA_DIR: dataDir, INSIGHTS_DYNAMODB_PORT: String(ports.dynamodb), INSIGHTS_HTTP_PORT: String(ports.http), INSIGHTS_MQTT_PORT: String(ports.mqtt) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.trim();
  } catch (error) {
    if (error.code === 'ENOENT' || /Cannot find module .*seed\.ts/.test(String(error.stderr))) return '';
    return `(demo seeding failed: ${String(error.stderr ?? error.message).trim().split('\n').slice(-3).join(' ')})`;
  }
}

function summary(health, seeded) {
  const http = `http://127.0.0.1:${ports.http}`;
  const lines = [
    '',
    'Industrial insights, local stack ready',
    `  HTTP API          ${http}`,
    `    health          GET  ${http}/health  (${Object.keys(health.components).join(', ')}: up)`,
    `    maintenance     ${http}/maintenance/v1/plants/{plantId}/...`,
    `    telemetry query POST ${http}/insights/v1/telemetry/query/table`,
    `    token endpoint  POST ${http}/oauth2/token`,
    `  MQTT (IoT Core)   mqtt://127.0.0.1:${ports.mqtt}  publish edge GDM to gdm/<agentId>/messages, client id = agentId`,
    `  Data              ${dataDir}  (dynamodb/, telemetry.duckdb, lake/, dead-letter/, iot-journal/)`,
    '  Credentials       ' + (seeded ? '' : 'npx insights-admin --help (customers, plants, agents, clients, tokens)'),
  ];
  if (seeded) lines.push(...seeded.split('\n').map((l) => `    ${l}`));
  lines.push('  Stop              Ctrl-C (stops DynamoDB Local, the broker and the HTTP server)', '');
  return lines.join('\n');
}

checkNode();
checkJava();
await checkPorts();
for (const sub of ['dynamodb', 'lake', 'dead-letter']) mkdirSync(path.join(dataDir, sub), { recursive: true });

const child = spawn(process.execPath, [path.join(root, 'node_modules/osls/bin/serverless.js'), 'offline', 'start'], {
  cwd: root,
  detached: true,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...env, INSIGHTS_DATA_DIR: dataDir, INSIGHTS_HTTP_PORT: String(ports.http), INSIGHTS_LAMBDA_PORT: String(ports.lambda), INSIGHTS_DYNAMODB_PORT: String(ports.dynamodb), INSIGHTS_MQTT_PORT: String(ports.mqtt), UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE ?? '16' }, // queries leave threads to token checks (docs/query-api.md)
});

let stopping = false;
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
  if (child.exitCode === null && child.signalCode === null) {
    process.stderr.write('\nstopping the local stack (the broker finishes its batch in flight; the rest stays journaled)…\n');
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
    console.error(`npm start: the local stack stopped unexpectedly (exit code ${code}); see the lines above for the cause.`);
    stop(1);
  }
});

const health = await waitForHealth(child, 90_000);
if (!health.ok) {
  console.error(`npm start: the local stack did not become healthy within 90 s (${health.last}).`);
  await stop(1);
} else {
  console.log(summary(health.body, await seed()));
}
