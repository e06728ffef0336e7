// No reply offers a button that will refuse (issue 27): for every operation of the service, the reply to a command
// that runs it, on several surfaces, and every button it offers pressed through the composition root's bot (real
// alerts, the real client, the sandbox, SQLite). The replies those presses bring are pressed too, one button of each
// kind, so a page reached by a button is held to the same rule.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/api/operations.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import type { Surface } from '../../src/ports/index.js';
import { parseCommand } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Block, Button, Reply } from '../../src/views/model.js';

const KEY = 'sk-offered-buttons-2727';
let sandbox: Sandbox;
let manzil: Manzil;
const ids = { agent: '', broker: '', property: '' };

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-offered-')), 'manzil.db'),
      LOG_LEVEL: 'error',
      ALERTS_CRON: '0 0 1 1 *',
      PERSON_SEARCHES_PER_HOUR: '100000',
      PERSON_PAGES_PER_HOUR: '100000',
      PORT: '0',
    },
    host: '127.0.0.1',
    serve: false,
  });
  // Ids as the service hands them out, taken straight from it: the commands below are typed with them.
  const first = async (op: OperationName, params: Record<string, string>, key: string) =>
    String(((await manzil.api.call(op, params)).records[0] as Record<string, unknown>)[key]);
  ids.agent = await first('search-agents', {}, 'id');
  ids.broker = await first('search-brokers', {}, 'id');
  ids.property = await first('search-buy', { location_id: '50' }, 'property_id');
}, 60_000);
afterAll(async () => {
  await manzil?.stop();
  await sandbox?.close();
});

/** A command for each operation: a new operation fails the type check until it has one here. */
const COMMANDS: Record<OperationName, () => string> = {
  'search-buy': () => 'buy marina',
  'search-rent': () => 'rent marina 2br',
  'search-commercial-rent': () => 'rent office business bay',
  'search-commercial-buy': () => 'buy office business bay',
  'search-new-projects': () => 'projects dubai hills',
  'agent-properties': () => `agent ${ids.agent}`,
  'broker-properties': () => `broker ${ids.broker}`,
  'get-get-transactions': () => 'transactions sold marina 2br',
  'get-adrec-transactions': () => 'adrec al reem island',
  'property-details': () => `property ${ids.property}`,
  'search-agents': () => 'agents marina',
  'search-agents-detailed': () => 'agents detailed downtown',
  'search-brokers': () => 'brokers marina',
  'search-brokers-detailed': () => 'brokers detailed business bay',
  'autocomplete-location': () => 'location jumeirah',
  'real-estate-developer': () => 'developers abu dhabi',
  'price-trend-of-location': () => 'trend marina',
};

/**
 * The default layout, the terminal's (commands, not buttons, to people), Discord's (two buttons a card), a narrow one.
 */
const SURFACES: Surface[] = [
  { cardsPerPage: 10, buttonsPerCard: 5 },
  { cardsPerPage: 10, buttonsPerCard: 5, personButtons: false },
  { cardsPerPage: 8, buttonsPerCard: 2 },
  { cardsPerPage: 3, buttonsPerCard: 1 },
];

const buttons = (reply: Reply): Button[] =>
  reply.blocks.flatMap((b: Block) =>
    b.kind === 'actions' ? [...b.buttons] : b.kind === 'card' ? [...(b.card.buttons ?? [])] : [],
  );

/** What the reply says in its own words (not the service's text on cards). */
const said = (reply: Reply) =>
  [reply.text, ...reply.blocks.flatMap((b) => (b.kind === 'text' || b.kind === 'context' ? [b.text] : []))].join('\n');

/** The answers a pressed button must never bring: a refusal, a dead or unknown button, a failure. */
const REFUSED =
  /can't|cannot|expired|no longer supported|older version|went wrong|busy|refused|nothing under that id|not enabled|only listing searches/i;

describe.each(SURFACES.map((surface, n) => ({ surface, n })))(
  'on a surface of $surface.cardsPerPage cards, $surface.buttonsPerCard buttons each ($n)',
  ({ surface, n }) => {
    // Each surface in a channel and by a person of its own, so a search saved on one is not "already an alert" on
    // another.
    const who = { user: `U${n}`, channel: `test:offered${n}`, surface };
    const press = (b: Button) => manzil.bot.handleAction({ ...who, action: b.action, token: b.token });

    it.each(Object.keys(COMMANDS) as OperationName[])(
      'every button of the reply to %s succeeds when pressed',
      { timeout: 120_000 },
      async (op) => {
        const text = COMMANDS[op]();
        const parsed = parseCommand(text);
        expect(parsed.ok && parsed.query.operation).toBe(op);
        const reply = await manzil.bot.handleCommand({ ...who, text });
        expect(said(reply)).not.toMatch(REFUSED);
        const failures: string[] = [];
        const check = (path: string, r: Reply) => {
          if (REFUSED.test(said(r))) failures.push(`${path} → ${said(r)}`);
        };
        for (const b of buttons(reply)) {
          const answer = await press(b);
          check(`${text} [${b.label}]`, answer);
          // One button of each kind on the reply it brought (the Next of an agent's listings, the Details of a
          // listing…).
          const kinds = new Map(buttons(answer).map((x) => [x.label.replace(/\d+/g, '#'), x]));
          for (const next of kinds.values()) check(`${text} [${b.label}] [${next.label}]`, await press(next));
        }
        expect(failures).toEqual([]);
      },
    );
  },
);
