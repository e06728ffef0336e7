// Chat pages over service pages: the service sends pages of unknown size; chat shows at most a few cards at once.
// Pure arithmetic, so every edge (the last chat page of a service page, a short last page) is easy to test.

/** Where a chat page starts: a service page, and the index of the first record on it. */
export interface PagePosition {
  page: number;
  /** -1: the last chat page of that service page (known only once the page is fetched). */
  offset: number;
}

export interface PageInputs {
  /** Cards on this service page (records, with the same flat from several agents as one). */
  total: number;
  /**
   * Records the service sent for this page, when some were folded into one card: whether it was full is told by these.
   */
  records?: number;
  /** The service's first page number: 1, or 0 for ADREC. */
  firstPage: number;
  /** True when records are shown a few at a time; false when the whole service page is one chat page. */
  byCard: boolean;
  perChatPage: number;
  /** The longest service page seen for this operation, this one included: a shorter page is the last. */
  longestPage: number;
  /** The service's page size is not published (15 to 50 observed): a page shorter than this is surely the last. */
  smallestFullPage: number;
}

export interface PagePlan {
  offset: number;
  count: number;
  /** The number of the first record shown, counted across service pages (from 1). */
  firstNumber: number;
  previous?: PagePosition;
  next?: PagePosition;
}

export function planPage(at: PagePosition, p: PageInputs): PagePlan {
  const lastStart = Math.max(0, Math.floor((p.total - 1) / p.perChatPage) * p.perChatPage);
  const offset = !p.byCard ? 0 : at.offset === -1 ? lastStart : at.offset;
  const count = p.byCard ? Math.min(p.perChatPage, Math.max(0, p.total - offset)) : p.total;
  const plan: PagePlan = { offset, count, firstNumber: (at.page - p.firstPage) * p.longestPage + offset + 1 };
  if (p.byCard && offset > 0) plan.previous = { page: at.page, offset: Math.max(0, offset - p.perChatPage) };
  else if (at.page > p.firstPage) plan.previous = { page: at.page - 1, offset: p.byCard ? -1 : 0 };
  if (p.byCard && offset + p.perChatPage < p.total) plan.next = { page: at.page, offset: offset + p.perChatPage };
  else if (count > 0 && (p.records ?? p.total) >= Math.max(p.smallestFullPage, p.longestPage))
    plan.next = { page: at.page + 1, offset: 0 };
  return plan;
}
