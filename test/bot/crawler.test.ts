// Nothing leads nowhere (issue 38): from a varied set of commands, every button of every reply is pressed (Next
// followed a few pages), and every command a reply suggests (in backticks, or a person's `/manzil agent 123`) is typed,
// through the composition root's bot (real alerts, digests, compare and value; the real client; the sandbox; SQLite).
// A reply fails when it is an error, an internal message, or a dead end: "I don't know", a place not found, a button
// that answers nothing, "No results" for a command Manzil itself suggested.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import type { Surface } from '../../src/ports/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Block, Button, Reply } from '../../src/views/model.js';

const KEY = 'sk-crawler-3838';
let sandbox: Sandbox;
let manzil: Manzil;
let property = '';

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY, seed: 5 });
  await sandbox.listen();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-crawler-')), 'manzil.db'),
      LOG_LEVEL: 'error',
      ALERTS_CRON: '0 0 1 1 *',
      PERSON_SEARCHES_PER_HOUR: '100000',
      PERSON_PAGES_PER_HOUR: '100000',
      PORT: '0',
    },
    host: '127.0.0.1',
    serve: false,
  });
  property = String((await manzil.api.call('search-buy', { location_id: '50' })).records[0]!.property_id);
}, 60_000);

afterAll(async () => {
  await manzil?.stop();
  await sandbox?.close();
});

/** Where the crawl starts: rent, buy, commercial, new projects, transactions, trend, people, property, ADREC, questions. */
const STARTS = (): string[] => [
  'rent marina',
  'buy jvc 2br',
  'rent office business bay',
  'buy office jlt',
  'projects dubai hills',
  'transactions sold marina 2br',
  'transactions rented jvc 1br last 3 months',
  'trend downtown dubai',
  'agents marina',
  'brokers business bay',
  'developers abu dhabi',
  `property ${property}`,
  'adrec al reem island',
  'villa in arabian ranches',
  'rent jlt 1br under 90',
  'buy office in jlt under 1500 per sqft',
  'alerts add rent office jlt under 100 per sqft',
  'transactions in jvc',
];

const buttonsOf = (reply: Reply): Button[] =>
  reply.blocks.flatMap((b: Block) =>
    b.kind === 'actions' ? [...b.buttons] : b.kind === 'card' ? [...(b.card.buttons ?? [])] : [],
  );

/** What the reply says in its own words, and its cards' fields (where a person's command is written). */
function said(reply: Reply): string {
  const own = reply.blocks.flatMap((b) => (b.kind === 'text' || b.kind === 'context' ? [b.text] : []));
  return [reply.text, ...own].join('\n');
}
const fieldsOf = (reply: Reply) =>
  reply.blocks.flatMap((b) => (b.kind === 'card' ? b.card.fields.map((f) => f.value) : [])).join('\n');

/** Commands a reply suggests: backticked in its text, and the person commands its cards name (one of each kind). */
function suggested(reply: Reply): string[] {
  const ticked = Array.from(said(reply).matchAll(/`([^`]+)`/g), (m) => m[1]!.trim());
  const people = Array.from(fieldsOf(reply).matchAll(/\/manzil ((?:agent|broker) \d+)/g), (m) => m[1]!);
  const typed = [...ticked, ...people.slice(0, 2)]
    .map((c) => c.replace(/^\/manzil\s+/, '').replace(/^\//, ''))
    // A template ("/alerts remove <number>", "…") is a form to fill, not a command.
    .filter((c) => /^[a-z]/i.test(c) && !/[<>…[\]]|\.\.\./.test(c));
  return [...new Set(typed)];
}

/** The answers nothing may bring: an error, an internal message, a dead end. */
const DEAD =
  /I don't know "|went wrong|is busy|expired|no longer supported|older version|not enabled|nothing under that id|No results\. Try|Error:|TypeError|undefined|NaN|\[object/;

const SURFACE: Surface = { cardsPerPage: 10, buttonsPerCard: 5 };

describe('every button and every suggested command leads somewhere', () => {
  it('from each starting command, pressing and typing what replies offer', { timeout: 180_000 }, async () => {
    const who = { user: 'U38', channel: 'test:crawler', surface: SURFACE };
    const failures: string[] = [];
    const typedAlready = new Set<string>();
    let replies = 0;
    const check = (path: string, r: Reply) => {
      replies++;
      const text = said(r);
      if (r.blocks.length === 0 && r.text.trim() === '') failures.push(`${path} → (nothing)`);
      else if (DEAD.test(text)) failures.push(`${path} → ${text.slice(0, 300)}`);
      // An area not found is a dead end unless the reply offers the areas it may have meant.
      else if (/couldn't find a place called/.test(text) && buttonsOf(r).length === 0)
        failures.push(`${path} → ${text.slice(0, 300)}`);
      // A person no record names ("1 other agent: agent 2"): a name made up, leading to nobody.
      const invented = /(?:: |, )agent \d+\b(?! \()/.exec(fieldsOf(r));
      if (invented) failures.push(`${path} → a made-up person: ${invented[0]}`);
    };
    const press = (b: Button) => manzil.bot.handleAction({ ...who, action: b.action, token: b.token });
    const type = (text: string) => manzil.bot.handleCommand({ ...who, text });

    /** Presses every button (once per kind below the top), follows Next, and types what is suggested. */
    async function crawl(path: string, reply: Reply, depth: number): Promise<void> {
      check(path, reply);
      for (const command of suggested(reply)) {
        if (typedAlready.has(command)) continue;
        typedAlready.add(command);
        if (depth < 2) await crawl(`${path} ⌨ ${command}`, await type(command), depth + 1);
      }
      if (depth >= 2) return;
      const all = buttonsOf(reply);
      const pressing = depth === 0 ? all : [...new Map(all.map((b) => [b.label.replace(/\d+/g, '#'), b])).values()];
      for (const b of pressing) {
        const answer = await press(b);
        if (/Next/.test(b.label)) {
          // Next a few pages on: each page is held to the same rule.
          let page = answer;
          for (let i = 0; i < 3; i++) {
            check(`${path} [Next ×${i + 1}]`, page);
            const next = buttonsOf(page).find((x) => /Next/.test(x.label));
            if (!next) break;
            page = await press(next);
          }
          continue;
        }
        await crawl(`${path} [${b.label}]`, answer, depth + 1);
      }
    }

    for (const start of STARTS()) await crawl(start, await type(start), 0);
    expect(replies).toBeGreaterThan(STARTS().length * 5);
    expect(failures).toEqual([]);
  });
});
