// Reading a saved search's listings: page 1 newest first, and further pages only while everything on them is new.
import type { OperationName } from '../api/operations.js';
import type { Listing } from './compare.js';
import type { AlertsApi, PollerOptions } from './contracts.js';

/** Page 1, newest first, then further pages while `allNew` says every listing on the last page was new. */
export async function fetchListings(
  api: AlertsApi,
  operation: OperationName,
  params: Record<string, string>,
  options: Pick<PollerOptions, 'maxPages' | 'deadlineMs'> & {
    /** The longest page the service has answered (a full page): a first page shorter than it is the whole result. */
    fullPage?: number;
  },
  allNew: (records: Listing[]) => boolean,
  signal?: AbortSignal,
): Promise<{ listings: Listing[]; calls: number; complete: boolean; pagesCut?: boolean; longest: number }> {
  const listings: Listing[] = [];
  let calls = 0;
  let firstPageLength = 0;
  let longest = 0;
  for (let page = 1; page <= options.maxPages; page++) {
    // Shutdown: what was read is kept (and recorded by the caller); no further page is asked for.
    if (page > 1 && signal?.aborted) return { listings, calls, complete: false, longest };
    const answer = await api.call(operation, { ...params, page: String(page) }, { deadlineMs: options.deadlineMs });
    calls++;
    const records = answer.records as Listing[];
    listings.push(...records);
    longest = Math.max(longest, records.length);
    if (page === 1) firstPageLength = records.length;
    // An empty or short page is the last one: every match has been seen.
    if (records.length === 0 || records.length < firstPageLength) return { listings, calls, complete: true, longest };
    // A first page shorter than a full one is the whole result too (the next page would be empty).
    const short = page === 1 && records.length < (options.fullPage ?? 0);
    if (!allNew(records)) return { listings, calls, complete: short, longest };
  }
  return { listings, calls, complete: false, pagesCut: true, longest };
}
