// GDM hot path: validate an edge message and enrich it to cloud, for a message of 10 data items x 10
// value items, beside the floor JSON.parse + JSON.stringify of the same message, in the same run.
// Goal (issue 3): validation + enrichment within 3x of the floor's time per message.
import { opsPerSecond, type Benchmark, type BenchRow } from './harness';
import { edgeMessageSchema, toCloud, toEdge, validateMessage, type EdgeMessage } from '../lib/gdm';
import { createMessageGenerator } from '../lib/gdm/simulator';

const ITEMS = 10;
const VALUES = 10;
const cloudOptions = {
  now: () => new Date(),
  agentId: '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  ingestionId: 'bench-hub',
};

function sampleEdgeMessage(): EdgeMessage {
  let seed = 1;
  const random = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const generate = createMessageGenerator({
    devices: 1,
    items: ITEMS,
    values: VALUES,
    types: ['state'],
    plantId: 'plant-1',
    keepAliveIntervalMs: 60_000,
    random,
  });
  return toEdge(generate(new Date('2024-05-01T10:00:00.000Z')), { now: () => new Date('2024-05-01T10:00:00.250Z') });
}

function validateAndEnrich(message: unknown): unknown {
  const result = validateMessage(message, 'edge');
  if (!result.ok) throw new Error(`bench message is invalid: ${result.errors[0]?.message}`);
  return toCloud(result.message, cloudOptions);
}

const bench: Benchmark = {
  name: 'gdm',
  async run(ctx) {
    const minMs = ctx.quick ? 200 : 2000;
    const message = sampleEdgeMessage();
    const text = JSON.stringify(message);
    const label = `${ITEMS}x${VALUES} message (${text.length} bytes)`;

    ctx.progress('floor: JSON.parse + JSON.stringify');
    const floor = await opsPerSecond(() => JSON.stringify(JSON.parse(text)), minMs);
    ctx.progress('validateMessage(edge) + toCloud');
    const hot = await opsPerSecond(() => validateAndEnrich(message), minMs);
    ctx.progress('parse + validate + enrich + stringify');
    const pipeline = await opsPerSecond(() => JSON.stringify(validateAndEnrich(JSON.parse(text))), minMs);
    ctx.progress('same with the zod runtime parser (no z.compile), for the record');
    const runtime = await opsPerSecond(() => {
      const parsed = edgeMessageSchema.safeParse(message);
      if (!parsed.success) throw new Error('bench message is invalid');
      return toCloud(parsed.data, cloudOptions);
    }, minMs);

    const ratio = (ops: number): string => `${(floor / ops).toFixed(2)}x the floor's time per message`;
    const rows: BenchRow[] = [
      { case: `floor: JSON.parse+stringify, ${label}`, metric: 'messages/s', value: floor },
      {
        case: `validate(edge)+toCloud, ${label}`,
        metric: 'messages/s',
        value: hot,
        note: `${ratio(hot)} (goal <= 3x)`,
      },
      { case: `validate(edge)+toCloud, ${label}`, metric: 'data items/s', value: hot * ITEMS },
      {
        case: `parse+validate+toCloud+stringify, ${label}`,
        metric: 'messages/s',
        value: pipeline,
        note: ratio(pipeline),
      },
      {
        case: `zod runtime (no z.compile)+toCloud, ${label}`,
        metric: 'messages/s',
        value: runtime,
        note: ratio(runtime),
      },
    ];
    return rows;
  },
};

export default bench;
