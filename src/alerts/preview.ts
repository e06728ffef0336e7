// `/alerts test 2`: what an alert would post now, fetched and compared as its run would, posting and recording nothing.
import type { AlertRow, AlertsRepo } from '../store/index.js';
import { ephemeral } from '../standing-orders/commands.js';
import type { Block, Reply } from '../views/model.js';
import { listingsByWords, postedQueryOf } from './channel.js';
import { compare } from './compare.js';
import type { AlertsApi } from './contracts.js';
import { fetchListings } from './fetch.js';
import { decodePayload, renderDelivery } from './messages.js';
import { deliveriesFor } from './plan.js';
import { canonicalParams, decodeSavedQuery } from './saved-query.js';

export interface PreviewDeps {
  repo: Pick<AlertsRepo, 'seen' | 'postedIn'>;
  api: AlertsApi;
  maxPages: number;
  deadlineMs: number;
  priceDropPct: number;
  now: () => number;
}

/** `/alerts test 2`: checks a saved search now and shows what would be posted, posting and recording nothing. */
export async function previewAlert(o: PreviewDeps, row: AlertRow): Promise<Reply> {
  const saved = decodeSavedQuery(row.query);
  if (!saved)
    return ephemeral(
      `Alert #${row.number} was saved by an older version of Manzil I can't read. Remove it and save the search again.`,
    );
  const seen = await o.repo.seen(row.id);
  const seenIds = new Set(seen.map((s) => s.propertyId));
  const fetched = await fetchListings(o.api, saved.query.operation, canonicalParams(saved), o, (records) =>
    records.every((r) => !seenIds.has(r.property_id)),
  );
  const listings = listingsByWords(fetched.listings)(row.words);
  const primed = row.primedAt !== null;
  // What the channel was posted (by its other alerts) is not posted again by this one (channel.ts), so not previewed
  // either.
  const channel = await o.repo.postedIn({
    service: row.service,
    channels: [row.channel],
    ...postedQueryOf(listings),
  });
  const cmp = compare(seen, listings, { primed, priceDropPct: o.priceDropPct, channel });
  const messages = deliveriesFor(row, cmp, 5, o.now())
    .map((d) => decodePayload(d.payload))
    .filter((p) => p !== undefined);
  const head = !primed
    ? `Alert #${row.number} has not had its first look yet: that look records the ${listings.length} listings there are and posts nothing.`
    : messages.length === 0
      ? `Nothing new for alert #${row.number} since the last check (${listings.length} listings looked at). Nothing was posted.`
      : `Alert #${row.number} would post ${messages.length} message${messages.length === 1 ? '' : 's'} now. This is a preview: nothing was posted.`;
  const blocks: Block[] = [{ kind: 'text', text: head }];
  for (const p of messages) blocks.push({ kind: 'divider' }, ...(await renderDelivery(p)).blocks);
  return { text: head, blocks, ephemeral: true };
}
