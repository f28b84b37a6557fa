// `insights-admin dead-letter list|show|replay` (docs/admin-cli.md): read the dead letter and send
// its messages through the ingest function again after a fix. Locally the folder
// <INSIGHTS_DATA_DIR>/dead-letter and the running stack's Lambda endpoint; with --stage the stage's
// dead-letter bucket and its ingest function.
import { AppError } from '../../core/errors';
import { positiveInteger, UsageError } from '../args';
import {
  agentOf,
  DEAD_LETTER_REASONS,
  decodePayload,
  messageIdOf,
  type DeadLetterFilter,
  type StoredDeadLetter,
} from '../../ingest/dead-letter';
import type { DeadLetterReason } from '../../ingest/ports';
import { getAll, listAll, replayEntries, type ReplayReport } from '../../ingest/replay';
import type { Command } from './command';
import { countProgress } from '../progress';
import { table } from './table';
import type { DeadLetterAccess, Target } from './target';

type Values = Record<string, string | boolean | undefined>;

const LOCAL_OPTIONS = { 'dead-letter-dir': { type: 'string' }, 'lambda-port': { type: 'string' } } as const;
const FILTER_OPTIONS = { from: { type: 'string' }, to: { type: 'string' }, reason: { type: 'string' } } as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Lines of entries a text answer prints before summing up the rest (--json has them all). */
const SHOWN = 100;

/** A day (YYYY-MM-DD, UTC: `--to` then includes that whole day) or an ISO 8601 time. */
export function parseTimeOption(option: 'from' | 'to', raw: string): Date {
  const time = DAY.test(raw)
    ? Date.parse(`${raw}T00:00:00Z`) + (option === 'to' ? 86_400_000 : 0)
    : /^\d{4}-\d{2}-\d{2}T/.test(raw)
      ? Date.parse(raw)
      : Number.NaN;
  if (!Number.isFinite(time))
    throw new UsageError(
      `--${option} must be a day (2026-01-31) or an ISO 8601 time (2026-01-31T12:00:00Z); got "${raw}"`,
    );
  return new Date(time);
}

export function filterOf(values: Values): DeadLetterFilter {
  const filter: { from?: Date; to?: Date; reason?: DeadLetterReason } = {};
  if (typeof values.from === 'string') filter.from = parseTimeOption('from', values.from);
  if (typeof values.to === 'string') filter.to = parseTimeOption('to', values.to);
  if (filter.from && filter.to && filter.from >= filter.to) throw new UsageError('--from must be before --to');
  if (typeof values.reason === 'string') {
    const reason = values.reason.toUpperCase();
    if (!(DEAD_LETTER_REASONS as readonly string[]).includes(reason))
      throw new UsageError(`--reason must be one of ${DEAD_LETTER_REASONS.join(', ')}; got "${values.reason}"`);
    filter.reason = reason as DeadLetterReason;
  }
  return filter;
}

function access(values: Values, target: Target): DeadLetterAccess {
  const dir = typeof values['dead-letter-dir'] === 'string' ? values['dead-letter-dir'] : undefined;
  const port =
    typeof values['lambda-port'] === 'string' ? positiveInteger('lambda-port', values['lambda-port'], 1) : undefined;
  if (target.deployed && (dir !== undefined || port !== undefined))
    throw new UsageError('--dead-letter-dir and --lambda-port are for the local stack, not with --stage');
  return target.deadLetters({
    ...(dir !== undefined ? { dir } : {}),
    ...(port !== undefined ? { lambdaPort: port } : {}),
  });
}

const oneLine = (text: string, max = 80): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function summary({ id, entry }: StoredDeadLetter) {
  return {
    time: entry.time,
    reason: entry.reason,
    agent: agentOf(entry) ?? '',
    messageId: messageIdOf(entry) ?? '',
    message: oneLine(entry.message),
    id,
  };
}

function totals(reasons: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reason of reasons) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
}

const entries = (n: number): string => `${n} ${n === 1 ? 'entry' : 'entries'}`;

const totalsLine = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');

interface ListResult {
  readonly location: string;
  readonly entries: ReturnType<typeof summary>[];
  readonly totals: Record<string, number>;
  readonly unreadable: string[];
}

interface ShowResult {
  readonly id: string;
  readonly entry: StoredDeadLetter['entry'];
  readonly payload: ReturnType<typeof decodePayload>;
}

interface ReplayResult extends ReplayReport {
  readonly location: string;
  readonly through: string;
}

function renderReplay(r: ReplayResult): string {
  if (r.selected === 0) return `nothing to replay in ${r.location}\n`;
  const shown = r.items.slice(0, SHOWN);
  const more = r.items.length > SHOWN ? `  ... and ${r.items.length - SHOWN} more (--json lists them all)\n` : '';
  if (r.dryRun)
    return `would replay ${entries(r.selected)} from ${r.location} through ${r.through}:\n${shown.map((i) => `  ${i.id}  ${i.reason}\n`).join('')}${more}`;
  const lines = shown.map((i) => {
    const o = i.outcome!;
    const what =
      o.status === 'dead-lettered'
        ? `dead-lettered again: ${o.reason ?? '?'}`
        : `${o.status}${o.messageId ? ` (${o.messageId})` : ''}`;
    return `  ${i.id}  ${i.reason} -> ${what}\n`;
  });
  const counts = totals(
    r.items.map((i) => (i.outcome!.status === 'dead-lettered' ? 'dead-lettered again' : i.outcome!.status)),
  );
  const stopped = r.stopped
    ? `stopped at ${r.stopped.id}: ${r.stopped.error}\n${entries(r.selected - r.items.length)} not replayed; they stay in the dead letter\n`
    : '';
  return `replayed ${r.items.length} of ${entries(r.selected)} from ${r.location} through ${r.through}:\n${lines.join('')}${more}${Object.entries(
    counts,
  )
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}\n${stopped}`;
}

