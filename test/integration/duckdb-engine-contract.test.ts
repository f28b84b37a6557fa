// The embedded DuckDB query engine against the engines' one error contract
// (test/unit/query-api/engine-contract.ts), for real: each failure is provoked on a sandboxed
// DuckDB file and must become the contract's code and HTTP status, as Timestream's do.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { closeTelemetryDatabase, withConnection } from '../../lib/adapters/duckdb/database';
import { engineError } from '../../lib/adapters/duckdb/engine-errors';
import { duckDbQueryEngine } from '../../lib/adapters/duckdb/query-engine';
import { AppError } from '../../lib/core/errors';
import { TableAnswer } from '../../lib/query-api/answer';
import {
  ENGINE_CONTRACT,
  expectContract,
  type ContractKind,
  type Provocation,
} from '../unit/query-api/engine-contract';

/** A query that runs for minutes on one thread unless stopped. */
const SLOW = 'SELECT count(*) FROM range(100000000) a, range(1000) b WHERE a.range * b.range = -1';

let dir: string;
let file: string;
const answer = () =>
  new TableAnswer([{ name: 'c', columnType: 'string', dataType: 'String' }], {
    rowLimit: 100,
    maxResponseBytes: 1_000_000,
  });
const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );
const running =
  (sql: string, signal = new AbortController().signal, on = () => file) =>
  () =>
    rejectionOf(duckDbQueryEngine(on()).run(sql, ['string'], answer(), { signal }));

const DUCKDB: Record<ContractKind, Provocation<() => Promise<unknown>>> = {
  refused: {
    cases: [
      ['a binder error', running('SELECT nope FROM range(1)')],
      ['a parser error', running('SELEC 1')],
      ['a catalog error', running('SELECT * FROM no_such_table')],
      ['nesting past max_expression_depth', running(`SELECT ${Array.from({ length: 3000 }, () => '1').join(' + ')}`)],
      ['a range step of 0', running('SELECT * FROM range(1, 10, 0)')],
      ['a file read the sandbox forbids', running("SELECT * FROM read_csv('/etc/passwd')")],
      ['a locked setting', running("SET memory_limit = '10GB'")],
    ],
  },
  data: {
    cases: [
      ['an overflow', running('SELECT 9223372036854775807::BIGINT + 1')],
      ['a conversion', running("SELECT 'abc'::INTEGER")],
      ['a value out of range', running('SELECT make_timestamp(999999, 1, 1, 0, 0, 0)')],
      ['invalid input', running("SELECT error('boom')")],
    ],
  },
  memory: {
    cases: [['more than memory_limit', running("SELECT string_agg(repeat('x', 1000), ',') FROM range(1000000) t(i)")]],
  },
  resultTooLarge: {
    notApplicable:
      'DuckDB returns rows of any size: the answer (answer.ts, RowSink.oversized) refuses one too large for the response',
  },
  timeout: {
    cases: [
      [
        "the service's time limit (the signal's reason)",
        async () => {
          const controller = new AbortController();
          setTimeout(() => controller.abort(new AppError('QUERY_TIMEOUT', 'too slow')), 50);
          return running(SLOW, controller.signal)();
        },
      ],
    ],
  },
  throttled: {
    notApplicable: "an embedded engine throttles nobody: the service's admission answers 429 before a query reaches it",
  },
  unavailable: {
    cases: [
      [
        'an interrupt the service did not ask for',
        async () => {
          const interrupted = await withConnection(file, async (c) => {
            const slow = rejectionOf(c.run(SLOW));
            setTimeout(() => c.interrupt(), 50);
            return slow;
          }).catch((e: unknown) => e);
          return engineError(interrupted, '128MB');
        },
      ],
    ],
  },
  internal: {
    cases: [
      [
        'a database file that cannot be opened (an I/O fault)',
        running('SELECT 1', undefined, () => path.join(dir, 'missing-folder', 'telemetry.duckdb')),
      ],
    ],
  },
};

describe('DuckDB query engine: the error contract', () => {
  beforeAll(async () => {
    // A small memory limit and one thread, so that running out of memory is cheap to provoke.
    vi.stubEnv('DUCKDB_MEMORY_LIMIT', '128MB');
    vi.stubEnv('DUCKDB_THREADS', '1');
    dir = await mkdtemp(path.join(tmpdir(), 'duckdb-contract-'));
    file = path.join(dir, 'telemetry.duckdb');
  });
  afterAll(async () => {
    await closeTelemetryDatabase(file);
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  for (const kind of Object.keys(ENGINE_CONTRACT) as ContractKind[]) {
    const provocation = DUCKDB[kind];
    if ('notApplicable' in provocation) it.skip(`${kind}: ${provocation.notApplicable}`, () => undefined);
    else {
      it.each(provocation.cases)(`${kind} (${ENGINE_CONTRACT[kind].status}): %s`, async (_name, reject) => {
        await expectContract(await reject(), kind);
      });
    }
  }
});
