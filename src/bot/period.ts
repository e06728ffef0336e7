// The period behind a transactions reply: every record of it, read through the PeriodPort (paged within a cap and
// cached by src/market), so that the reply's figures are the period's whatever page its table shows. When the
// period cannot be read the reply still comes, its figures labelled as the page's; the log says why.
import type { Logger } from '../log.js';
import { PERIOD_WORDS } from '../market/definitions.js';
import type { TransactionsScope } from '../views/index.js';
import type { SearchOutcome } from './search.js';
import type { PeriodPort } from './types.js';

/** What a transactions reply's figures cover; undefined for any other reply, or a page with nothing to sum up. */
export async function periodScope(
  port: PeriodPort | undefined,
  outcome: SearchOutcome,
  o: { maxAgeMs: number; log: Logger },
): Promise<TransactionsScope | undefined> {
  if (outcome.operation !== 'get-get-transactions' || outcome.result.records.length === 0) return undefined;
  const { page: _page, sort: _sort, ...params } = outcome.params;
  const type = params.transaction_type;
  const scope = {
    kind: type === 'sold' || type === 'rented' ? type : undefined,
    period: PERIOD_WORDS[params.period ?? '1y'] ?? 'the period',
  } as const;
  if (!port) return scope;
  try {
    // The page shown is one of the period's when it is sorted newest first: the read takes it rather than ask again.
    const known = { params: outcome.params, result: outcome.result };
    return { ...scope, whole: await port.transactions(params, { maxAgeMs: o.maxAgeMs, known }) };
  } catch (error) {
    o.log.warn('the period of a transactions reply could not be read; its figures are the page shown', {
      params,
      error,
    });
    return scope;
  }
}
