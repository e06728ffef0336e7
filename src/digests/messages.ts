// A digest as a chat message: per area, what sold and rented (count and median per bedroom count), the price trend,
// gross yields, new listings (the three cheapest per sqft against the trend as cards) and new off-plan projects,
// each part naming its period and source; then the charts. Built from the payload composed at its slot.
import { z } from 'zod';
import {
  bucketLabel,
  type BucketFigure,
  type DigestPart,
  type AreaDigest,
  type TransactionFigures,
} from '../market/index.js';
import { formatAed, formatNumber, possessive } from '../views/format.js';
import { listingGroupCard } from '../views/listing.js';
import type { Block, Reply } from '../views/model.js';
import type { DigestPayload } from './compose.js';
import { parseJson } from './codec.js';
import { DIGEST_KIND, DIGEST_NOTICE_KIND } from './job.js';
import { shortDate } from '../standing-orders/schedule.js';

// The figures are ours (written by this release or an older one): checked for shape, not re-validated in depth.
const currentPayload = z.object({
  v: z.literal(1),
  kind: z.literal(DIGEST_KIND),
  title: z.string(),
  since: z.number(),
  now: z.number(),
  timezone: z.string(),
  areas: z.array(z.looseObject({ area: z.object({ id: z.string(), name: z.string() }), state: z.string() })),
  charts: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      alt: z.string(),
      fallback: z.string(),
      pngBase64: z.string(),
      // The chart's values (digests queued before them have none: they show the PNG alone).
      data: z
        .object({
          months: z.array(z.string()),
          series: z.array(
            z.object({ name: z.string(), points: z.array(z.object({ month: z.string(), value: z.number() })) }),
          ),
          yLabel: z.string().optional(),
          xLabel: z.string().optional(),
        })
        .optional(),
    }),
  ),
});
/** Entries queued before issue 28's rename say `places` and `place`: read as `areas` and `area`, so none is lost. */
const payloadSchema = z.preprocess((v) => {
  if (typeof v !== 'object' || v === null || !('places' in v) || 'areas' in v) return v;
  const { places, ...rest } = v as { places: unknown };
  const areas = Array.isArray(places)
    ? places.map((p: unknown) => {
        if (typeof p !== 'object' || p === null || !('place' in p)) return p;
        const { place, ...part } = p as { place: unknown };
        return { area: place, ...part };
      })
    : places;
  return { ...rest, areas };
}, currentPayload);
const noticeSchema = z.object({ v: z.literal(1), kind: z.literal(DIGEST_NOTICE_KIND), text: z.string() });

const decodeWith =
  <T>(schema: z.ZodType<T>) =>
  (json: string): T | undefined =>
    parseJson(schema, json);

const BUCKET_HEAD: Record<string, string> = {
  studio: 'Studio',
  '1': '1 bed',
  '2': '2 beds',
  '3': '3 beds',
  '4+': '4+ beds',
};
const pct = (n: number | undefined) => (n === undefined ? '–' : `${n > 0 ? '+' : ''}${n.toFixed(1)} %`);
const MAX_CARD_AREAS = 2;

/**
 * "last 30 days · sales": the period and what the figures are made of, in words (the operations stay in the payload).
 */
function sourceLine(part: DigestPart<unknown>, what: string): string {
  return `${part.period.label} · ${what}`;
}

function unavailable(part: DigestPart<unknown>, name: string): Block[] {
  // An unavailable part without its failure kind was composed by an older release, whose reason was the raw error.
  const reason =
    part.state === 'unavailable' && !part.failure ? undefined : part.reason?.replace(/^too little data: /, '');
  return [
    {
      kind: 'text',
      text: `${name}: ${part.state === 'unavailable' ? 'could not be fetched' : 'too little data'}${reason ? ` (${reason})` : ''}.`,
    },
  ];
}

function medianCell(f: BucketFigure | TransactionFigures): string {
  if (f.count === 0) return '–';
  return f.thin || f.median === undefined ? `too little data (${f.priced})` : formatAed(Math.round(f.median));
}

function transactionsBlocks(
  part: DigestPart<TransactionFigures>,
  name: string,
  priceHead: string,
  what: string,
): Block[] {
  const f = part.data;
  if (part.state === 'unavailable' || !f) return unavailable(part, name);
  const total = `${f.atLeast ? 'at least ' : ''}${formatNumber(f.total)}`;
  // Past the page cap the median and the table are of the transactions read, the most recent: said so.
  const of = f.atLeast || f.count < f.total ? `; figures of the ${formatNumber(f.count)} most recent` : '';
  return [
    {
      kind: 'text',
      text: `${name}: ${total} in the ${part.period.label.toLowerCase()}${of}${f.median !== undefined && !f.thin ? `${of ? ':' : ','} median ${formatAed(Math.round(f.median))}` : f.thin ? ' (too little data for a median)' : ''}`,
    },
    {
      kind: 'table',
      columns: ['Bedrooms', 'Count', priceHead],
      rows: f.buckets
        .filter((b) => b.count > 0)
        .map((b) => [BUCKET_HEAD[b.bucket]!, formatNumber(b.count), medianCell(b)]),
    },
    { kind: 'context', text: sourceLine(part, what) },
  ];
}

