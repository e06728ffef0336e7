// `manzil outbox`: the deliveries not yet on their platform, parked ones first, with a summary; `manzil outbox retry
// <id>` and `manzil outbox retry --all` put parked ones back in the queue (a running Manzil picks them up within its
// next pass, about 30 s at most). Safe while Manzil runs: SQLite in WAL mode lets this read and write beside it.
import type { OutboxRepo, OutboxRow, OutboxStats } from '../store/index.js';
import { withDatabase, type Where } from './database.js';

type Out = (line: string) => void;

export interface OutboxCliOptions {
  now?: () => number;
}

const USAGE = [
  'Usage: manzil outbox [--limit N] [--json]     the parked and waiting deliveries, and a summary',
  '       manzil outbox retry <id> | --all      put parked deliveries back in the queue',
].join('\n');
const WAITING = ['pending', 'claimed', 'sending'];
const ERROR_WIDTH = 60;

/** 42s, 12m, 5h 3m, 3d 4h. */
export function duration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${m % 60 ? ` ${m % 60}m` : ''}`;
  return `${Math.floor(h / 24)}d${h % 24 ? ` ${h % 24}h` : ''}`;
}

export async function runOutboxCli(
  args: string[],
  where: Where,
  out: Out,
  err: Out,
  options: OutboxCliOptions = {},
): Promise<number> {
  const now = options.now ?? Date.now;
  const [sub, ...rest] = args;
  const retry = sub === 'retry';
  const which = retry ? parseRetry(rest) : undefined;
  const listing = retry ? undefined : parseList(args);
  if (retry ? which === undefined : listing === undefined) {
    err(USAGE);
    return 2;
  }
  const status = await withDatabase('manzil outbox', where, err, async (db) => {
    const outbox = db.outbox;
    if (retry) return retryParked(outbox, which!, now(), out, err);
    const at = now();
    const held = await outbox.heldChannels();
    const heldUntil = new Map(held.map((h) => [h.channel, h.retryAt]));
    const parked = await outbox.list({ state: 'failed' });
    const waiting = await outbox.list({ state: WAITING });
    const stats = await outbox.stats(at);
    if (listing!.json) {
      const entry = (r: OutboxRow) => ({
        id: r.id,
        channel: r.channel,
        kind: r.kind,
        state: r.state,
        attempts: r.attempts,
        createdAt: r.createdAt,
        ageMs: at - r.createdAt,
        nextAttemptAt: r.state === 'pending' ? Math.max(r.nextAttemptAt, heldUntil.get(r.channel) ?? 0) : null,
        lastError: r.lastError,
        possibleDuplicate: r.possibleDuplicate,
        maybeDelivered: r.maybeDelivered,
      });
      out(JSON.stringify({ stats, held, parked: parked.map(entry), waiting: waiting.map(entry) }));
      return 0;
    }
    const table = (rows: OutboxRow[]) => {
      const shown = rows.slice(0, listing!.limit);
      const cells = shown.map((r) => [
        `#${r.id}`,
        r.channel,
        r.kind,
        r.state,
        String(r.attempts),
        duration(at - r.createdAt),
        next(r, at, heldUntil.get(r.channel)),
        [r.possibleDuplicate ? 'dup' : '', r.maybeDelivered ? 'look' : ''].filter(Boolean).join(',') || '-',
        trim(r.lastError),
      ]);
      const head = ['id', 'channel', 'kind', 'state', 'tries', 'age', 'next attempt', 'flags', 'last error'];
      const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
      const line = (c: string[]) =>
        `  ${c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')}`.trimEnd();
      out(line(head));
      for (const c of cells) out(line(c));
      if (rows.length > shown.length) out(`  … and ${rows.length - shown.length} more (--limit N shows more)`);
    };
    if (parked.length > 0) {
      out(
        `Parked (${parked.length}): given up after DELIVERY_GIVE_UP_H, or refused for good by the platform. \`manzil outbox retry <id>\` or \`--all\` sends them again.`,
      );
      table(parked);
    }
    if (waiting.length > 0) {
      out(`Waiting (${waiting.length}):`);
      table(waiting);
    }
    for (const h of held)
      out(
        `Held channel ${h.channel} since ${duration(at - h.since)} ago (${trim(h.reason)}): tried again ${h.retryAt > at ? `in ${duration(h.retryAt - at)}` : 'now'}.`,
      );
    if (parked.length + waiting.length > 0)
      out(
        'Flags: dup = may show twice (re-sent without a way to check); look = looked for on the platform before it is sent again.',
      );
    out(summary(stats));
    return 0;
  });
  return status ?? 1;
}

function parseList(args: string[]): { limit: number; json: boolean } | undefined {
  let limit = 50;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--limit' && /^\d+$/.test(args[i + 1] ?? '')) limit = Number(args[++i]);
    else return undefined;
  }
  return { limit, json };
}

function parseRetry(args: string[]): number | 'all' | undefined {
  if (args.length !== 1) return undefined;
  if (args[0] === '--all') return 'all';
  const m = /^#?(\d+)$/.exec(args[0]!);
  return m ? Number(m[1]) : undefined;
}

async function retryParked(outbox: OutboxRepo, which: number | 'all', at: number, out: Out, err: Out): Promise<number> {
  const soon = (it: string) => `a running Manzil sends ${it} within about 30 s, else the next start does`;
  if (which === 'all') {
    const n = await outbox.retryParked('all', at);
    out(
      n === 0
        ? 'No parked deliveries: nothing to retry.'
        : `${n} parked ${n === 1 ? 'delivery is' : 'deliveries are'} back in the queue: ${soon('them')}.`,
    );
    return 0;
  }
  const row = await outbox.byId(which);
  if (!row) {
    err(`manzil outbox retry: there is no outbox entry #${which} (\`manzil outbox\` lists them)`);
    return 1;
  }
  if (row.state !== 'failed') {
    const what =
      row.state === 'delivered'
        ? 'was delivered'
        : `is ${row.state === 'pending' ? 'waiting' : 'being sent'} (${row.state})`;
    err(`manzil outbox retry: entry #${which} ${what}, not parked: only parked entries can be retried`);
    return 1;
  }
  await outbox.retryParked(which, at);
  out(
    `Entry #${which} is back in the queue: ${soon('it')}${row.maybeDelivered ? ' (it is looked for on the platform first)' : ''}.`,
  );
  return 0;
}

function next(r: OutboxRow, at: number, heldUntil: number | undefined): string {
  switch (r.state) {
    case 'failed':
      return 'parked';
    case 'sending':
      return 'in flight';
    case 'claimed':
      return 'in a drainer';
    default: {
      const due = Math.max(r.nextAttemptAt, heldUntil ?? 0);
      const when = due <= at ? 'due now' : `in ${duration(due - at)}`;
      return heldUntil !== undefined && heldUntil > at ? `held, ${when}` : when;
    }
  }
}

function trim(error: string | null): string {
  if (!error) return '';
  const one = error.replace(/\s+/g, ' ').trim();
  return one.length > ERROR_WIDTH ? `${one.slice(0, ERROR_WIDTH - 1)}…` : one;
}

function summary(s: OutboxStats): string {
  const n = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
  const waiting = s.pending + s.sending;
  return (
    `Outbox: ${waiting} waiting (${s.pending} pending, ${s.sending - s.inFlight} claimed, ${s.inFlight} in flight), ${s.failed} parked, ${s.delivered} delivered; ` +
    `${n(s.possibleDuplicates, 'possible duplicate')}; oldest waiting ${waiting > 0 ? duration(s.oldestPendingMs) : '-'}; ${n(s.heldChannels, 'held channel')}.`
  );
}
