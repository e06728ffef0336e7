// A listing's Details button: the property in full, or, when the service says it is gone (404), plain words and the
// listing taken out of the answers held, so the next view of its page asks again and no longer shows it.
import { ApiError } from '../api/errors.js';
import type { Logger } from '../log.js';
import type { Block, Reply } from '../views/model.js';
import type { SearchRunner } from './search.js';

export const GONE =
  'This listing is no longer on the market: it was taken down after these results were fetched. Run the search again for what is listed now.';

/** `render`: the property's cards (with the buttons to its agent's and brokerage's listings: bot/people.ts). */
export async function listingDetails(
  searches: SearchRunner,
  propertyId: string,
  log: Logger,
  render: (records: readonly unknown[]) => Promise<Block[]>,
): Promise<Reply> {
  try {
    const result = await searches.fetch('property-details', { property_id: propertyId });
    const blocks = await render(result.records);
    return { text: `Property ${propertyId}`, blocks, ephemeral: true };
  } catch (e) {
    // Only the service's "not found" means gone; any other failure is the service's, and is said as one.
    if (!(e instanceof ApiError && e.kind === 'http' && e.status === 404)) throw e;
    const dropped = searches.forgetListing(propertyId);
    log.info('listing gone: details answered 404; the answers listing it are dropped', {
      propertyId,
      dropped,
      error: e.message,
    });
    return { text: GONE, blocks: [{ kind: 'text', text: GONE }], ephemeral: true };
  }
}
