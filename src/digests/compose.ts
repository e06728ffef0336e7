// A digest made from the market figures of each area (src/market, cached and shared) and its charts (src/charts),
// as the payload the outbox keeps: the figures and the PNGs are fixed at composing, so a retried post shows the same.
import { renderComparisonChart, renderTrendChart, type Chart, type NoChart } from '../charts/index.js';
import { sparkline } from '../views/sparkline.js';
import { CallMeter, composeAreaDigest, type MarketData, type AreaDigest, type TrendBucket } from '../market/index.js';
import type { ImageFile } from '../views/model.js';
import type { FollowedArea } from './codec.js';
import type { ComposeRequest, DigestComposer } from './job.js';
import { DIGEST_KIND } from './job.js';

export interface DigestPayload {
  v: 1;
  kind: typeof DIGEST_KIND;
  title: string;
  since: number;
  now: number;
  timezone: string;
  areas: AreaDigest[];
  /** One chart per area with a trend, then one comparing the areas (2 bedrooms) when there are several. */
  charts: ImageFile[];
}

const BUCKET_NAMES: Record<string, string> = {
  studio: 'Studio',
  '1': '1 bed',
  '2': '2 bed',
  '3': '3 bed',
  '4+': '4+ bed',
};

/** `YYYY-MM` of a trend point (its date, else its "Nov 2026" label). */
function monthOf(p: { date?: string; period: string }): string | undefined {
  if (p.date) return p.date.slice(0, 7);
  const d = new Date(`1 ${p.period} UTC`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 7);
}

export const points = (b: TrendBucket) =>
  b.series.flatMap((p) => (monthOf(p) ? [{ month: monthOf(p)!, value: p.ppsf }] : []));
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'area';

export function imageOf(
  chart: Chart | NoChart,
  name: string,
  title: string,
  fallback: string,
  labels: { yLabel?: string; xLabel?: string } = {},
): ImageFile | undefined {
  if (chart.empty) return undefined;
  const { months, series } = chart.data;
  return {
    name,
    title,
    alt: chart.altText,
    fallback,
    pngBase64: chart.png.toString('base64'),
    data: { months, series, ...labels },
  };
}

const PARTS = ['sold', 'rented', 'trend', 'newListings', 'projects'] as const;
/** A part could not be fetched because the client's circuit was open (not sent), not because the service failed it. */
const partsRefused = (d: AreaDigest) =>
  d.state === 'ok' && PARTS.some((k) => d[k].state === 'unavailable' && d[k].failure === 'unavailable');

export class MarketDigestComposer implements DigestComposer {
  constructor(
    private readonly market: MarketData,
    private readonly timezone: string,
    /**
     * The market's own clock when it is not the wall clock's (the sandbox's market time): periods keep their length.
     */
    private readonly marketNow?: () => number,
    /** How long an open circuit is waited out when the client does not say (UAE_API_BREAKER_COOLDOWN_S). */
    private readonly breakerWaitMs = 30_000,
  ) {}

  canAfford(areas: readonly FollowedArea[]): boolean {
    return this.market.coverage(areas.map((p) => p.id)).ok;
  }

  async compose(request: ComposeRequest): Promise<{ payload: string; calls: number; failed: number }> {
    const meter = new CallMeter();
    const areas: AreaDigest[] = [];
    const shift = this.marketNow ? this.marketNow() - request.now : 0;
    request = { ...request, since: request.since + shift, now: request.now + shift };
    // One place after another: they share the cache, and a digest of five areas is a background job, not a chat reply.
    const one = (p: FollowedArea) =>
      composeAreaDigest(
        this.market,
        { id: p.id, name: p.name },
        {
          since: new Date(request.since),
          now: new Date(request.now),
          meter,
          skipBudgetCheck: true,
          ...(request.signal ? { signal: request.signal } : {}),
        },
      );
    for (const p of request.areas) areas.push(await one(p));
    // One failing area can open the client's circuit for the areas after it: a patient run waits that out (a minute
    // at
    // most, up to three times) and tries those areas again, so an area is left out only for its own failure.
    for (let round = 0; request.patient && round < 3; round++) {
      // Refused by the open circuit: the whole area, or some of its parts (a half-open circuit lets one call through).
      const refused = areas.flatMap((d, i) => (d.failure?.kind === 'unavailable' || partsRefused(d) ? [i] : []));
      if (refused.length === 0) break;
      const wait = Math.min(
        60_000,
        Math.max(...refused.map((i) => areas[i]!.failure?.retryInMs ?? this.breakerWaitMs)),
      );
      await new Promise((r) => setTimeout(r, wait));
      // The last refused first: the area whose failures opened the circuit is usually the first of them, and would
      // open it again before the others had their turn.
      for (const i of refused.reverse()) areas[i] = await one(request.areas[i]!);
    }
    const payload: DigestPayload = {
      v: 1,
      kind: DIGEST_KIND,
      title: request.title,
      since: request.since,
      now: request.now,
      timezone: this.timezone,
      areas,
      charts: await this.charts(areas),
    };
    return {
      payload: JSON.stringify(payload),
      calls: meter.calls,
      failed: areas.filter((p) => p.state === 'failed').length,
    };
  }

  private async charts(areas: AreaDigest[]): Promise<ImageFile[]> {
    const LABELS = { yLabel: 'AED per sqft', xLabel: 'Month' };
    const images: ImageFile[] = [];
    for (const p of areas) {
      const buckets = p.trend.data?.buckets ?? [];
      if (buckets.length === 0) continue;
      const title = `AED per sqft in ${p.area.name}`;
      const fallback = buckets
        .map((b) => `${BUCKET_NAMES[b.bucket]} ${sparkline(b.series.map((s) => s.ppsf))}`)
        .join('\n');
      const chart = await renderTrendChart({
        title,
        series: buckets.map((b) => ({ name: BUCKET_NAMES[b.bucket]!, points: points(b) })),
        yLabel: 'AED per sqft',
        xLabel: 'Month',
        legendTitle: 'Bedrooms',
      });
      const image = imageOf(chart, `digest-${slug(p.area.name)}.png`, title, fallback, LABELS);
      if (image) images.push(image);
    }
    const twoBed = areas.flatMap((p) => {
      const b = p.trend.data?.buckets.find((x) => x.bucket === '2');
      return b ? [{ name: p.area.name, bucket: b }] : [];
    });
    if (twoBed.length > 1) {
      const title = '2-bedroom AED per sqft, compared';
      const chart = await renderComparisonChart({
        title,
        areas: twoBed.map((x) => ({ name: x.name, points: points(x.bucket) })),
        yLabel: 'AED per sqft',
        xLabel: 'Month',
      });
      const fallback = twoBed.map((x) => `${x.name} ${sparkline(x.bucket.series.map((s) => s.ppsf))}`).join('\n');
      const image = imageOf(chart, 'digest-comparison.png', title, fallback, LABELS);
      if (image) images.push(image);
    }
    return images;
  }
}