export const DEAD_LETTER_COMMANDS: Readonly<Record<string, Command>> = {
  'dead-letter list': {
    usage: 'insights-admin dead-letter list [--from DATE] [--to DATE] [--reason R]',
    summary: 'list dead-lettered messages (time, reason, agent, message id) with totals per reason',
    options: { ...FILTER_OPTIONS, ...LOCAL_OPTIONS },
    run: async (v, _p, t): Promise<ListResult> => {
      const filter = filterOf(v);
      const { store } = access(v, t);
      const { items, unreadable } = await listAll(store, filter);
      const entries = items.map(summary).sort((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
      return { location: store.location, entries, totals: totals(entries.map((e) => e.reason)), unreadable };
    },
    text: (r: ListResult) => {
      const unreadable =
        r.unreadable.length > 0
          ? `${r.unreadable.length} file(s) in the dead letter are not entries of a known shape:\n${r.unreadable.map((id) => `  ${id}\n`).join('')}`
          : '';
      if (r.entries.length === 0) return `no dead-lettered messages in ${r.location}\n${unreadable}`;
      return `${table(r.entries, ['time', 'reason', 'agent', 'messageId', 'message', 'id'])}${entries(r.entries.length)} in ${r.location}: ${totalsLine(r.totals)}\n${unreadable}`;
    },
  },
  'dead-letter show': {
    usage: 'insights-admin dead-letter show ID',
    summary: 'show one dead-lettered message, its payload decoded when it is text or JSON',
    options: { ...LOCAL_OPTIONS },
    positionals: true,
    run: async (v, positionals, t): Promise<ShowResult> => {
      if (positionals.length !== 1) throw new UsageError('expected exactly one ID (from dead-letter list)');
      const { store } = access(v, t);
      const [found] = await getAll(store, positionals);
      return { id: found!.id, entry: found!.entry, payload: decodePayload(found!.entry.payloadBase64) };
    },
    text: (r: ShowResult) => {
      const source = Object.entries(r.entry.source)
        .filter(([, value]) => value !== undefined)
        .map(([k, value]) => `${k}=${value}`)
        .join(' ');
      const payload =
        r.payload.kind === 'json'
          ? JSON.stringify(r.payload.value, null, 2)
          : r.payload.kind === 'text'
            ? r.payload.value
            : `(${r.payload.bytes} bytes, not text; base64: ${r.entry.payloadBase64})`;
      const details = r.entry.details.length > 0 ? `details\n${JSON.stringify(r.entry.details, null, 2)}\n` : '';
      return `id       ${r.id}\ntime     ${r.entry.time}\nreason   ${r.entry.reason}\nmessage  ${r.entry.message}\nsource   ${source}\n${details}payload (${r.payload.kind})\n${payload}\n`;
    },
  },
  'dead-letter replay': {
    usage: 'insights-admin dead-letter replay (ID ... | --all | --reason R | --from DATE | --to DATE) [--dry-run]',
    summary: 'send dead-lettered messages through the ingest function again; each is marked replayed with its outcome',
    options: { all: { type: 'boolean' }, ...FILTER_OPTIONS, 'dry-run': { type: 'boolean' }, ...LOCAL_OPTIONS },
    positionals: true,
    run: async (v, ids, t, io): Promise<ReplayResult> => {
      const filter = filterOf(v);
      const filtered = filter.from !== undefined || filter.to !== undefined || filter.reason !== undefined;
      if (ids.length > 0 && (v.all === true || filtered))
        throw new UsageError('give entry IDs, or --all / filters, not both');
      if (ids.length === 0 && v.all !== true && !filtered)
        throw new UsageError('say what to replay: entry IDs, --all, or --reason/--from/--to');
      const { store, invoker } = access(v, t);
      const selected = ids.length > 0 ? await getAll(store, ids) : (await listAll(store, filter)).items;
      const bar = countProgress(io.stderr, 'replay');
      try {
        const report = await replayEntries(
          selected,
          { store, invoker },
          { dryRun: v['dry-run'] === true, now: () => new Date(), onProgress: bar.update },
        );
        // Nothing replayed at all (the stack not running, the function failing): one line, exit 1.
        if (report.stopped && report.items.length === 0)
          throw new AppError('SERVICE_UNAVAILABLE', report.stopped.error);
        return { ...report, location: store.location, through: invoker.target };
      } finally {
        bar.end();
      }
    },
    text: renderReplay,
    exitCode: (r: ReplayResult) => (r.stopped ? 1 : 0),
  },
};
