// Where the CLIs find the local stack: the same variables `npm start` reads (INSIGHTS_*_PORT,
// INSIGHTS_DATA_DIR), else the running stack's own description of itself (<data>/stack.json,
// written by `npm start` once it is healthy, removed when it stops), else the default ports. So a
// command pasted from `npm start`'s summary reaches that stack, whichever ports it was given.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { adminConfig, type AdminConfig } from '../core/config';

export type StackPort = 'http' | 'lambda' | 'dynamodb' | 'mqtt';

export const PORT_VARIABLES: Readonly<Record<StackPort, string>> = {
  http: 'INSIGHTS_HTTP_PORT',
  lambda: 'INSIGHTS_LAMBDA_PORT',
  dynamodb: 'INSIGHTS_DYNAMODB_PORT',
  mqtt: 'INSIGHTS_MQTT_PORT',
};
const DEFAULT_PORTS: Readonly<Record<StackPort, number>> = { http: 3000, lambda: 3002, dynamodb: 8000, mqtt: 1883 };
const WHAT: Readonly<Record<StackPort, string>> = {
  http: 'the HTTP API',
  lambda: 'the Lambda endpoint',
  dynamodb: 'DynamoDB Local',
  mqtt: 'the MQTT broker',
};

export interface LocalStack {
  readonly dataDir: string;
  readonly ports: Readonly<Record<StackPort, number>>;
  /** Where each port came from, for messages: a variable, the stack file, or the default. */
  readonly origin: Readonly<Record<StackPort, string>>;
}

interface StackFile {
  readonly pid?: unknown;
  readonly ports?: Partial<Record<StackPort, unknown>>;
}

function runningStack(file: string): StackFile | undefined {
  try {
    const described = JSON.parse(readFileSync(file, 'utf8')) as StackFile;
    // A stack killed outright leaves its file behind: trust it only while its process lives.
    if (typeof described.pid !== 'number') return undefined;
    process.kill(described.pid, 0);
    return described;
  } catch {
    return undefined;
  }
}

/** Resolves the local stack's folder and ports (env wins, then <data>/stack.json, then defaults). */
export function localStack(config: AdminConfig = adminConfig()): LocalStack {
  const dataDir = path.resolve(config.INSIGHTS_DATA_DIR);
  const stackFile = path.join(dataDir, 'stack.json');
  const described = runningStack(stackFile);
  const set: Record<StackPort, number | undefined> = {
    http: config.INSIGHTS_HTTP_PORT,
    lambda: config.INSIGHTS_LAMBDA_PORT,
    dynamodb: config.INSIGHTS_DYNAMODB_PORT,
    mqtt: config.INSIGHTS_MQTT_PORT,
  };
  const ports = {} as Record<StackPort, number>;
  const origin = {} as Record<StackPort, string>;
  for (const key of Object.keys(DEFAULT_PORTS) as StackPort[]) {
    const fromFile = described?.ports?.[key];
    if (set[key] !== undefined) {
      ports[key] = set[key];
      origin[key] = PORT_VARIABLES[key];
    } else if (typeof fromFile === 'number' && Number.isInteger(fromFile)) {
      ports[key] = fromFile;
      origin[key] = stackFile;
    } else {
      ports[key] = DEFAULT_PORTS[key];
      origin[key] = 'the default';
    }
  }
  return { dataDir, ports, origin };
}

const REFUSED = /\b(?:ECONNREFUSED|EHOSTUNREACH)\s+([\w.:[\]-]+):(\d+)/;

function errorText(error: unknown, depth = 0): string {
  if (!(error instanceof Error) || depth > 3) return String(error);
  const nested = (error as Error & { cause?: unknown; errors?: unknown[] }).errors ?? [];
  return [
    error.message,
    errorText((error as Error & { cause?: unknown }).cause, depth + 1),
    ...nested.map((e) => errorText(e, depth + 1)),
  ].join(' ');
}

/**
 * A one-line explanation when `error` is a refused connection (the SDK's, fetch's or mqtt's,
 * possibly wrapped): which address was tried, which part of the local stack it stands for and
 * where its port came from, and what to do; undefined for any other error.
 */
export function explainUnreachable(error: unknown, stack: LocalStack): string | undefined {
  const match = REFUSED.exec(errorText(error));
  if (!match) return undefined;
  const address = `${match[1]}:${match[2]}`;
  const which = (Object.keys(stack.ports) as StackPort[]).find((key) => stack.ports[key] === Number(match[2]));
  if (which === undefined) return `nothing answers on ${address}: check the address you gave.`;
  return (
    `nothing answers on ${address} (${WHAT[which]} of the local stack; port ${stack.ports[which]} from ${stack.origin[which]}). ` +
    `Start the stack with npm start; if it runs with other ports or another data folder, give this command the same ${PORT_VARIABLES[which]} (or INSIGHTS_DATA_DIR) as npm start.`
  );
}
