// Charts: the PNG decodes at the expected size and matches its golden image; the SVG carries the title, axis titles and
// legend; Arabic draws real glyphs; the same input gives the same bytes; thin data gives a clear answer; sparklines.
//
// Golden images: test/charts/golden/*.png. After an intended change to the look of a chart, regenerate them with
//   UPDATE_GOLDEN=1 npx vitest run test/charts
// then look at the new images before committing them. A render matches its golden image when the mean absolute
// difference over all channels is under 2 % and under 1 % of the pixels differ by more than 64 in some channel
// (room for anti-aliasing that differs between CPUs, none for a moved or missing element).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Chart, NoChart, TrendChartInput } from '../../src/charts/index.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, renderComparisonChart, renderTrendChart } from '../../src/charts/index.js';
import { COMPARISON, MARINA, series } from './fixtures.js';
import { PNG_SIGNATURE, compareImages, decodePng, pngSize } from './png.js';

const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const MAX_MEAN_DIFF = 0.02;
const MAX_CHANGED_PIXELS = 0.01;

function drawn(result: Chart | NoChart): Chart {
  if (result.empty) throw new Error(`expected a chart, got none: ${result.altText}`);
  return result;
}

function matchesGolden(name: string, png: Buffer) {
  const file = path.join(GOLDEN_DIR, `${name}.png`);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, png);
  }
  if (!existsSync(file)) throw new Error(`no golden image ${file}: run UPDATE_GOLDEN=1 npx vitest run test/charts`);
  const diff = compareImages(decodePng(png), decodePng(readFileSync(file)));
  expect(diff.mean, `mean difference from ${name}.png`).toBeLessThan(MAX_MEAN_DIFF);
  expect(diff.changed, `pixels changed from ${name}.png`).toBeLessThan(MAX_CHANGED_PIXELS);
}

