// The one command list (src/query/commands.ts) and the help built from it (issue 16): `help` names every verb, and
// alerts and digests with their subcommands; the list's verbs are the parser's, its examples read as they say.
import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../../src/standing-orders/schedule.js';
import { SLASH_COMMANDS, findSlashCommand } from '../../src/query/commands.js';
import { compareRequest, helpText, parseCommand } from '../../src/query/index.js';
import { valueRequest } from '../../src/query/value.js';
import { VERB_TABLE, findVerb } from '../../src/query/verbs.js';

describe('the command list', () => {
  it('has one entry per command: lower-case names of at most 32 characters, descriptions of at most 100, usage hints', () => {
    const names = SLASH_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of SLASH_COMMANDS) {
      expect(c.name).toMatch(/^[a-z]{1,32}$/);
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.description.length).toBeLessThanOrEqual(100);
      expect(c.usage.length).toBeGreaterThan(0);
      expect((c.subcommands ?? []).length).toBeLessThanOrEqual(25);
      for (const s of c.subcommands ?? []) {
        expect(s.name).toMatch(/^[a-z]{1,32}$/);
        expect(s.usage.startsWith(s.name)).toBe(true);
        expect(s.description.length).toBeLessThanOrEqual(100);
      }
    }
    expect(names).toEqual(expect.arrayContaining(['manzil', 'alerts', 'digest']));
  });

  it('runs only verbs the parser knows, and each verb-backed example parses', () => {
    for (const c of SLASH_COMMANDS.filter((x) => x.kind === 'search' || x.kind === 'other')) {
      if (c.name === 'manzil') continue;
      // `/value` is read by its own reader (src/query/value.ts), with the command language's words.
      if (c.name === 'value') {
        expect(valueRequest(`/${c.name} ${c.example}`), c.name).toMatchObject({ ask: { bedrooms: 2 } });
        continue;
      }
      // /compare is no verb of a search: its example reads as areas to compare.
      if (c.name === 'compare') {
        expect(compareRequest(`/${c.name} ${c.example}`)).toEqual({ areas: ['marina', 'jlt'], bedrooms: 2 });
        continue;
      }
      expect(c.verb, c.name).toBeDefined();
      expect(findVerb(c.verb!)?.name, c.name).toBe(c.verb);
      expect(parseCommand(`/${c.name} ${c.example}`), c.name).toMatchObject({ ok: true });
    }
    expect(SLASH_COMMANDS.filter((c) => c.subcommands).map((c) => c.kind)).toEqual(['alerts', 'digest']);
    expect(SLASH_COMMANDS.filter((c) => c.subcommands).every((c) => c.verb === undefined)).toBe(true);
  });

  it('the /digest example and add usage read as the core reads a schedule', () => {
    const digest = findSlashCommand('digest')!;
    expect(digest.example).toMatch(/^add /);
    const read = parseSchedule(digest.example.replace(/^add /, ''));
    expect(read).toEqual({
      ok: true,
      schedule: { every: 'week', day: 5, time: '18:30' },
      rest: 'dubai marina, business bay',
    });
    expect(digest.usage).toContain('add <place>[, <place>...] [daily | weekly [on] <day> | monthly] [at HH:MM]');
    expect(digest.subcommands!.map((s) => s.name)).toEqual(['add', 'list', 'remove', 'pause', 'resume', 'now']);
  });

  it('finds a command with or without its slash, and `digests`/`alert` too', () => {
    expect(findSlashCommand('/digest')?.name).toBe('digest');
    expect(findSlashCommand('digests')?.name).toBe('digest');
    expect(findSlashCommand('alert')?.name).toBe('alerts');
    expect(findSlashCommand('fly')).toBeUndefined();
  });
});

