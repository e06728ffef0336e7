// A listing's history line (issue 40), pure: "first seen 41 days ago · price cut twice since, −7 % · back on the
// market after 3 weeks", from what Manzil's alerts have observed of it. Said only when there is something worth
// saying: nothing for a listing first seen today at one price.

/** What the line is made from (the store's listing_history, read as plain values). */
export interface Story {
  firstSeenAt: number;
  /** Each distinct price seen in a row, with when, oldest first. */
  prices: readonly (readonly [number, number | null])[];
  timesBack: number;
  /** How long it was away the last time it came back. */
  awayMs: number | null;
}

const DAY = 86_400_000;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const TIMES = ['', 'once', 'twice'];
const times = (n: number) => TIMES[n] ?? `${n} times`;

/** "5 days", "3 weeks", "4 months", "2 years": a span as people say it. */
export function spanText(ms: number): string {
  const days = Math.max(1, Math.round(ms / DAY));
  if (days < 14) return plural(days, 'day');
  if (days < 63) return plural(Math.round(days / 7), 'week');
  if (days < 730) return plural(Math.round(days / 30.44), 'month');
  return plural(Math.round(days / 365.25), 'year');
}

/** "41 days ago" up to three months, then months: how long Manzil has known it. */
function knownFor(ms: number): string {
  const days = Math.floor(ms / DAY);
  return days < 90 ? `${plural(days, 'day')} ago` : `${spanText(ms)} ago`;
}

/** The cuts among the prices seen (each lower than the one before), and the change from the first to the last. */
export function priceCuts(prices: Story['prices']): { cuts: number; pct: number | null } {
  const known = prices.map((p) => p[1]).filter((p): p is number => p !== null && p > 0);
  let cuts = 0;
  for (let i = 1; i < known.length; i++) if (known[i]! < known[i - 1]!) cuts++;
  const pct = known.length < 2 ? null : Math.round(((known.at(-1)! - known[0]!) / known[0]!) * 100);
  return { cuts, pct };
}

/** The history line, or undefined when there is nothing worth saying. `now`: the time it is said at. */
export function storyLine(story: Story, now: number): string | undefined {
  const parts: string[] = [];
  if (now - story.firstSeenAt >= DAY) parts.push(`first seen ${knownFor(now - story.firstSeenAt)}`);
  const { cuts, pct } = priceCuts(story.prices);
  if (cuts > 0)
    parts.push(
      `price cut ${times(cuts)} since${pct !== null && pct !== 0 ? `, ${pct < 0 ? '−' : '+'}${Math.abs(pct)} %` : ''}`,
    );
  if (story.timesBack > 0 && story.awayMs !== null)
    parts.push(
      `back on the market after ${spanText(story.awayMs)}${story.timesBack > 1 ? ` (back ${times(story.timesBack)})` : ''}`,
    );
  return parts.length === 0 ? undefined : parts.join(' · ');
}
