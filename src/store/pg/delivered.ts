// An outbox entry delivered on Postgres (../contracts/outbox.ts markDelivered), apart from ./outbox.ts: under its
// claim's token, and for a listing's first card (issue 40) with where it landed kept on its channel's row.
import { sql } from 'drizzle-orm';
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
