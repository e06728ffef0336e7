// The shared subcommand table with a third kind of its own (a "note", kept in memory: a kind is what a folder supplies,
// the table is what is tested): a subcommand the kind's language names but the kind does not run is refused and
// changes nothing, and what came as a value is answered as the same text typed is.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { StandingOrderCommands, type OrderRow } from '../../src/standing-orders/commands.js';
import type { OrderLanguage } from '../../src/standing-orders/language.js';

type NoteCommand =
  | { kind: 'note'; sub: 'help' | 'list' }
  | { kind: 'note'; sub: 'pause' | 'remove' | 'peek'; number: number }
  | { kind: 'note'; sub: 'resume'; number?: number }
  | { kind: 'note'; sub: 'add'; words: string };

const LANGUAGE: OrderLanguage<NoteCommand> = {
  kind: 'note',
  noun: 'note',
  command: '/notes',
  help: 'Notes: `/notes add <words>`',
  addWords: ['add'],
  add: { parse: (words) => ({ kind: 'note', sub: 'add', words }), text: (c) => ('words' in c ? c.words : '') },
  // Named here, but the kind below runs no `peek`.
  inspect: ['peek'],
};

function notes() {
  const rows: (OrderRow & { words: string })[] = [
    { id: 1, channel: 'slack:T1:C1', number: 1, owner: 'U1', paused: false, words: 'hello' },
  ];
  const commands = new StandingOrderCommands<OrderRow & { words: string }, NoteCommand>({
    language: LANGUAGE,
    madeVerb: 'wrote',
    logKey: 'note',
    repo: {
      listByChannel: async () => rows,
      byNumber: async (_channel, n) => rows.find((r) => r.number === n),
      setPaused: async (id, paused) =>
        void Object.assign(
          rows.find((r) => r.id === id)!,
          { paused },
        ),
      remove: async (id) =>
        void rows.splice(
          rows.findIndex((r) => r.id === id),
          1,
        ),
    },
    logger: createLogger({ level: 'error', write: () => {} }),
    add: async (_ctx, c) => {
      rows.push({ id: 2, channel: 'slack:T1:C1', number: 2, owner: 'U1', paused: false, words: c.words });
      return { text: `Saved note #2: ${c.words}.`, blocks: [{ kind: 'text', text: `Saved note #2: ${c.words}.` }] };
    },
    describe: (r) => `#${r.number} · ${r.words}`,
    listFooter: '',
    paused: (r) => `Paused note #${r.number}.`,
    resume: async (r) => {
      r.paused = false;
      return { text: `Resumed note #${r.number}.`, blocks: [] };
    },
    title: (r) => r.words,
  });
  return { rows, commands };
}
const ctx = { user: 'U1', channel: 'test:c1' };

describe('the shared subcommand table', () => {
  it('refuses a subcommand the kind does not run, typed or as a value, and changes nothing', async () => {
    const { rows, commands } = notes();
    const refused = 'I don\'t know "/notes peek".\nNotes: `/notes add <words>`';
    expect((await commands.handle(ctx, 'peek 1')).text).toBe(refused);
    expect((await commands.run(ctx, { kind: 'note', sub: 'peek', number: 1 })).text).toBe(refused);
    expect(rows).toHaveLength(1);
  });

  it('answers a value as the same text typed, and a saved one says the command typed', async () => {
    const { commands } = notes();
    const typed = await commands.handle(ctx, 'pause 1');
    await commands.handle(ctx, 'resume 1');
    expect(await commands.runBuilt(ctx, { kind: 'note', sub: 'pause', number: 1 })).toEqual(typed);
    const saved = await commands.runBuilt(ctx, { kind: 'note', sub: 'add', words: 'buy milk' });
    expect(saved.text).toBe('Saved note #2: buy milk.\nTyped: `/notes add buy milk`');
    expect(saved.blocks.at(-1)).toEqual({ kind: 'context', text: 'Typed: `/notes add buy milk`' });
  });
});
