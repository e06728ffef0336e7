// A real Bot on a real ApiClient talking to the sandbox over 127.0.0.1, with its state in a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/index.js';
import { Bot, type BotOptions } from '../../src/bot/index.js';
import { LocationResolver, type LocationLookup } from '../../src/locations/index.js';
import { silentLogger } from '../../src/log.js';
import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { createButtonStateRepo, createLocationCacheRepo, openStore, type Store } from '../../src/store/index.js';
import type { Block, Button, Reply } from '../../src/views/model.js';

const DAY = 86_400_000;
const dirs: string[] = [];

export function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'manzil-bot-'));
  dirs.push(dir);
  return join(dir, 'manzil.db');
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Harness {
  bot: Bot;
  store: Store;
  api: ApiClient;
  close(): Promise<void>;
}

export interface HarnessOptions {
  dbPath?: string;
  service?: string;
  now?: () => number;
  /** Replaces the location port (to say the budget is low, say). */
  lookup?: (api: ApiClient) => LocationLookup;
  bot?: Partial<BotOptions>;
}

export function harness(sandbox: Sandbox, options: HarnessOptions = {}): Harness {
  const store = openStore(options.dbPath ?? tempDbPath());
  const now = options.now ?? Date.now;
  const service = options.service ?? 'sandbox';
  const api = new ApiClient({ baseUrl: sandbox.url!, key: sandbox.key, retry: { attempts: 1 } });
  const locations = new LocationResolver(
    options.lookup ? options.lookup(api) : api,
    createLocationCacheRepo(store, now, service),
    7 * DAY,
  );
  const bot = new Bot({
    api,
    locations,
    state: createButtonStateRepo(store, now, service),
    logger: silentLogger,
    ...options.bot,
  });
  return {
    bot,
    store,
    api,
    async close() {
      await api.close();
      store.close();
    },
  };
}

export const ask = (bot: Bot, text: string, surface?: { cardsPerPage: number; buttonsPerCard: number }) =>
  bot.handleCommand({ user: 'U1', channel: 'test:1', text, ...(surface ? { surface } : {}) });

export const press = (bot: Bot, button: Button) =>
  bot.handleAction({ user: 'U1', channel: 'test:1', action: button.action, token: button.token });

/** Every button of a reply: the actions rows and the cards' own buttons. */
export function buttons(reply: Reply): Button[] {
  return reply.blocks.flatMap((b: Block) =>
    b.kind === 'actions' ? [...b.buttons] : b.kind === 'card' ? [...(b.card.buttons ?? [])] : [],
  );
}

export function button(reply: Reply, label: RegExp): Button {
  const found = buttons(reply).find((b) => label.test(b.label));
  if (!found) throw new Error(`no button ${label} in ${reply.text}`);
  return found;
}

export const cards = (reply: Reply) => reply.blocks.flatMap((b) => (b.kind === 'card' ? [b.card] : []));

/** The property ids of a reply's listing cards, from their links (`…/property/<id>`). */
export const propertyIds = (reply: Reply): string[] =>
  Array.from(JSON.stringify(reply.blocks).matchAll(/property\/\d+/g), (m) => m[0]);

export const buttonRows = (store: Store) =>
  store.sqlite.prepare('SELECT COUNT(*) AS n FROM button_state').get() as { n: number };

/**
 * A sandbox on loopback and a harness over it for the whole file: started before its tests, closed after them. The
 * getters answer what was started (read them inside a test or hook, not at import).
 */
export function sandboxHarness(options: SandboxOptions = {}): { readonly sandbox: Sandbox; readonly h: Harness } {
  let sandbox: Sandbox | undefined;
  let h: Harness | undefined;
  beforeAll(async () => {
    sandbox = createSandbox(options);
    await sandbox.listen();
    h = harness(sandbox);
  });
  afterAll(async () => {
    await h?.close();
    await sandbox?.close();
    removeTempDirs();
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get h() {
      return h!;
    },
  };
}
