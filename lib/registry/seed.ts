// The demo tenant of `npm start`: made once, then only reported. Secrets exist only in the first
// run's answer (they are stored hashed); later runs say how to make new ones with the admin CLI.
import type { Part } from './model';
import type { Registry } from './ports';
import { createAgent, createCustomer, createLocalClient, createPlant, setLookupList } from './admin';
import { issueMaintenanceToken } from './tokens';

export const DEMO = {
  customerId: 'demo',
  plantIds: ['demo-plant-1', 'demo-plant-2'],
  agentId: '5f0c6c1e-3b7a-4d2e-9a41-0d2f6a8b9c01',
  /** The simulated gateway of `npm start` (its own agent, so it never takes over the MQTT session of a user publishing as the demo agent). */
  simulatorAgentId: '5f0c6c1e-3b7a-4d2e-9a41-0d2f6a8b9c02',
} as const;

const LOOKUPS = {
  activityKind: ['Inspection', 'Preventive maintenance', 'Corrective maintenance', 'Calibration'],
  assignedToRole: ['Mechanic', 'Electrician', 'Operator', 'Maintenance planner'],
  priority: ['Low', 'Medium', 'High', 'Urgent'],
  department: ['Production', 'Maintenance', 'Utilities'],
} as const;

const PARTS: readonly Omit<Part, 'customerId'>[] = [
  { plantId: null, partNumber: 'BRG-6204-2RS', description: 'Deep groove ball bearing 6204-2RS', unit: 'PIECE' },
  { plantId: null, partNumber: 'OIL-ISO-VG46', description: 'Hydraulic oil ISO VG 46', unit: 'LITER' },
  { plantId: 'demo-plant-1', partNumber: 'BELT-SPA-1250', description: 'V-belt SPA 1250', unit: 'PIECE' },
  {
    plantId: 'demo-plant-2',
    partNumber: 'FLT-HYD-10U',
    description: 'Hydraulic filter element 10 micron',
    unit: 'PIECE',
  },
];

export interface SeedResult {
  /** False when an earlier run already seeded: no secrets in this answer. */
  readonly created: boolean;
  readonly customerId: string;
  readonly plantIds: readonly string[];
  readonly agentId: string;
  readonly clientId: string;
  /** Only when created. */
  readonly clientSecret?: string;
  /** Only when created: GET /maintenance/v1/token-links/{linkId} returns the token once. */
  readonly tokenLinkId?: string;
  readonly tokenPlantId: string;
}

const MARKER = 'demo';

/** Seeds the demo tenant once. Safe to call on every start and from two processes at once. */
export async function seedDemo(registry: Registry, options: { now: Date }): Promise<SeedResult> {
  const existing = await registry.getSeedMarker(MARKER);
  if (existing) return reported(existing.details);
  const now = options.now;
  const customer =
    (await registry.getCustomer(DEMO.customerId)) ??
    (await createCustomer(registry, { customerId: DEMO.customerId, name: 'Demo Manufacturing Ltd', now }));
  for (const [index, plantId] of DEMO.plantIds.entries()) {
    if (!(await registry.getPlant(plantId)))
      await createPlant(registry, { customerId: customer.customerId, plantId, name: `Demo plant ${index + 1}`, now });
  }
  if (!(await registry.getAgent(DEMO.agentId)))
    await createAgent(registry, { customerId: customer.customerId, agentId: DEMO.agentId, name: 'Demo gateway', now });
  for (const [kind, values] of Object.entries(LOOKUPS))
    await setLookupList(registry, { customerId: customer.customerId, kind, values, now });
  await registry.putParts(PARTS.map((p) => ({ ...p, customerId: customer.customerId })));
  const { client, clientSecret } = await createLocalClient(registry, {
    customerId: customer.customerId,
    name: 'Demo query client',
    now,
  });
  const issued = await issueMaintenanceToken(registry, { plantId: DEMO.plantIds[0], label: 'demo', now });
  const details = { clientId: client.clientId, tokenId: issued.token.tokenId, tokenPlantId: issued.token.plantId };
  // A concurrent run may have won the race; report its ids (our extra client and token stay unused).
  if (!(await registry.putSeedMarker({ name: MARKER, createdAt: now.toISOString(), details }))) {
    const winner = await registry.getSeedMarker(MARKER);
    return reported(winner?.details ?? details);
  }
  return { ...reported(details), created: true, clientSecret, tokenLinkId: issued.linkId };
}

/** Registers the simulated gateway's agent in the demo tenant unless it exists (every start: stacks seeded before it existed get it too). */
export async function ensureSimulatorAgent(registry: Registry, options: { now: Date }): Promise<string> {
  if (!(await registry.getAgent(DEMO.simulatorAgentId))) {
    await createAgent(registry, {
      customerId: DEMO.customerId,
      agentId: DEMO.simulatorAgentId,
      name: 'Simulated gateway (npm start)',
      now: options.now,
    });
  }
  return DEMO.simulatorAgentId;
}

function reported(details: Readonly<Record<string, string>>): SeedResult {
  return {
    created: false,
    customerId: DEMO.customerId,
    plantIds: DEMO.plantIds,
    agentId: DEMO.agentId,
    clientId: details.clientId ?? '',
    tokenPlantId: details.tokenPlantId ?? DEMO.plantIds[0],
  };
}

/** What `npm start` and `insights-admin seed-demo` print. */
export function describeSeed(result: SeedResult, options: { apiUrl: string; resource: string }): string {
  const { apiUrl, resource } = options;
  const lines = [
    result.created ? 'Demo tenant created:' : 'Demo tenant (already seeded earlier):',
    `  customer   ${result.customerId}, plants ${result.plantIds.join(', ')}`,
    `  agent      ${result.agentId}`,
    `  query client_id ${result.clientId}`,
  ];
  if (result.clientSecret && result.tokenLinkId) {
    lines.push(
      `  query client_secret ${result.clientSecret}   (shown once; stored only as a hash)`,
      '  Get a query API token:',
      `    curl -s -X POST ${apiUrl}/oauth2/token -d grant_type=client_credentials -d client_id=${result.clientId} \\`,
      `      -d client_secret=${result.clientSecret} -d scope=${resource}/.default`,
      `  Maintenance API token for ${result.tokenPlantId} (one-time link):`,
      `    curl -s ${apiUrl}/maintenance/v1/token-links/${result.tokenLinkId}`,
    );
  } else {
    lines.push(
      '  The demo secret and token link were shown when the demo was created. New ones:',
      `    npx insights-admin clients create --customer ${result.customerId}`,
      `    npx insights-admin tokens issue --plant ${result.tokenPlantId}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
