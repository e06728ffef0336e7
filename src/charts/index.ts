// Charts as PNG images, with no browser: a Vega-Lite spec, compiled to Vega, rendered to SVG by a headless Vega view
// (renderer 'none'), rasterised by resvg with the fonts shipped in assets/fonts and never the system's, so the same
// input gives the same bytes on every machine and in Docker. Platform-neutral: the caller uploads or saves the PNG.
// Nothing here downloads anything: the data is inline and the view's loader refuses every URL.
import { renderAsync } from '@resvg/resvg-js';
// Types only (erased): the modules themselves are imported on the first chart.
import type * as VegaModule from 'vega';
import type * as VegaLiteModule from 'vega-lite';
import { clean, describe, monthLabel } from './data.js';
import type { Cleaned, TrendSeries } from './data.js';
import { FONT_FAMILY, defaultFontDir, fontPaths, textWidth } from './fonts.js';
import { trendSpec } from './spec.js';

export type { TrendPoint, TrendSeries } from './data.js';
export { FONT_FAMILY } from './fonts.js';

export type TrendChartInput = {
  /** Names the area: "AED per sqft in Dubai Marina". */
  title: string;
  /** Under the title; by default the period ("Dec 2025 to Nov 2026"). */
  subtitle?: string;
  /** One line each, in this order (colours and legend follow it): "Studio", "1 bed", ... or one per area. */
  series: readonly TrendSeries[];
  yLabel: string;
  xLabel?: string;
  /** The legend's heading ("Bedrooms"); none by default. */
  legendTitle?: string;
  /** The image's size in CSS pixels, 1000 x 560 by default; `scale` multiplies the PNG's pixels (2 for retina). */
  width?: number;
  height?: number;
  scale?: number;
  /** Where the TTF files are; assets/fonts of the repository by default. */
  fontDir?: string;
};

export type Chart = {
  empty: false;
  png: Buffer;
  /** The PNG's size in pixels. */
  width: number;
  height: number;
  svg: string;
  /** A short description: alt text, and the text to post when the image cannot be. */
  altText: string;
  /** The values the PNG draws (cleaned: data.ts), for a platform that draws the chart itself (Slack). */
  data: Cleaned;
};

/** Nothing to draw: no series has two months (a trend needs two points). `altText` still says what there was. */
export type NoChart = { empty: true; altText: string };

export const DEFAULT_WIDTH = 1000;
export const DEFAULT_HEIGHT = 560;
const MIN_SIZE = 200;
const MAX_SIZE = 4000;

/**
 * A line chart of values per month, one line per series (AED per sqft per bedroom count over 12 months, or one place
 * per line for a comparison). Points that are not finite or whose month is not YYYY-MM are dropped; a series left
 * without points is named in the alt text ("no data") and left out of the chart; a series of one point shows as a dot.
 * When no series has two points there is no trend to draw: the answer is `{ empty: true, altText }` and the caller
 * posts the text.
 */