function areaBlocks(p: AreaDigest, withCards: boolean, timezone: string): Block[] {
  const blocks: Block[] = [{ kind: 'header', text: p.area.name }];
  if (p.state === 'failed') {
    return [
      ...blocks,
      {
        kind: 'text',
        text: `⚠️ ${p.area.name} is left out this time: ${p.failure?.reason ?? 'its data could not be fetched'}. The rest of the digest is below.`,
      },
    ];
  }
  blocks.push(...transactionsBlocks(p.sold, 'Sold', 'Median price', 'recorded sales'));
  blocks.push(...transactionsBlocks(p.rented, 'Rented', 'Median annual rent', 'recorded lettings'));

  const trend = p.trend.data;
  if (p.trend.state === 'ok' && trend && trend.buckets.length > 0) {
    blocks.push(
      { kind: 'text', text: `Price trend, AED per sqft (${trend.propertyType}s)` },
      {
        kind: 'table',
        columns: [
          'Bedrooms',
          `Latest (${trend.to ?? 'last month'})`,
          '1 month',
          '3 months',
          trend.from ? `Since ${trend.from}` : 'Series',
        ],
        rows: trend.buckets.map((b) => [
          BUCKET_HEAD[b.bucket]!,
          formatNumber(Math.round(b.latest.ppsf)),
          pct(b.change1m),
          pct(b.change3m),
          pct(b.changeSeries),
        ]),
      },
      { kind: 'context', text: sourceLine(p.trend, 'monthly price trend') },
    );
  } else blocks.push(...unavailable(p.trend, 'Price trend'));

  const yields = p.yields.data ?? [];
  if (yields.length > 0) {
    blocks.push(
      { kind: 'text', text: 'Gross yield estimate (median annual rent / median sale price)' },
      {
        kind: 'table',
        columns: ['Bedrooms', 'Yield', 'Median rent (lettings)', 'Median price (sales)'],
        rows: yields.map((y) => [
          BUCKET_HEAD[y.bucket]!,
          `${y.grossYieldPct.toFixed(1)} %`,
          `${formatAed(Math.round(y.medianRent))} (${y.rentedCount})`,
          `${formatAed(Math.round(y.medianPrice))} (${y.soldCount})`,
        ]),
      },
    );
  } else
    blocks.push({
      kind: 'text',
      text: 'Gross yield estimate: too little data (a median sale price and a median rent of the same bedroom count are needed).',
    });

  const nl = p.newListings.data;
  if (p.newListings.state !== 'unavailable' && nl) {
    const count = (k: { count: number; atLeast: boolean }) => `${k.atLeast ? 'at least ' : ''}${formatNumber(k.count)}`;
    blocks.push({
      kind: 'text',
      text: `New listings since ${shortDate(Date.parse(p.since), timezone)}: ${count(nl.rent)} for rent, ${count(nl.sale)} for sale.`,
    });
    if (withCards) {
      for (const c of nl.cheapest) {
        const diff = `${Math.abs(Math.round(c.diffPct))} % ${c.diffPct < 0 ? 'below' : 'above'} ${possessive(p.area.name)} ${bucketLabel(c.bucket)} average of ${formatAed(Math.round(c.benchmark))}/sqft`;
        const card = listingGroupCard(c.listing, c.copies ?? []);
        blocks.push({
          kind: 'card',
          card: {
            ...card,
            fields: [
              ...card.fields,
              { label: 'Against the trend', value: `${formatAed(Math.round(c.ppsf))}/sqft, ${diff}` },
            ],
          },
        });
      }
      if (nl.cheapestNote) blocks.push({ kind: 'context', text: nl.cheapestNote });
    }
    blocks.push({ kind: 'context', text: sourceLine(p.newListings, 'listings for sale and for rent') });
  } else blocks.push(...unavailable(p.newListings, 'New listings'));

  const pr = p.projects.data;
  if (p.projects.state !== 'unavailable' && pr) {
    const lines = pr.first.map(
      (x) =>
        `• ${x.name ?? `Project ${x.id}`}${x.developer ? ` by ${x.developer}` : ''}${x.handover ? `, handover ${x.handover.slice(0, 7)}` : ''}`,
    );
    const head = `Off-plan projects: ${pr.launchedSince} launched since ${shortDate(Date.parse(p.since), timezone)} (${pr.atLeast ? 'at least ' : ''}${pr.count} listed)`;
    blocks.push(
      { kind: 'text', text: [head, ...lines].join('\n') },
      { kind: 'context', text: sourceLine(p.projects, 'off-plan projects') },
    );
  } else blocks.push(...unavailable(p.projects, 'Off-plan projects'));
  return blocks;
}

export function renderDigest(payload: DigestPayload): Reply {
  const areas = payload.areas;
  const left = areas.filter((p) => p.state === 'failed').map((p) => p.area.name);
  const withCards = areas.length <= MAX_CARD_AREAS;
  const blocks: Block[] = [
    { kind: 'header', text: payload.title },
    {
      kind: 'context',
      text: `${shortDate(payload.now, payload.timezone, true)} (${payload.timezone}) · transactions of every property type over the last 30 days, trends of apartments over the last 12 months · UAE Property Data Service`,
    },
    // The charts first: a platform that must shorten a long message cuts from the end, and cards matter less.
    ...payload.charts.map((image): Block => ({ kind: 'image', image })),
    ...areas.flatMap((p) => [...areaBlocks(p, withCards, payload.timezone), { kind: 'divider' } as Block]),
  ];
  const text = `${payload.title}${left.length ? ` (left out: ${left.join(', ')})` : ''}`;
  return { text, blocks };
}

/** The outbox kinds digests register: the digest itself, and its notices (postponed). */
export const digestKind = {
  decode: decodeWith(payloadSchema),
  render: (p: z.output<typeof payloadSchema>) => renderDigest(p as unknown as DigestPayload),
};
export const digestNoticeKind = {
  decode: decodeWith(noticeSchema),
  render: (p: z.output<typeof noticeSchema>): Reply => ({ text: p.text, blocks: [{ kind: 'text', text: p.text }] }),
};
