// End to end on the offline stack (issue 5): publish edge messages through the local broker at
// 200 messages/s for 60 s (10 s with --quick); p50 / p99 from publish to PUBACK (the broker
// acknowledges on receipt, as IoT Core does, unless 16 messages are in flight) and from publish
// to the first query that returns the message; then a count, after the backlog drained, proving
// none was lost.
import { performance } from 'node:perf_hooks';
import mqtt from 'mqtt';
import { toEdge } from '../lib/gdm';
import { createMessageGenerator } from '../lib/gdm/simulator';
import { startOfflineStack } from '../test/support/offline-stack';
import { demoAccess, query, windowAroundNow } from '../test/support/stack-client';
import { percentile, type Benchmark } from './harness';

const RATE = 200;

const bench: Benchmark = {
  name: 'ingest-e2e',
  async run(ctx) {
    const seconds = ctx.quick ? 10 : 60;
    ctx.progress('starting the offline stack');
    const stack = await startOfflineStack();
    try {
      const { demo, accessToken } = await demoAccess(stack);
      const generate = createMessageGenerator({ devices: 20, items: 2, values: 1, types: ['state'], plantId: 'demo-plant-1', keepAliveIntervalMs: 60_000 });
      const client = await mqtt.connectAsync(stack.mqttUrl, { clientId: demo.agentId });
      const publishedAt = new Map<string, number>();
      const ackMs: number[] = [];
      const seenMs: number[] = [];
      const pending: Promise<unknown>[] = [];
      let polling = true;
      const window = windowAroundNow();
      const total = RATE * seconds;
      const start = performance.now();
      const deadline = start + seconds * 1000;

      // Poll the query API for message ids as they become queryable; each id counts once. Each poll
      // asks only for rows ingested since shortly before the previous poll, so answers stay small.
      const seen = new Set<string>();
      let pollErrors = 0;
      const poller = (async () => {
        let since = new Date(Date.now() - 60_000);
        // After publishing ends, keep polling until every message is queryable (or 5 minutes pass).
        while (polling || (seen.size < publishedAt.size && performance.now() < deadline + 300_000)) {
          const pollStarted = new Date();
          try {
            const answer = await query(stack, accessToken, `States | where IngestionTimestamp >= datetime(${since.toISOString()}) | distinct MessageId`, window);
            const now = performance.now();
            for (const [id] of answer.body.data?.rows ?? []) {
              const sent = publishedAt.get(String(id));
              if (sent !== undefined && !seen.has(String(id))) {
                seen.add(String(id));
                seenMs.push(now - sent);
              }
            }
            since = new Date(pollStarted.getTime() - 5_000);
          } catch (error) {
            pollErrors++;
            ctx.progress(`poll failed (${(error as Error).message}); polling again`);
          }
          await new Promise((r) => setTimeout(r, 1000));
        }
      })();

      ctx.progress(`publishing ${RATE} messages/s for ${seconds} s`);
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const message = toEdge(generate(new Date()), { now: () => new Date() });
        const sent = performance.now();
        publishedAt.set(message.messageId, sent);
        pending.push(client.publishAsync(`gdm/${demo.agentId}/messages`, JSON.stringify(message), { qos: 1 }).then(() => ackMs.push(performance.now() - sent)));
        if (i % (RATE * 5) === 0 && i > 0) ctx.progress(`${i} published, ${ackMs.length} acknowledged, ${seenMs.length} queryable`);
      }
      await Promise.all(pending);
      const achieved = total / ((performance.now() - start) / 1000);
      polling = false;
      await poller;
      await client.endAsync();
      const drained = (performance.now() - start) / 1000;
      const stored = await query(stack, accessToken, 'States | summarize dcount(MessageId)', window);
      const distinct = Number(stored.body.data?.rows[0]?.[0] ?? 0);
      return [
        { case: `publish ${total} messages at ${RATE}/s`, metric: 'messages/s achieved', value: achieved },
        { case: 'publish -> PUBACK', metric: 'p50 ms', value: percentile(ackMs, 50) },
        { case: 'publish -> PUBACK', metric: 'p99 ms', value: percentile(ackMs, 99) },
        { case: 'publish -> first query that returns it', metric: 'p50 ms', value: percentile(seenMs, 50), note: 'polling every ~1 s' },
        { case: 'publish -> first query that returns it', metric: 'p99 ms', value: percentile(seenMs, 99) },
        { case: 'messages stored (distinct MessageId in States)', metric: 'count', value: distinct, note: distinct === total ? 'none lost' : `${total - distinct} LOST` },
        { case: 'all stored and queryable', metric: 'messages/s sustained', value: distinct / drained, note: `last one queryable after ${drained.toFixed(0)} s; ${pollErrors} failed polls` },
      ];
    } finally {
      await stack.stop();
    }
  },
};

export default bench;