describe('help', () => {
  const text = helpText();

  it('lists alerts and digests, with their subcommands and an example, after the verbs', () => {
    const lines = text.split('\n');
    const alerts = lines.find((l) => l.startsWith('• /alerts '));
    const digest = lines.find((l) => l.startsWith('• /digest '));
    expect(alerts).toBe(
      '• /alerts add|list|pause|resume|remove|test|…: Saved searches that post new listings to this channel. e.g. /alerts add rent marina 2br under 120k',
    );
    expect(digest).toContain('• /digest add|list|remove|pause|resume|now: Market digests');
    expect(digest).toContain('e.g. /digest add dubai marina, business bay weekly on friday at 18:30');
    expect(lines.indexOf(alerts!)).toBeGreaterThan(lines.findIndex((l) => l.startsWith('• /location ')));
    expect(text).toContain('say "help alerts" or "help digest"');
  });

  it('still lists every verb, and names those with no slash command of their own', () => {
    for (const verb of VERB_TABLE) expect(text).toContain(`• /${verb.name} `);
    expect(text).toContain('A verb without a slash command of its own (adrec, agent, broker) works after /manzil');
  });

  it('`help digest` and `help alerts` give each subcommand, one line each', () => {
    const digest = helpText('digest');
    for (const s of findSlashCommand('digest')!.subcommands!)
      expect(digest).toContain(`• /digest ${s.usage}: ${s.description}`);
    expect(helpText('digests')).toBe(digest);
    expect(helpText('/digest')).toBe(digest);
    const alerts = helpText('alerts');
    for (const s of findSlashCommand('alerts')!.subcommands!)
      expect(alerts).toContain(`• /alerts ${s.usage}: ${s.description}`);
    // A verb is still explained as before; an unknown word still names the verbs.
    expect(helpText('rent')).toMatch(/^\/rent <place> \[filters\]: /);
    expect(helpText('fly')).toMatch(/^I don't know "fly"\. The verbs are: rent, buy,/);
  });

  it('an unknown verb is answered with every command there is, from the verb and command tables', () => {
    const names = [
      ...VERB_TABLE.map((v) => v.name),
      ...SLASH_COMMANDS.filter((c) => c.name !== 'manzil').map((c) => c.name),
    ];
    for (const text of ['zoom marina', '/fly jvc', 'wibble business bay']) {
      const parsed = parseCommand(text);
      expect(parsed.ok).toBe(false);
      const error = parsed.ok ? '' : parsed.error;
      const listed = /(?:Try|start with) one of: ([^.]+)\./.exec(error)?.[1]?.split(', ') ?? [];
      expect(new Set(listed), text).toEqual(new Set(names));
    }
    const help = /The verbs are: ([^.]+)\./.exec(helpText('fly'))?.[1]?.split(', ') ?? [];
    expect(new Set(help)).toEqual(new Set(names));
  });

  it('`help compare` and `help value` give sentence examples, each read as that ask, and help quotes one of each', () => {
    /** The examples under "Examples:", and the quoted sentences of a line. */
    const examples = (text: string) =>
      text
        .split('\nExamples:\n')[1]!
        .split('\n')
        .map((l) => l.replace(/^• /, ''));
    const quoted = (line: string) => [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    const compare = helpText('compare');
    expect(compare).toMatch(/^\/compare <area>, <area>/);
    expect(helpText('/compare')).toBe(compare);
    const comparing = examples(compare);
    expect(comparing.filter((e) => !e.startsWith('/')).length).toBeGreaterThanOrEqual(2);
    for (const e of comparing) expect((compareRequest(e) as { areas?: string[] })?.areas, e).toHaveLength(2);
    const valuing = examples(helpText('value'));
    expect(valuing.filter((e) => !e.startsWith('/')).length).toBeGreaterThanOrEqual(2);
    for (const e of valuing) expect(valueRequest(e), e).toHaveProperty('ask');
    const line = (command: string) => text.split('\n').find((l) => l.startsWith(`• /${command} `))!;
    const compareSentences = quoted(line('compare')).filter((q) => compareRequest(q) !== undefined);
    expect(compareSentences.some((q) => /\bor\b.*\bbetter\b/.test(q))).toBe(true);
    for (const q of compareSentences) expect((compareRequest(q) as { areas?: string[] }).areas).toHaveLength(2);
    expect(line('compare')).toContain('say "help compare"');
    expect(quoted(line('value')).some((q) => valueRequest(q) && 'ask' in valueRequest(q)!)).toBe(true);
  });
});