export async function renderTrendChart(input: TrendChartInput): Promise<Chart | NoChart> {
  const data = clean(input.series);
  const altText = describe(input.title, data);
  if (!data.series.some((s) => s.points.length >= 2)) return { empty: true, altText };

  const width = size(input.width, DEFAULT_WIDTH);
  const height = size(input.height, DEFAULT_HEIGHT);
  const scale = Math.min(4, Math.max(0.25, input.scale ?? 1));
  const fontDir = input.fontDir ?? defaultFontDir();
  const months = data.months;
  const subtitle =
    input.subtitle ?? (months.length ? `${monthLabel(months[0]!)} to ${monthLabel(months[months.length - 1]!)}` : '');
  const spec = trendSpec(data, {
    title: input.title,
    subtitle,
    yLabel: input.yLabel,
    xLabel: input.xLabel ?? '',
    legendTitle: input.legendTitle ?? '',
    width,
    height,
  });
  const svg = await toSvg(spec, fontDir);
  const image = await renderAsync(svg, {
    font: {
      loadSystemFonts: false,
      fontFiles: fontPaths(fontDir),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: 'off',
  });
  return { empty: false, png: image.asPng(), width: image.width, height: image.height, svg, altText, data };
}

export type ComparisonChartInput = Omit<TrendChartInput, 'series' | 'legendTitle'> & {
  /** One line per area: its name and its points (the 2-bedroom AED per sqft of each, say). */
  areas: readonly TrendSeries[];
};

/** Several areas on one chart, one line each, the legend naming them. */
export function renderComparisonChart(input: ComparisonChartInput): Promise<Chart | NoChart> {
  const { areas, ...rest } = input;
  return renderTrendChart({ ...rest, series: areas });
}

const size = (v: number | undefined, fallback: number) =>
  v === undefined || !Number.isFinite(v) ? fallback : Math.round(Math.min(MAX_SIZE, Math.max(MIN_SIZE, v)));

type Vega = typeof VegaModule;
type VegaLite = typeof VegaLiteModule;
type TextItem = { fontSize?: number; fontWeight?: string | number; limit?: number };
let loaded: Promise<{ vega: Vega; vl: VegaLite }> | undefined;
let measuringWith: string | undefined;

/** Vega and Vega-Lite are ESM only and heavy: loaded on the first chart, not at start. */
function load() {
  loaded ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vl]) => {
    declareToJsonKey();
    return { vega, vl };
  });
  return loaded;
}

/**
 * Vega-Lite gives every Set a `toJSON()` on import, taking no argument. discord.js (through node-inspect-extracted)
 * calls each argument-less method of `Set.prototype` when it is first imported and fails on the string this one
 * returns, so a process that drew a chart before loading discord.js could not load it. The same method, declaring
 * the key JSON.stringify passes it anyway, is skipped there and works alike for Vega-Lite.
 */
function declareToJsonKey() {
  const own = Object.getOwnPropertyDescriptor(Set.prototype, 'toJSON');
  const vegaLites = own?.value as ((this: Set<unknown>) => unknown) | undefined;
  if (typeof vegaLites !== 'function' || vegaLites.length > 0) return;
  Object.defineProperty(Set.prototype, 'toJSON', {
    ...own,
    value: function toJSON(this: Set<unknown>, _key?: string) {
      return vegaLites.call(this);
    },
  });
}

async function toSvg(spec: ReturnType<typeof trendSpec>, fontDir: string): Promise<string> {
  const { vega, vl } = await load();
  if (measuringWith !== fontDir) {
    // Vega measures text to lay out titles, axes and legends; with no canvas it guesses 0.8 em a character. Measure
    // with the fonts resvg draws with instead (the way vl-convert does): a module-wide setting of Vega's, ours alone.
    const metrics = (vega as unknown as { textMetrics: { width: (item: TextItem, text: unknown) => number } })
      .textMetrics;
    metrics.width = (item, text) => {
      const s = text == null ? '' : String(text).trim();
      const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
      const w = textWidth(fontDir, s, item.fontSize ?? 11, bold);
      return item.limit && item.limit > 0 ? Math.min(w, item.limit) : w;
    };
    measuringWith = fontDir;
  }
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', loader: refusingLoader(vega) });
  // Clip-path ids count up across renders, module-wide: each SVG starts from 1, one at a time, so that the same chart
  // gives the same bytes whatever else is being drawn.
  const turn = svgTurn.then(async () => {
    try {
      await view.runAsync();
      vega.resetSVGDefIds();
      return await view.toSVG();
    } finally {
      view.finalize();
    }
  });
  svgTurn = turn.catch(() => undefined);
  return turn;
}
let svgTurn: Promise<unknown> = Promise.resolve();

function refusingLoader(vega: Vega) {
  const loader = vega.loader();
  const refuse = (uri: unknown) =>
    Promise.reject(new Error(`charts load nothing from outside (asked for ${String(uri)})`));
  return Object.assign(loader, { load: refuse, sanitize: refuse, http: refuse, file: refuse });
}
