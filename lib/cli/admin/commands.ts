// The admin CLI's commands. Each parses its options, calls one registry action and prints a
// human-readable answer or, with --json, one JSON document on stdout.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseCommandArgs, UsageError } from '../args';
import {
  createAgent,
  createCustomer,
  createLocalClient,
  createPlant,
  lookupKind,
  setLookupList,
} from '../../registry/admin';
import { createAgentWithThing, createCognitoClient, type ThingCredentials } from '../../registry/deployed';
import { LOOKUP_KINDS } from '../../registry/model';
import { describeSeed, seedDemo } from '../../registry/seed';
import { issueMaintenanceToken, parseLifetime } from '../../registry/tokens';
import { required, type AdminIo, type Command } from './command';
import { DEAD_LETTER_COMMANDS } from './dead-letter-commands';
import { IMPORT_COMMAND } from './import-command';
import { table } from './table';
import {
  COMMON_HELP,
  COMMON_OPTIONS,
  openTarget,
  type CommonValues,
  type StageAwsFactory,
  type Target,
} from './target';

/** Amazon's root CA for IoT Core's ATS endpoints (not shipped here: fetch it from Amazon Trust Services). */
export const AMAZON_ROOT_CA_URL = 'https://www.amazontrust.com/repository/AmazonRootCA1.pem';

/** Writes the thing's certificate and private key (0600) into `dir`; returns the file paths. */
async function writeThingFiles(
  dir: string,
  thing: ThingCredentials,
): Promise<{ certificate: string; privateKey: string }> {
  await mkdir(dir, { recursive: true });
  const certificate = path.join(dir, `${thing.thingName}.cert.pem`);
  const privateKey = path.join(dir, `${thing.thingName}.private.key`);
  await writeFile(certificate, thing.certificatePem);
  await writeFile(privateKey, thing.privateKey, { mode: 0o600 });
  await chmod(privateKey, 0o600);
  return { certificate, privateKey };
}

const now = () => new Date();

