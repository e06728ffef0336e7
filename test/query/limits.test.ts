// The limits on what is read and what is sent upstream: the command length (judged on normalised text) and the area
// words.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';
import { MAX_LENGTH, AREA_MAX_CHARS, AREA_MAX_WORDS, RAW_MAX_LENGTH } from '../../src/query/text.js';
import { parsed } from './helpers.js';

function refusal(text: string): string {
  const result = parseCommand(text);
  if (result.ok) expect.fail(`"${text.slice(0, 60)}…" was accepted: ${JSON.stringify(result.query).slice(0, 200)}`);
  return result.error;
}

describe('normalisation before the length limit', () => {
  it('reads full-width digits and letters as ordinary ones', () => {
    const q = parsed('/rent marina ２ｂｒ under １２０ｋ');
    expect(q.params).toMatchObject({ bedrooms: '2', price_max: '120000' });
    expect(q.location).toBe('marina');
  });

  it('judges a command over the limit as typed but within it once normalised by its normalised length', () => {
    // 'e' + a combining acute accent is two characters as typed and one (é) once normalised.
    const text = `/rent marina 2br ${'e\u0301'.repeat(250)}`;
    expect(text.length).toBeGreaterThan(MAX_LENGTH);
    expect(text.normalize('NFKC').length).toBeLessThanOrEqual(MAX_LENGTH);
    // Read, not refused for its length: what stops it now is the area bound, further on.
    expect(refusal(text)).toMatch(/^That place is 257 characters long/);
  });

  it('refuses a command within the limit as typed but over it once normalised (ligatures expand)', () => {
    const text = `/location ${'\uFB00'.repeat(300)}`; // each 'ﬀ' becomes 'ff'
    expect(text.length).toBeLessThanOrEqual(MAX_LENGTH);
    expect(refusal(text)).toBe(
      `That's ${text.normalize('NFKC').length} characters; I read commands of up to ${MAX_LENGTH}. Try something shorter, like "/rent marina 2br under 120k".`,
    );
  });

  it('refuses enormous input without normalising it, with the same message', () => {
    const text = '/rent marina ' + 'x'.repeat(RAW_MAX_LENGTH);
    expect(refusal(text)).toMatch(
      new RegExp(`^That's ${text.length} characters; I read commands of up to ${MAX_LENGTH}\\.`),
    );
  });
});

describe('area words sent upstream are bounded', () => {
  it('keeps ordinary long area names', () => {
    expect(parsed('/rent jumeirah village circle 2br').location).toBe('jumeirah village circle');
    expect(parsed('/buy "Mohammed Bin Rashid City District One" villa').location).toBe(
      'Mohammed Bin Rashid City District One',
    );
  });

  it(`refuses an area of more than ${AREA_MAX_WORDS} words, naming the limit`, () => {
    const error = refusal('/rent marina 2br near nice schools close to metro stations cafes parks beaches lawns');
    expect(error).toBe(
      `That place is 11 words long; I look places up by names of up to ${AREA_MAX_CHARS} characters and ${AREA_MAX_WORDS} words. ` +
        'Give the main name, like "Dubai Marina", and put filters such as "2br" or "under 120k" outside any quotes.',
    );
  });

  it('names the words that look like failed filters when they made the area long', () => {
    // "furnishd" is corrected (the summary says so); "bedrom" alone, with no count, is no filter and stays in the
    // area.
    const error = refusal(
      '/rent marina 2br furnishd under 120k bedrom near metro station cafes parks beaches malls schools',
    );
    expect(error).toMatch(/^That place is \d+ words long/);
    expect(error).toContain(`I didn't understand "bedrom"`);
  });

  it(`refuses a quoted area of more than ${AREA_MAX_CHARS} characters`, () => {
    const name = 'Al '.repeat(2) + 'x'.repeat(AREA_MAX_CHARS);
    expect(refusal(`/rent "${name}" 2br`)).toMatch(new RegExp(`^That place is ${name.length} characters long`));
  });

  it('bounds location lookups and each ADREC district too', () => {
    expect(refusal(`/location ${'jumeirah '.repeat(9)}`)).toMatch(/^That place is 9 words long/);
    expect(parsed('/manzil adrec "Al Reem Island", "Yas Island"').params.district).toBe('Al Reem Island,Yas Island');
    expect(refusal(`/manzil adrec "Al Reem Island", "${'y'.repeat(AREA_MAX_CHARS + 1)}"`)).toMatch(
      /^That place is 81 characters long/,
    );
  });
});
