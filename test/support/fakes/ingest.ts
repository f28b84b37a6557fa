// In-memory fakes of the ingest ports (lib/ingest/ports.ts) for fast unit tests of the ingest
// core's branches. Each keeps the port's contract (a dead-letter id written twice is one entry;
// the ledger answers new / retry / done) and can be told to fail, so the `failed` outcomes are
// reachable without stopping an engine. The real adapters run in test/integration/ingest-*.
import type {
  ClaimStatus,
  DataLake,
  DeadLetter,
  DeadLetterEntry,
  DeviceLiveness,
  IngestLedger,
  KeepAlive,
  LakeRecord,
  MessageKey,
  RejectedRow,
  TelemetryStore,
  TelemetryWrite,
} from '../../../lib/ingest/ports';

/** A switch shared by the fakes: when set, the next call (or every call) throws it. */
export interface Failure {
  /** Throws `error` on the next call only. */
  once(error: Error): void;
  /** Throws `error` on every call until `clear()`. */
  always(error: Error): void;
  clear(): void;
}

function failure(): Failure & { check(): void } {
  let pending: { error: Error; sticky: boolean } | undefined;
  return {
    once: (error) => void (pending = { error, sticky: false }),
    always: (error) => void (pending = { error, sticky: true }),
    clear: () => void (pending = undefined),
    check() {
      if (!pending) return;
      const { error, sticky } = pending;
      if (!sticky) pending = undefined;
      throw error;
    },
  };
}

export interface FakeDeadLetter extends DeadLetter {
  /** Entries by id, as stored (a second put of an id changes nothing, as the port promises). */
  readonly entries: ReadonlyMap<string, DeadLetterEntry>;
  readonly fail: Failure;
}

export function fakeDeadLetter(): FakeDeadLetter {
  const entries = new Map<string, DeadLetterEntry>();
  const fail = failure();
  return {
    entries,
    fail,
    async put(list) {
      fail.check();
      for (const entry of list) if (!entries.has(entry.id)) entries.set(entry.id, entry);
    },
  };
}

export interface FakeLake extends DataLake {
  readonly records: LakeRecord[];
  /** One entry per put: how many records it carried (the core makes one call per batch). */
  readonly calls: number[];
  readonly fail: Failure;
}

export function fakeLake(): FakeLake {
  const records: LakeRecord[] = [];
  const calls: number[] = [];
  const fail = failure();
  return {
    records,
    calls,
    fail,
    async put(list) {
      fail.check();
      calls.push(list.length);
      records.push(...list);
    },
  };
}

export interface FakeStore extends TelemetryStore {
  /** Every write, as received. */
  readonly writes: TelemetryWrite[];
  /** Rows the store would refuse for good; return them for a write (default: none). */
  rejectWith: (batch: TelemetryWrite) => readonly RejectedRow[];
  readonly fail: Failure;
}

export function fakeStore(): FakeStore {
  const writes: TelemetryWrite[] = [];
  const fail = failure();
  const store: FakeStore = {
    writes,
    fail,
    rejectWith: () => [],
    async write(batch) {
      fail.check();
      writes.push(batch);
      return { rejected: store.rejectWith(batch) };
    },
  };
  return store;
}

export interface FakeLedger extends IngestLedger {
  /** State per message (`agentId messageId`): claimed (not finished) or done. */
  readonly state: ReadonlyMap<string, 'claimed' | 'done'>;
  /** Marks a message claimed by an earlier run that never finished (a crash half-way). */
  leaveClaimed(key: MessageKey): void;
  readonly calls: Array<{ method: 'claim' | 'complete'; keys: number }>;
  readonly failClaim: Failure;
  readonly failComplete: Failure;
}

const ledgerKey = (key: MessageKey): string => `${key.agentId} ${key.messageId}`;

export function fakeLedger(): FakeLedger {
  const state = new Map<string, 'claimed' | 'done'>();
  const calls: FakeLedger['calls'] = [];
  const failClaim = failure();
  const failComplete = failure();
  return {
    state,
    calls,
    failClaim,
    failComplete,
    leaveClaimed: (key) => void state.set(ledgerKey(key), 'claimed'),
    async claim(keys): Promise<ClaimStatus[]> {
      failClaim.check();
      calls.push({ method: 'claim', keys: keys.length });
      return keys.map((key) => {
        const before = state.get(ledgerKey(key));
        if (before === 'done') return 'done';
        state.set(ledgerKey(key), 'claimed');
        return before === 'claimed' ? 'retry' : 'new';
      });
    },
    async complete(keys) {
      failComplete.check();
      calls.push({ method: 'complete', keys: keys.length });
      for (const key of keys) state.set(ledgerKey(key), 'done');
    },
  };
}

export interface FakeLiveness extends DeviceLiveness {
  readonly recorded: KeepAlive[];
  readonly fail: Failure;
}

export function fakeLiveness(): FakeLiveness {
  const recorded: KeepAlive[] = [];
  const fail = failure();
  return {
    recorded,
    fail,
    async record(keepAlive) {
      fail.check();
      recorded.push(keepAlive);
    },
  };
}
