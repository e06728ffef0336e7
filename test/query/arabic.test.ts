// Requests in Arabic (issue 39), whole or mixed with English, terse and as sentences: each reads as the English command
// it says, whatever the spelling (alef forms, taa marbuta, yaa, tatweel, diacritics) and digits (Latin or
// Arabic-Indic), and the summary says how it was read.
import fc from 'fast-check';
import { escapeMrkdwn } from '../../adapters/slack/render-text.js';
import { describe, expect, it } from 'vitest';
import { ARABIC_AREA_NAMES } from '../../src/query/arabic-areas.js';
import { readArabic } from '../../src/query/arabic.js';
import { ARABIC_EXAMPLES } from '../../src/query/help.js';
import { compareRequest, helpText, parseCommand, summarize, type Query } from '../../src/query/index.js';
import { valueRequest } from '../../src/query/value.js';
import { parsed } from './helpers.js';

/** What is searched: the operation, its parameters and the area, not the notes. */
const searched = (q: Query) => ({ operation: q.operation, params: q.params, location: q.location });

describe('Arabic requests', () => {
  it.each([
    ['إيجار شقة غرفتين دبي مارينا', 'rent "Dubai Marina" apartment 2br'],
    ['rent دبي مارينا 2br', 'rent "Dubai Marina" 2br'],
    ['شقة للإيجار في دبي مارينا', 'rent "Dubai Marina" apartment'],
    ['أبحث عن فيلا للبيع في نخلة جميرا تحت ٥ مليون', 'buy "Palm Jumeirah" villa under 5m'],
    ['شراء شقة ثلاث غرف في الخليج التجاري أقل من 2 مليون درهم', 'buy "Business Bay" apartment 3br under 2m'],
    ['ايجار استوديو مفروش في جي ال تي تحت ٦٠ ألف', 'rent "Jumeirah Lake Towers" studio furnished under 60k'],
    ['إيجار شقة بين 80 و 120 ألف في البرشاء', 'rent "Al Barsha" apartment 80k-120k'],
    ['إيجار فيلا أكثر من ٢٠٠ ألف في المرابع العربية', 'rent "Arabian Ranches" villa over 200k'],
    ['شراء شقة مائة وخمسين ألف في قرية جميرا الدائرية', 'buy "Jumeirah Village Circle" apartment under 150k'],
    ['شراء فيلا مليون ونصف في السعديات', 'buy "Saadiyat Island" villa under 1.5m'],
    ['شراء تاون هاوس نصف مليون في داماك هيلز', 'buy "Damac Hills" townhouse under 500k'],
    ['معاملات بيع في وسط مدينة دبي الشهر الماضي', 'transactions sold "Downtown Dubai" last month'],
    ['مبيعات دبي مارينا آخر ٣ أشهر', 'transactions sold "Dubai Marina" last 3 months'],
    ['معاملات إيجار في ديرة آخر ٦ أشهر', 'transactions rented "Deira" last 6 months'],
    ['اتجاه الأسعار في قرية جميرا الدائرية', 'trend "Jumeirah Village Circle"'],
    ['مشاريع جديدة في جزيرة ياس', 'projects "Yas Island"'],
    ['إيجار مكتب في الخليج التجاري', 'rent "Business Bay" office'],
    ['للبيع محل في ديرة', 'buy "Deira" shop'],
    ['ايجار تاون هاوس 3 غرف نوم في داماك هيلز', 'rent "Damac Hills" townhouse 3br'],
    ['إيجار شقة غرفة في الريم شهريا', 'rent "Al Reem Island" apartment 1br monthly'],
    ['rent marina غرفتين under 100k', 'rent marina 2br under 100k'],
    ['أبحث عن شقة للإيجار في مرسى دبي من فضلك', 'rent "Dubai Marina" apartment'],
    ['rent "دبي مارينا" 2br', 'rent "Dubai Marina" 2br'],
    ['إيجار شقة «نخلة جميرا» حمامين', 'rent "Palm Jumeirah" apartment 2 baths'],
    ['إيجار شقة "حي الورود"', 'rent "حي الورود" apartment'],
    ['أبحث عن شقة من غرفتين في دبي مارينا للإيجار', 'rent "Dubai Marina" apartment 2br'],
    ['إيجار شقة من ٨٠ ألف إلى ١٢٠ ألف في البرشاء', 'rent "Al Barsha" apartment 80k-120k'],
    ['أسعار الشقق في دبي مارينا', 'trend "Dubai Marina" apartments'],
  ])('%s reads as `%s`', (arabic, english) => {
    const query = parsed(arabic);
    expect(searched(query)).toEqual(searched(parsed(english)));
    expect(summarize(query)).toMatch(/\(read as: [^)]*\)$/);
  });

  it('says in the summary how it was read, in the language\'s words: "read as: rent apartment 2br Dubai Marina"', () => {
    expect(parsed('إيجار شقة غرفتين دبي مارينا').corrections).toEqual(['read as: rent apartment 2br Dubai Marina']);
  });

  it('leaves English alone: no Arabic letter, no pre-pass (Arabic-Indic digits are read by the tokenizer)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 80 }), (text) => {
        expect(readArabic(text)).toBeUndefined();
      }),
    );
    expect(readArabic('rent marina ٢br')).toBeUndefined();
  });

  it('reads compare, value, alerts and digest requests in Arabic', () => {
    expect(compareRequest(readArabic('قارن دبي مارينا و أبراج بحيرات جميرا غرفتين')!)).toEqual({
      areas: ['Dubai Marina', 'Jumeirah Lake Towers'],
      bedrooms: 2,
    });
    expect(compareRequest(readArabic('دبي مارينا مقابل قرية جميرا الدائرية')!)).toEqual({
      areas: ['Dubai Marina', 'Jumeirah Village Circle'],
    });
    expect(valueRequest(readArabic('قيمة شقة غرفتين في قرية جميرا الدائرية 1200 قدم مربع')!)).toEqual({
      ask: { area: 'Jumeirah Village Circle', bedrooms: 2, propertyType: 'apartment', sizeSqft: 1200 },
    });
    expect(readArabic('تنبيهات')).toBe('alerts');
    expect(readArabic('ملخص')).toBe('digest');
  });

  it('help shows Arabic examples, each of which reads as a search, and still fits one Slack section', () => {
    const help = helpText();
    // Help is one text block: Slack cuts a section beyond 3,000 characters of escaped mrkdwn, losing its last lines.
    expect(escapeMrkdwn(help).length).toBeLessThanOrEqual(3_000);
    for (const example of ARABIC_EXAMPLES) {
      expect(help).toContain(example);
      const result = parseCommand(example);
      expect(result.ok && result.query.corrections?.[0], example).toMatch(/^read as: /);
    }
  });

  // --- Generated requests: parts in Arabic beside the English they mean --------------------------------------------

  const digits = (n: number, arabicIndic: boolean) =>
    arabicIndic ? String(n).replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))) : String(n);

  /** A spelling people type for the same word: alef forms, taa marbuta as haa, final yaa as alef maqsura, tatweel, a vowel mark. */
  const variant = (word: string, seed: number): string => {
    let out = word;
    if (seed & 1) out = out.replace(/^[اأإ]/, ['ا', 'أ', 'إ'][seed % 3]!);
    if (seed & 2) out = out.replace(/ة$/, 'ه');
    if (seed & 4) out = out.replace(/ي$/, 'ى');
    if (seed & 8 && out.length > 2) out = `${out.slice(0, 2)}\u0640${out.slice(2)}`;
    if (seed & 16 && out.length > 1) out = `${out.slice(0, 1)}\u064E${out.slice(1)}`;
    return out;
  };
  const respell = (text: string, seed: number) =>
    text
      .split(' ')
      .map((w, k) => (/[\u0621-\u064A]/.test(w) ? variant(w, seed + k * 7) : w))
      .join(' ');

  const area = fc.constantFrom(...ARABIC_AREA_NAMES.flatMap(([name, ...s]) => s.map((a) => [a, name] as const)));
  const bedrooms = fc.oneof(
    fc.constant(['غرفة', '1br'] as const),
    fc.constant(['غرفتين', '2br'] as const),
    fc.constant(['ثلاث غرف', '3br'] as const),
    fc.constant(['أربع غرف نوم', '4br'] as const),
    fc
      .record({ n: fc.integer({ min: 1, max: 7 }), indic: fc.boolean(), sleep: fc.boolean() })
      .map(({ n, indic, sleep }) => [`${digits(n, indic)} غرف${sleep ? ' نوم' : ''}`, `${n}br`] as const),
  );
  const type = fc.constantFrom(
    ['شقة', 'apartment'] as const,
    ['فيلا', 'villa'] as const,
    ['تاون هاوس', 'townhouse'] as const,
    ['', ''] as const,
  );
  const rentPrice = fc
    .record({
      low: fc.integer({ min: 20, max: 150 }),
      span: fc.integer({ min: 10, max: 200 }),
      indic: fc.boolean(),
      form: fc.constantFrom('تحت', 'أقل من', 'فوق', 'أكثر من', 'بين', ''),
    })
    .map(({ low, span, indic, form }) => {
      const n = digits(low, indic);
      if (form === 'بين') return [`بين ${n} و ${digits(low + span, indic)} ألف`, `${low}k-${low + span}k`] as const;
      if (form === '') return ['', ''] as const;
      const bound = form === 'تحت' || form === 'أقل من' ? 'under' : 'over';
      return [`${form} ${n} ألف درهم`, `${bound} ${low}k`] as const;
    });

  it('property: a generated rent request in Arabic searches what its English says, in any spelling', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(['إيجار', 'rent'] as const, ['ايجار', 'rent'] as const, ['rent', 'rent'] as const),
        type,
        bedrooms,
        rentPrice,
        fc.constantFrom(['مفروشة', 'furnished'] as const, ['غير مفروشة', 'unfurnished'] as const, ['', ''] as const),
        area,
        fc.constantFrom('', 'في '),
        fc.nat(1 << 10),
        (verb, [ta, te], [ba, be], [pa, pe], [fa, fe], [aa, ae], inWord, seed) => {
          const arabic = respell([verb[0], ta, ba, pa, fa, `${inWord}${aa}`].filter(Boolean).join(' '), seed);
          const english = ['rent', `"${ae}"`, te, be, pe, fe].filter(Boolean).join(' ');
          const want = parseCommand(english);
          const got = parseCommand(arabic);
          expect(want.ok, english).toBe(true);
          expect(got.ok && searched(got.query), `${arabic} (${english})`).toEqual(want.ok && searched(want.query));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: a generated sale or past-sales request in Arabic searches what its English says', () => {
    fc.assert(
      fc.property(
        area,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.constantFrom('sale', 'sold'),
        fc.nat(1 << 10),
        ([aa, ae], months, millions, indic, kind, seed) => {
          const [arabic, english] =
            kind === 'sale'
              ? [`شراء فيلا تحت ${digits(millions, indic)} مليون في ${aa}`, `buy "${ae}" villa under ${millions}m`]
              : [`مبيعات ${aa} آخر ${digits(months, indic)} أشهر`, `transactions sold "${ae}" last ${months} months`];
          const want = parseCommand(english);
          expect(want.ok, english).toBe(true);
          const got = parseCommand(respell(arabic, seed));
          expect(got.ok && searched(got.query), arabic).toEqual(want.ok && searched(want.query));
        },
      ),
      { numRuns: 300 },
    );
  });
});
