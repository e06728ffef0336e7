// `/compare`: the areas named resolved as digests resolve them, compared from the shared market cache (src/market),
// with one chart of their trends, as a platform-neutral reply. Refusals go only to the person who asked.
import { renderComparisonChart } from '../charts/index.js';
import { sparkline } from '../views/sparkline.js';
import { imageOf, trendChartPoints } from '../digests/index.js';
import type { LocationResolver } from '../locations/index.js';
import type { Logger } from '../log.js';
import { bucketLabel, CallMeter, compareAreas, type Comparison, type MarketData } from '../market/index.js';
import type { CompareAsk } from '../query/index.js';
import { compareReply } from '../views/compare.js';
import type { ImageFile, Reply } from '../views/model.js';

export interface CompareCommandsOptions {
  market: MarketData;
  locations: Pick<LocationResolver, 'resolve'>;
  logger: Logger;
}

/** A refusal before anything was compared: private, and free of the person's runs. */
const ephemeral = (text: string): Reply => ({
  text,
  blocks: [{ kind: 'text', text }],
  ephemeral: true,
  foundNothing: true,
});

export class CompareCommands {
  constructor(private readonly o: CompareCommandsOptions) {}

  /** The comparison asked for; a name that is no area, or several, is asked about privately. */
  async handle(ask: CompareAsk): Promise<Reply> {
    const areas: { id: number; name: string }[] = [];
    for (const typed of ask.areas) {
      const r = await this.o.locations.resolve(typed);
      if (r.kind === 'ambiguous') {
        const names = r.choices.slice(0, 5).map((c) => c.name);
        return ephemeral(
          `"${typed}" matches several areas: ${names.join(', ')}. Say which, in quotes: for example \`/compare "${names[0]}", …\`.`,
        );
      }
      if (r.kind === 'none') {
        const close = r.suggestions.slice(0, 3).map((c) => c.name);
        return ephemeral(
          `I couldn't find an area called "${typed}".${close.length ? ` Did you mean ${close.join(', ')}?` : ''}`,
        );
      }
      if (!areas.some((a) => a.id === r.location.id)) areas.push({ id: r.location.id, name: r.location.name });
    }
    if (areas.length < 2)
      return ephemeral(`Those are one area, ${areas[0]?.name ?? ''}: name another to compare it with.`);
    const meter = new CallMeter();
    const comparison = await compareAreas(
      this.o.market,
      areas,
      {
        ...(ask.bedrooms !== undefined ? { bedrooms: ask.bedrooms } : {}),
        ...(ask.kind ? { kind: ask.kind } : {}),
      },
      { meter },
    );
    this.o.logger.info('areas compared', {
      areas: areas.map((a) => a.id),
      calls: meter.calls,
      failed: comparison.areas.filter((a) => a.state === 'failed').length,
    });
    return compareReply(comparison, await chartOf(comparison));
  }
}

/** One chart of the areas' AED per sqft over the trend's months, for the bedroom count asked (else 2 bedrooms). */
async function chartOf(comparison: Comparison): Promise<ImageFile | undefined> {
  const charted = comparison.areas.flatMap((a) => (a.trend ? [{ name: a.area.name, bucket: a.trend }] : []));
  if (charted.length === 0) return undefined;
  const bucket = charted[0]!.bucket.bucket;
  const title = `${bucket === 'studio' ? 'Studio' : `${bucketLabel(bucket).replace('-bed', '-bedroom')}`} AED per sqft, compared`;
  const chart = await renderComparisonChart({
    title,
    areas: charted.map((x) => ({ name: x.name, points: trendChartPoints(x.bucket) })),
    yLabel: 'AED per sqft',
    xLabel: 'Month',
  });
  const fallback = charted.map((x) => `${x.name} ${sparkline(x.bucket.series.map((s) => s.ppsf))}`).join('\n');
  return imageOf(chart, 'compare.png', title, fallback);
}