export const COMMANDS: Readonly<Record<string, Command>> = {
  'customers create': {
    usage: 'insights-admin customers create --customer ID [--name TEXT]',
    summary: 'create a customer (tenant)',
    options: { customer: { type: 'string' }, name: { type: 'string' } },
    run: (v, _p, t) =>
      createCustomer(t.registry, {
        customerId: required(v, 'customer'),
        ...(typeof v.name === 'string' ? { name: v.name } : {}),
        now: now(),
      }),
    text: (c: { customerId: string }) => `customer ${c.customerId} created\n`,
  },
  'customers list': {
    usage: 'insights-admin customers list',
    summary: 'list customers',
    options: {},
    run: (_v, _p, t) => t.registry.listCustomers(),
    text: (rows: Array<Record<string, unknown>>) => table(rows, ['customerId', 'name', 'createdAt']),
  },
  'plants create': {
    usage: 'insights-admin plants create --customer C --plant ID [--name TEXT]',
    summary: 'create a plant of a customer',
    options: { customer: { type: 'string' }, plant: { type: 'string' }, name: { type: 'string' } },
    run: (v, _p, t) =>
      createPlant(t.registry, {
        customerId: required(v, 'customer'),
        plantId: required(v, 'plant'),
        ...(typeof v.name === 'string' ? { name: v.name } : {}),
        now: now(),
      }),
    text: (p: { plantId: string; customerId: string }) => `plant ${p.plantId} of ${p.customerId} created\n`,
  },
  'plants list': {
    usage: 'insights-admin plants list --customer C',
    summary: 'list the plants of a customer',
    options: { customer: { type: 'string' } },
    run: (v, _p, t) => t.registry.listPlants(required(v, 'customer')),
    text: (rows: Array<Record<string, unknown>>) => table(rows, ['plantId', 'name', 'createdAt']),
  },
  'agents create': {
    usage: 'insights-admin agents create --customer C [--agent UUID] [--name TEXT] [--out DIR]',
    summary: 'register a gateway (agent); prints its agentId (deployed: also its IoT thing, certificate and key files)',
    options: {
      customer: { type: 'string' },
      agent: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
    },
    run: async (v, _p, t) => {
      const input = {
        customerId: required(v, 'customer'),
        ...(typeof v.agent === 'string' ? { agentId: v.agent } : {}),
        ...(typeof v.name === 'string' ? { name: v.name } : {}),
        now: now(),
      };
      if (!t.deployed) return createAgent(t.registry, input);
      const { agent, thing } = await createAgentWithThing(t.registry, t.deployed.things, input);
      const files = await writeThingFiles(typeof v.out === 'string' ? v.out : `agent-${agent.agentId}`, thing);
      return {
        ...agent,
        thingName: thing.thingName,
        thingArn: thing.thingArn,
        certificateId: thing.certificateId,
        policyName: t.deployed.info.agentPolicy,
        endpoint: thing.endpoint,
        files: { ...files, rootCa: AMAZON_ROOT_CA_URL },
      };
    },
    text: (a: {
      agentId: string;
      endpoint?: string;
      files?: { certificate: string; privateKey: string; rootCa: string };
      policyName?: string;
      certificateId?: string;
    }) =>
      a.files === undefined
        ? `agentId ${a.agentId}\n`
        : `agentId ${a.agentId}\nIoT thing ${a.agentId}, certificate ${a.certificateId} with policy ${a.policyName}\n` +
          `certificate  ${a.files.certificate}\nprivate key  ${a.files.privateKey} (keep it secret; it is not stored anywhere else)\n` +
          `root CA      download ${a.files.rootCa} (Amazon Root CA 1)\n` +
          `Publish: gdm publish --agent-id ${a.agentId} --endpoint ${a.endpoint} --cert ${a.files.certificate} --key ${a.files.privateKey} --ca AmazonRootCA1.pem FILE\n`,
  },
  'agents list': {
    usage: 'insights-admin agents list --customer C',
    summary: 'list the agents of a customer',
    options: { customer: { type: 'string' } },
    run: (v, _p, t) => t.registry.listAgents(required(v, 'customer')),
    text: (rows: Array<Record<string, unknown>>) => table(rows, ['agentId', 'name', 'createdAt']),
  },
  'clients create': {
    usage: 'insights-admin clients create --customer C [--plants p1,p2] [--name TEXT]',
    summary: 'create a query API client; prints client_id and client_secret once',
    options: { customer: { type: 'string' }, plants: { type: 'string' }, name: { type: 'string' } },
    run: async (v, _p, t) => {
      const plantIds =
        typeof v.plants === 'string'
          ? v.plants
              .split(',')
              .map((p) => p.trim())
              .filter((p) => p !== '')
          : undefined;
      const input = {
        customerId: required(v, 'customer'),
        ...(plantIds ? { plantIds } : {}),
        ...(typeof v.name === 'string' ? { name: v.name } : {}),
        now: now(),
      };
      const { client, clientSecret } = t.deployed
        ? await createCognitoClient(t.registry, t.deployed.identity, { ...input, resource: t.resource })
        : await createLocalClient(t.registry, input);
      return {
        client_id: client.clientId,
        client_secret: clientSecret,
        customerId: client.customerId,
        plantIds: client.plantIds,
        idp: client.idp,
        token_url: t.deployed?.info.tokenUrl ?? `${t.apiUrl}/oauth2/token`,
        scope: `${t.resource}/.default`,
      };
    },
    text: (c: {
      client_id: string;
      client_secret: string;
      plantIds: string[] | null;
      token_url: string;
      scope: string;
    }) =>
      `client_id     ${c.client_id}\nclient_secret ${c.client_secret}\nplants        ${c.plantIds?.join(',') ?? 'all of the customer'}\n` +
      `The secret is shown only now. Token: POST ${c.token_url} (scope ${c.scope})\n`,
  },
  'clients list': {
    usage: 'insights-admin clients list --customer C',
    summary: 'list the query API clients of a customer (never their secrets)',
    options: { customer: { type: 'string' } },
    run: async (v, _p, t) =>
      (await t.registry.listClients(required(v, 'customer'))).map(({ secretHash: _hash, ...rest }) => rest),
    text: (rows: Array<Record<string, unknown>>) => table(rows, ['clientId', 'name', 'plantIds', 'idp', 'createdAt']),
  },
  'tokens issue': {
    usage: 'insights-admin tokens issue --plant P [--expires 90d] [--label TEXT]',
    summary: 'issue a maintenance API token for a plant; prints a one-time link',
    options: { plant: { type: 'string' }, expires: { type: 'string' }, label: { type: 'string' } },
    run: async (v, _p, t) => {
      const issued = await issueMaintenanceToken(t.registry, {
        plantId: required(v, 'plant'),
        lifetimeMs: parseLifetime(typeof v.expires === 'string' ? v.expires : '90d'),
        ...(typeof v.label === 'string' ? { label: v.label } : {}),
        now: now(),
      });
      return {
        tokenId: issued.token.tokenId,
        plantId: issued.token.plantId,
        expiresAt: issued.token.expiresAt,
        link: `${t.apiUrl}/maintenance/v1/token-links/${issued.linkId}`,
        linkExpiresAt: issued.linkExpiresAt,
      };
    },
    text: (r: { tokenId: string; link: string; expiresAt: string; linkExpiresAt: string }) =>
      `token ${r.tokenId} (expires ${r.expiresAt})\none-time link: ${r.link}\nThe link works once, until ${r.linkExpiresAt}.\n`,
  },
  'tokens list': {
    usage: 'insights-admin tokens list --plant P',
    summary: 'list the maintenance tokens of a plant (ids and dates, never the tokens)',
    options: { plant: { type: 'string' } },
    run: async (v, _p, t) =>
      (await t.registry.listMaintenanceTokens(required(v, 'plant'))).map(({ tokenHash: _hash, ...rest }) => rest),
    text: (rows: Array<Record<string, unknown>>) =>
      table(rows, ['tokenId', 'label', 'createdAt', 'expiresAt', 'revokedAt']),
  },
  'tokens revoke': {
    usage: 'insights-admin tokens revoke --token TOKEN_ID',
    summary: 'revoke a maintenance token (its holder gets 403 from then on)',
    options: { token: { type: 'string' } },
    run: async (v, _p, t) => {
      const { tokenHash: _hash, ...rest } = await t.registry.revokeMaintenanceToken(
        required(v, 'token'),
        now().toISOString(),
      );
      return rest;
    },
    text: (r: { tokenId: string; revokedAt: string }) => `token ${r.tokenId} revoked at ${r.revokedAt}\n`,
  },
  'lookups set': {
    usage: `insights-admin lookups set --customer C --kind ${LOOKUP_KINDS.join('|')} --file F`,
    summary: 'replace a lookup list from a file (one value a line, or a JSON array of strings)',
    options: { customer: { type: 'string' }, kind: { type: 'string' }, file: { type: 'string' } },
    run: async (v, _p, t) => {
      const file = required(v, 'file');
      const text = await readFile(file, 'utf8').catch((e: Error) => {
        throw new UsageError(`cannot read ${file}: ${e.message}`);
      });
      const values = text.trimStart().startsWith('[')
        ? (JSON.parse(text) as unknown[]).map(String)
        : text.split(/\r?\n/).map((l) => l.trim());
      return setLookupList(t.registry, {
        customerId: required(v, 'customer'),
        kind: lookupKind(required(v, 'kind')),
        values,
        now: now(),
      });
    },
    text: (l: { kind: string; values: string[] }) => `${l.kind}: ${l.values.length} values set\n`,
  },
  'lookups list': {
    usage: 'insights-admin lookups list --customer C [--kind K]',
    summary: 'show the lookup lists of a customer',
    options: { customer: { type: 'string' }, kind: { type: 'string' } },
    run: async (v, _p, t) => {
      const lists = await t.registry.listLookupLists(required(v, 'customer'));
      return typeof v.kind === 'string' ? lists.filter((l) => l.kind === lookupKind(v.kind as string)) : lists;
    },
    text: (lists: Array<{ kind: string; values: string[] }>) =>
      lists.length === 0
        ? '(none)\n'
        : lists.map((l) => `${l.kind}:\n${l.values.map((x) => `  ${x}`).join('\n')}\n`).join(''),
  },
  import: IMPORT_COMMAND,
  'seed-demo': {
    usage: 'insights-admin seed-demo',
    summary: 'create the demo customer, plants, agent, client, token, lookups and parts (once)',
    options: {},
    run: (_v, _p, t) => seedDemo(t.registry, { now: now() }),
    text: (r: Parameters<typeof describeSeed>[0], t: Target) =>
      describeSeed(r, { apiUrl: t.apiUrl, resource: t.resource }),
  },
  ...DEAD_LETTER_COMMANDS,
};

/** Runs one command; import reports with errors and no write exit 1, as does a replay that stopped. */
export async function runCommand(
  name: string,
  command: Command,
  args: readonly string[],
  io: AdminIo,
  aws?: (region: string) => StageAwsFactory,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...COMMON_OPTIONS, ...command.options } as never);
  const v = values as Record<string, string | boolean | undefined>;
  if (v.help) {
    const own = Object.keys(command.options)
      .map((o) => `  --${o}`)
      .join('\n');
    io.stdout.write(
      `Usage: ${command.usage}\n\n${command.summary}.\n${own ? `\nOptions:\n${own}\n` : ''}\n${COMMON_HELP}`,
    );
    return 0;
  }
  if (!command.positionals && positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const target = await openTarget(v as CommonValues, aws);
  try {
    const result = await command.run(v, positionals, target, io);
    io.stdout.write(v.json ? `${JSON.stringify(result, null, 2)}\n` : command.text(result as never, target));
    return command.exitCode?.(result as never) ?? ((result as { wrote?: boolean }).wrote === false ? 1 : 0);
  } finally {
    target.close();
  }
}
