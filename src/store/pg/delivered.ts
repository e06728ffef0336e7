// An outbox entry delivered on Postgres (../contracts/outbox.ts markDelivered), apart from ./outbox.ts: under its
// claim's token, and for a listing's first card (issue 40) with where it landed kept on its channel's row; and an entry
// that only points to others settled (settleFollower: posted, or folded when all it points to was found).
import { sql } from 'drizzle-orm';
import { followedVerdict } from '../claims.js';
import type { PgRunner } from './tx.js';

interface Delivered {
  id: number;
  token: number;
  messageId: string;
  at: number;
  possibleDuplicate: boolean;
  /** A listing's first card: its place is kept (channel_posted.message_ref). */
  threadRoot: boolean;
}

/**
 * True when this claim marked the entry delivered, in one statement: the entry marked under its claim's token and, for
 * a listing's first card only if it was, where the card landed kept on its channel's row of the listing unless that
 * holds one already.
 */
export async function markDelivered(runner: PgRunner, d: Delivered): Promise<boolean> {
  const marked = await runner.execute(sql`
    with d as (
      update outbox set state = 'delivered', message_id = ${d.messageId}, delivered_at = ${d.at}, claimed_by = null,
        claimed_until = null, claim_token = null, maybe_delivered = false, uncertain_since = null,
        possible_duplicate = possible_duplicate or ${d.possibleDuplicate}
      where id = ${d.id} and claim_token = ${d.token} and state in ('claimed', 'sending')
      returning search_id, place, property_id),
    r as (
      update channel_posted c set message_ref = ${d.messageId}
      from d join standing_order s on s.id = d.search_id
      where ${d.threadRoot}::boolean and c.service = s.service and c.place = d.place and c.property_id = d.property_id
        and c.message_ref is null)
    select count(*)::int as n from d`);
  return (marked.rows[0] as { n: number } | undefined)?.n === 1;
}

/** ../contracts/outbox.ts settleFollower: what the followed entries say, and the fold, fenced, when they say fold. */
export async function settleFollower(
  runner: PgRunner,
  f: { id: number; token: number; followed: readonly string[] },
): Promise<'post' | 'wait' | 'folded'> {
  const rows = await runner.execute(sql`
    select state, first_attempt_at as "firstAttemptAt" from outbox
    where dedupe_key = any(${sql.param([...f.followed])}::text[])`);
  const verdict = followedVerdict(
    (rows.rows as { state: string; firstAttemptAt: string | number | null }[]).map((r) => ({
      state: r.state,
      firstAttemptAt: r.firstAttemptAt === null ? null : Number(r.firstAttemptAt),
    })),
  );
  if (verdict !== 'fold') return verdict;
  // Every entry it follows is final (delivered, failed, folded): only the fold itself is fenced.
  const folded = await runner.execute(sql`
    update outbox set state = 'folded', claimed_by = null, claimed_until = null, claim_token = null
    where id = ${f.id} and claim_token = ${f.token} and state in ('claimed', 'sending')
    returning id`);
  return folded.rows.length === 1 ? 'folded' : 'wait';
}