const svgText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('renderTrendChart', () => {
  it('draws a PNG of the default size that matches the golden image', async () => {
    const chart = drawn(await renderTrendChart(MARINA));
    expect(chart.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(pngSize(chart.png)).toEqual({ width: DEFAULT_WIDTH, height: DEFAULT_HEIGHT });
    expect([chart.width, chart.height]).toEqual([DEFAULT_WIDTH, DEFAULT_HEIGHT]);
    const image = decodePng(chart.png);
    expect(image.rgba.subarray(0, 4)).toEqual(Buffer.from([255, 255, 255, 255])); // a white background, opaque
    matchesGolden('trend', chart.png);
  });

  it('names the area, the axes and every series in the SVG', async () => {
    const { svg } = drawn(await renderTrendChart(MARINA));
    for (const text of [
      MARINA.title,
      'Dec 2025 to Nov 2026',
      'AED per sqft',
      'Month',
      'Bedrooms',
      ...MARINA.series.map((s) => s.name),
    ]) {
      expect(svg).toContain(`>${svgText(text)}<`);
    }
    expect(svg).toContain('2,200'); // thousands separators on the y axis
    expect(svg).toMatch(/font-family="&quot;Noto Sans&quot;, &quot;Noto Sans Arabic&quot;"/);
    expect(svg).not.toMatch(/font-family="(sans-serif|Helvetica)/);
  });

  it('describes the chart in its alt text', async () => {
    const chart = await renderTrendChart(MARINA);
    expect(chart.altText).toBe(
      'AED per sqft in Dubai Marina, Dec 2025 to Nov 2026: Studio from 1,650 to 1,702 (+3.2 %); 1 bed from 1,880 to 1,955 (+4.0 %); ' +
        '2 bed from 2,100 to 2,230 (+6.2 %); 3 bed from 2,310 to 2,290 (-0.9 %); 4+ bed from 2,580 to 2,490 (-3.5 %).',
    );
  });

  it('gives the same bytes for the same input, also when charts are drawn at once', async () => {
    const a = drawn(await renderTrendChart(MARINA));
    const b = drawn(await renderTrendChart(MARINA));
    expect(b.svg).toBe(a.svg);
    expect(b.png.equals(a.png)).toBe(true);
    const together = await Promise.all([
      renderTrendChart(MARINA),
      renderComparisonChart(COMPARISON),
      renderTrendChart(MARINA),
    ]);
    expect(drawn(together[0]!).png.equals(a.png)).toBe(true);
    expect(drawn(together[2]!).svg).toBe(a.svg);
  });

  it('draws an Arabic area name with its own glyphs', async () => {
    const render = async (area: string) =>
      drawn(await renderTrendChart({ ...MARINA, title: `AED per sqft in ${area}` })).png;
    const arabic = await render('دبي مارينا');
    // Missing glyphs would draw nothing, or the same box for every letter: both would match one of these.
    const blank = await render(' '.repeat('دبي مارينا'.length));
    const otherLetters = await render('نخلة جميرا');
    expect(arabic.equals(blank)).toBe(false);
    expect(arabic.equals(otherLetters)).toBe(false);
    const diff = compareImages(decodePng(arabic), decodePng(blank));
    expect(diff.changed).toBeGreaterThan(0.0005); // a title's worth of dark pixels
  });

  it('takes a size and a scale', async () => {
    const chart = drawn(await renderTrendChart({ ...MARINA, width: 600, height: 400, scale: 2 }));
    expect(pngSize(chart.png)).toEqual({ width: 1200, height: 800 });
    expect([chart.width, chart.height]).toEqual([1200, 800]);
  });

  it('compares areas, one line each, and matches its golden image', async () => {
    const chart = drawn(await renderComparisonChart(COMPARISON));
    for (const area of COMPARISON.areas) expect(chart.svg).toContain(`>${area.name}<`);
    expect(chart.altText).toContain('Dubai Marina from 2,100 to 2,230 (+6.2 %)');
    matchesGolden('comparison', chart.png);
  });
});

describe('thin data', () => {
  const base: Omit<TrendChartInput, 'series'> = { title: 'AED per sqft in Dubai Marina', yLabel: 'AED per sqft' };

  it('answers empty, with words, when there is nothing at all', async () => {
    expect(await renderTrendChart({ ...base, series: [] })).toEqual({
      empty: true,
      altText: 'AED per sqft in Dubai Marina: no data to chart.',
    });
    const none = await renderTrendChart({ ...base, series: [{ name: 'Studio', points: [] }] });
    expect(none).toEqual({ empty: true, altText: 'AED per sqft in Dubai Marina: no data to chart.' });
  });

  it('answers empty when no series has two months: one point is not a trend', async () => {
    const result = await renderTrendChart({
      ...base,
      series: [
        { name: 'Studio', points: [{ month: '2026-11', value: 1702 }] },
        { name: '1 bed', points: [{ month: '2026-11', value: 1955 }] },
      ],
    });
    expect(result).toEqual({
      empty: true,
      altText: 'AED per sqft in Dubai Marina, Nov 2026: Studio 1,702 (Nov 2026 only); 1 bed 1,955 (Nov 2026 only).',
    });
  });

  it('draws the series that have data, a single point as a dot, and names the ones without', async () => {
    const chart = drawn(
      await renderTrendChart({
        ...base,
        series: [
          series('2 bed', 2100, 2230),
          { name: 'Studio', points: [{ month: '2026-11', value: 1702 }] },
          { name: '4+ bed', points: [] },
        ],
      }),
    );
    expect(decodePng(chart.png).width).toBe(DEFAULT_WIDTH);
    expect(chart.svg).toContain('>2 bed<');
    expect(chart.svg).toContain('>Studio<');
    expect(chart.svg).not.toContain('>4+ bed<');
    expect(chart.altText).toBe(
      'AED per sqft in Dubai Marina, Dec 2025 to Nov 2026: 2 bed from 2,100 to 2,230 (+6.2 %); Studio 1,702 (Nov 2026 only); 4+ bed: no data.',
    );
  });

  it('drops bad points, sorts months, keeps the last value given for a month and fills missing months on the axis', async () => {
    const chart = drawn(
      await renderTrendChart({
        ...base,
        series: [
          {
            name: '2 bed',
            points: [
              { month: '2026-03', value: 2150 },
              { month: '2026-01', value: Number.NaN },
              { month: 'March', value: 9999 },
              { month: '2025-12', value: 2000 },
              { month: '2025-12', value: 2100 },
              { month: '2026-13', value: 1 },
            ],
          },
        ],
      }),
    );
    expect(chart.altText).toBe(
      'AED per sqft in Dubai Marina, Dec 2025 to Mar 2026: 2 bed from 2,100 to 2,150 (+2.4 %).',
    );
    expect(chart.svg).not.toContain('9,999');
    expect(chart.svg).toContain('>Feb<'); // a month with no point still has its place on the axis
  });
});
