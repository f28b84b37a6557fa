// Operator actions on the registry (the admin CLI and the demo seed call these): input checks,
// ids and secrets, then one port call. Throws AppError INVALID_INPUT, CONFLICT or NOT_FOUND.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError } from '../core/errors';
import { parseInput } from '../core/input';
import {
  agentIdSchema,
  customerIdSchema,
  LOOKUP_KINDS,
  plantIdSchema,
  type Agent,
  type Customer,
  type LookupKind,
  type LookupList,
  type Plant,
  type QueryClient,
} from './model';
import type { Registry } from './ports';
import { hashClientSecret, newClientId, newClientSecret } from './secrets';

/** An operator's argument named `field`. @throws AppError INVALID_INPUT naming it (lib/core/input.ts). */
export function checked<T>(schema: z.ZodType<T>, field: string, value: unknown): T {
  return parseInput(schema, value, field);
}

async function requireCustomer(registry: Registry, customerId: string): Promise<Customer> {
  const customer = await registry.getCustomer(checked(customerIdSchema, 'customer', customerId));
  if (!customer)
    throw new AppError('NOT_FOUND', `customer "${customerId}" does not exist`, {
      field: 'customer',
      value: customerId,
    });
  return customer;
}

export async function createCustomer(
  registry: Registry,
  input: { customerId: string; name?: string; now: Date },
): Promise<Customer> {
  const customer: Customer = {
    customerId: checked(customerIdSchema, 'customer', input.customerId),
    name: input.name ?? input.customerId,
    createdAt: input.now.toISOString(),
  };
  await registry.createCustomer(customer);
  return customer;
}

export async function createPlant(
  registry: Registry,
  input: { customerId: string; plantId: string; name?: string; now: Date },
): Promise<Plant> {
  const plant: Plant = {
    plantId: checked(plantIdSchema, 'plant', input.plantId),
    customerId: checked(customerIdSchema, 'customer', input.customerId),
    name: input.name ?? input.plantId,
    createdAt: input.now.toISOString(),
  };
  await registry.createPlant(plant);
  return plant;
}

export async function createAgent(
  registry: Registry,
  input: { customerId: string; agentId?: string; name?: string; now: Date },
): Promise<Agent> {
  const agentId = checked(agentIdSchema, 'agent', input.agentId ?? randomUUID());
  const agent: Agent = {
    agentId,
    customerId: checked(customerIdSchema, 'customer', input.customerId),
    name: input.name ?? agentId,
    createdAt: input.now.toISOString(),
  };
  await registry.createAgent(agent);
  return agent;
}

/** A local client: the secret is returned once and stored only as a slow hash. */
export async function createLocalClient(
  registry: Registry,
  input: { customerId: string; plantIds?: readonly string[]; name?: string; now: Date },
): Promise<{ client: QueryClient; clientSecret: string }> {
  const customer = await requireCustomer(registry, input.customerId);
  const plantIds =
    input.plantIds === undefined || input.plantIds.length === 0
      ? null
      : [...new Set(input.plantIds.map((p) => checked(plantIdSchema, 'plants', p)))];
  if (plantIds) {
    const plants = await registry.listPlants(customer.customerId);
    const unknown = plantIds.filter((p) => !plants.some((plant) => plant.plantId === p));
    if (unknown.length > 0)
      throw new AppError(
        'INVALID_INPUT',
        `plants ${unknown.join(', ')} do not belong to customer "${customer.customerId}"`,
        { field: 'plants', value: unknown.join(',') },
      );
  }
  const clientSecret = newClientSecret();
  const client: QueryClient = {
    clientId: newClientId(),
    customerId: customer.customerId,
    name: input.name ?? `client of ${customer.customerId}`,
    plantIds,
    secretHash: await hashClientSecret(clientSecret),
    idp: 'local',
    createdAt: input.now.toISOString(),
  };
  await registry.createClient(client);
  return { client, clientSecret };
}

export function lookupKind(raw: string): LookupKind {
  if (!(LOOKUP_KINDS as readonly string[]).includes(raw))
    throw new AppError('INVALID_INPUT', `kind must be one of ${LOOKUP_KINDS.join(', ')}; got "${raw}"`, {
      field: 'kind',
      value: raw,
    });
  return raw as LookupKind;
}

/** Replaces a lookup list. Values are kept exactly (the API compares them exactly), without duplicates. */
export async function setLookupList(
  registry: Registry,
  input: { customerId: string; kind: string; values: readonly string[]; now: Date },
): Promise<LookupList> {
  const customer = await requireCustomer(registry, input.customerId);
  const values = [...new Set(input.values.filter((v) => v.trim() !== ''))];
  if (values.length === 0)
    throw new AppError('INVALID_INPUT', 'a lookup list needs at least one value', { field: 'values' });
  const list: LookupList = {
    customerId: customer.customerId,
    kind: lookupKind(input.kind),
    values,
    updatedAt: input.now.toISOString(),
  };
  await registry.setLookupList(list);
  return list;
}
