// `manzil parse` reads a text as the bot routes it (issue 39): value, compare, alerts and digests as well as searches,
// after a leading "@manzil" or "hey manzil". The bin's line for each input equals the bot's own reading of it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readingOf } from '../../src/bot/pipeline/reading.js';
import { understand } from '../../src/bot/pipeline/understand.js';
import { silentLogger } from '../../src/log.js';
import { manzilArgs } from '../support/child.js';

/** Each input and the part of the bot that answers it. */
const CORPUS: [string, string][] = [
  ['/value jvc 2br 1200 sqft', 'value'],
  ['value marina studio', 'value'],
  ['is 1.8m fair for a 2 bed in jvc?', 'value'],
  ['what would a 1,200 sqft 2br in marina rent for', 'value'],
  ['hey manzil value jvc 2br', 'value'],
  ['@manzil is 2m overpriced for a 3 bed villa in arabian ranches', 'value'],
  ['marina vs jlt', 'compare'],
  ['/compare marina, jlt 2br', 'compare'],
  ['@manzil compare marina, jlt', 'compare'],
  ['<@U123ABC> compare jvc and jvt rent', 'compare'],
  ['is jvc or jlt better for a 2 bed?', 'compare'],
  ['alerts list', 'alerts'],
  ['hey manzil alerts add rent marina 2br', 'alerts'],
  ['/digest list', 'digests'],
  ['help rent', 'say'],
  ['thanks!', 'say'],
  ['rent marina 2br under 120k', 'search'],
  ['@manzil rent marina 2br', 'search'],
  ['what did 2br in marina sell for', 'search'],
  ['rent marina 9999 bedrooms', 'error'],
];

const routeOf = (json: Record<string, unknown>) =>
  'operation' in json ? 'search' : 'error' in json ? 'error' : String(json.route);

describe('manzil parse routes as the bot does', () => {
  it('prints, for every input, the part the bot answers it with and what that part is given', () => {
    const r = spawnSync(process.execPath, manzilArgs('parse'), {
      input: CORPUS.map(([t]) => t).join('\n'),
      encoding: 'utf8',
      env: { ...process.env, UAE_API_KEY: '', MANZIL_FROM_SOURCE: '1' },
      timeout: 60_000,
    });
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(CORPUS.length);
    const on = { alerts: true, digests: true, compare: true, value: true };
    CORPUS.forEach(([text, route], i) => {
      expect({ text, route: routeOf(lines[i]!) }).toEqual({ text, route });
      expect(lines[i]).toEqual(readingOf(text));
      // And the bot's own routing of the same text names the same part.
      const u = understand({ user: 'u', channel: 'c', text }, on, silentLogger);
      const bot = 'search' in u ? 'search' : 'say' in u ? (u.refused ? 'error' : 'say') : Object.keys(u)[0];
      expect({ text, bot }).toEqual({ text, bot: route });
    });
  });

  it('gives a value what the bot gives it: the area, bedrooms and size', () => {
    expect(readingOf('/value jvc 2br 1200 sqft')).toEqual({
      route: 'value',
      area: 'jvc',
      bedrooms: 2,
      propertyType: 'apartment',
      sizeSqft: 1200,
    });
    expect(readingOf('@manzil compare marina, jlt')).toEqual({ route: 'compare', areas: ['marina', 'jlt'] });
  });
});
