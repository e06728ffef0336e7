// In the terminal demo (no keys: the embedded sandbox, the terminal chat, as `npm start` runs it), every date Manzil
// shows is the demo's today: the sample market's clock, which starts at the calendar's today and is never behind it on a
// start. Issue 26: a demo digest was dated three weeks before today (the sandbox's fixed start of 2026-11-01). The
// expected dates are computed here from the wall clock and the demo clock file, with Intl, not through Manzil's code.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnChat, SGR, type ChatProcess } from '../console/spawn-chat.js';

const DAY = 86_400_000;
const running: ChatProcess[] = [];
afterEach(() => {
  for (const chat of running.splice(0)) chat.kill();
});

const dubaiDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Dubai',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const utcMonth = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "24 Nov 2026" as the start of that UTC day. */
const dayOf = (text: string) => {
  const [d, m, y] = text.split(' ');
  return Date.UTC(Number(y), MONTHS.indexOf(m!), Number(d));
};

/** The demo market's clock as the file beside the database keeps it: its start plus the minutes it has moved. */
function savedMarket(dir: string): { start: number; now: number } {
  const saved = JSON.parse(readFileSync(join(dir, 'demo-clock.json'), 'utf8')) as { start: string; minutes: number };
  const start = Date.parse(saved.start);
  return { start, now: start + saved.minutes * 60_000 };
}

/**
 * Runs the demo on the data folder `dir` (the market moves once an hour: only its start moves it in the test), asks for
 * a digest, last month's sales and the trend, and checks every date against the market clock the file keeps.
 */
async function askForDates(dir: string, before: number): Promise<void> {
  const chat = spawnChat({ tty: false, env: { MANZIL_DB_PATH: join(dir, 'm.db'), MANZIL_DEMO_TICK_S: '3600' } });
  running.push(chat);
  await chat.waitFor(/demo mode/, 60_000);
  chat.child.stdin.write('digest now dubai marina\n');
  await chat.waitFor(/Off-plan projects: .*\n(.*\n)*?.*off-plan projects/, 90_000);
  chat.child.stdin.write('what sold in dubai marina last month\n');
  await chat.waitFor(/Sold transactions in Dubai Marina(.*\n)*?Showing 1–/, 60_000);
  chat.child.stdin.write('trend dubai marina\n');
  await chat.waitFor(/Price trend for apartments in Dubai Marina(.*\n)*?.*AED per sqft, latest value.*\n/, 60_000);
  const shown = chat.output().replace(SGR, '');
  const after = Date.now();

  // The digest is dated the calendar's today (the demo's market starts there, not at a fixed date nor where a run of
  // weeks ago left it)...
  const digest = /== Market digest: Dubai Marina ==\n(\w{3} \d{1,2} \w{3}) \d\d:\d\d \(Asia\/Dubai\)/.exec(shown);
  expect([dubaiDay.format(before), dubaiDay.format(after)]).toContain(digest?.[1]);
  // ... which is the market clock's time the file keeps (the market moves 30 minutes an hour here: only at the start).
  const market = savedMarket(dir);
  expect(market.now).toBeGreaterThanOrEqual(before - 60_000);
  expect(market.now).toBeLessThanOrEqual(after);
  expect(digest?.[1]).toBe(dubaiDay.format(market.now));
  // Its new listings count from a week before it.
  expect(shown).toContain(`New listings since ${dubaiDay.format(market.now - 7 * DAY)}:`);
  // Its trend and the trend's answer end in the market's month.
  const month = utcMonth.format(market.now);
  expect(shown).toContain(`Latest (${month})`);
  expect(shown).toMatch(new RegExp(`Dubai Marina: AED per sqft, latest value; .* to ${month}\\.`));

  // Last month's sales: within the 31 days up to today, the newest of them a few days old at most (about one a day).
  const table = shown.slice(shown.indexOf('Sold transactions in Dubai Marina'));
  const dates = [...table.matchAll(/^(\d{1,2} [A-Z][a-z]{2} \d{4}) {2,}/gm)].map((m) => dayOf(m[1]!));
  expect(dates.length).toBeGreaterThan(5);
  const todayUtc = Math.floor(market.now / DAY) * DAY;
  for (const d of dates) {
    expect(d).toBeLessThanOrEqual(todayUtc);
    expect(d).toBeGreaterThanOrEqual(todayUtc - 31 * DAY);
  }
  expect(Math.max(...dates)).toBeGreaterThanOrEqual(todayUtc - 10 * DAY);

  chat.child.stdin.end('quit\n');
  expect(await chat.exit(30_000)).toBe(0);
}

describe('the terminal demo dates everything by its today', () => {
  it('on a first run: the market starts at the UTC day of the run and shows today', { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-dates-'));
    const before = Date.now();
    await askForDates(dir, before);
    const { start } = savedMarket(dir);
    expect([Math.floor(before / DAY) * DAY, Math.floor(Date.now() / DAY) * DAY]).toContain(start);
  });

  it(
    'on a data folder whose demo ran three weeks ago: the market catches up with the calendar',
    { timeout: 240_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-dates-'));
      const before = Date.now();
      const start = Math.floor((before - 21 * DAY) / DAY) * DAY;
      // Two hours of demo on that day; the ids it handed out are below this.
      writeFileSync(
        join(dir, 'demo-clock.json'),
        JSON.stringify({ version: 2, start: new Date(start).toISOString(), minutes: 120, nextListingId: 16_240_000 }),
      );
      await askForDates(dir, before);
      // The same market as before (its start kept), moved on to today.
      expect(savedMarket(dir).start).toBe(start);
    },
  );
});
