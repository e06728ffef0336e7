// `/compare`'s answer, platform-neutral: per bedroom count, one table with a column per area and a row per figure, the
// best of each row marked; an area with too little data says so in its cells; one that failed is named under the
// table. Renderers draw the table as each platform can (Slack and Discord: monospaced; the terminal: padded).
import { MIN_MEDIAN } from '../market/definitions.js';
import type { AreaComparison, CompareCell, Comparison } from '../market/index.js';
import { formatAed, formatNumber } from './format.js';
import type { Block, ImageFile, Reply } from './model.js';

const THIN = 'too little data';
const BEST = ' ★';

const bucketTitle = (b: string) => (b === 'studio' ? 'Studios' : `${b === '4+' ? '4+' : b}-bedroom homes`);
const pct = (n: number, signed = false) => `${signed && n > 0 ? '+' : ''}${n.toFixed(1)} %`;
const count = (n: number, atLeast: boolean) => `${formatNumber(n)}${atLeast ? '+' : ''}`;

/** A row: its label, each area's value (undefined: none to show) and text, and which way is best. */
interface Row {
  label: string;
  cells: { value?: number; text: string }[];
  best?: 'low' | 'high';
}

/** Marks the best value of the row (ties all marked), when two areas or more have one. */
function marked(row: Row): string[] {
  const values = row.cells.flatMap((c) => (c.value === undefined ? [] : [c.value]));
  if (!row.best || values.length < 2) return row.cells.map((c) => c.text);
  const best = row.best === 'low' ? Math.min(...values) : Math.max(...values);
  return row.cells.map((c) => (c.value === best ? `${c.text}${BEST}` : c.text));
}

function rowsOf(comparison: Comparison, areas: AreaComparison[], bucket: string): Row[] {
  const cell = (a: AreaComparison) => a.cells.find((c) => c.bucket === bucket);
  const each = (f: (c: CompareCell, a: AreaComparison) => { value?: number; text: string }) =>
    areas.map((a) => (cell(a) ? f(cell(a)!, a) : { text: '' }));
  const rows: Row[] = [
    {
      label: 'Sale price, median (3 mo)',
      best: 'low',
      cells: each((c) =>
        c.sale.median === undefined ? { text: THIN } : { value: c.sale.median, text: formatAed(c.sale.median) },
      ),
    },
    {
      label: 'AED per sqft (trend)',
      best: 'low',
      cells: each((c) => (c.ppsf === undefined ? { text: 'no trend' } : { value: c.ppsf, text: formatNumber(c.ppsf) })),
    },
    {
      label: 'Rent a year, median',
      best: 'low',
      cells: each((c) =>
        c.rent.median === undefined
          ? { text: THIN }
          : { value: c.rent.median, text: `${formatAed(c.rent.median)}${c.rent.months === 12 ? ' (12 mo)' : ''}` },
      ),
    },
    {
      label: 'Gross yield',
      best: 'high',
      cells: each((c) =>
        c.grossYieldPct === undefined ? { text: THIN } : { value: c.grossYieldPct, text: pct(c.grossYieldPct) },
      ),
    },
    {
      label: 'Change over 12 months',
      best: 'high',
      cells: each((c) =>
        c.change12m === undefined ? { text: 'no trend' } : { value: c.change12m, text: pct(c.change12m, true) },
      ),
    },
    {
      label: 'Sales · lettings behind',
      cells: each((c) => ({
        text: `${count(c.sale.priced, c.sale.atLeast)} · ${count(c.rent.priced, c.rent.atLeast)}`,
      })),
    },
  ];
  return rows;
}

/** Listings live now per area: of the bedroom count asked, else of every size. */
function listingRows(comparison: Comparison, areas: AreaComparison[]): Row[] {
  const sizes = comparison.bedrooms === undefined ? ' (all sizes)' : '';
  return (['sale', 'rent'] as const)
    .filter((kind) => comparison.kind !== (kind === 'sale' ? 'rent' : 'buy'))
    .map((kind) => ({
      label: `Listed ${kind === 'sale' ? 'for sale' : 'for rent'} now${sizes}`,
      best: 'high' as const,
      cells: areas.map((a) => {
        const l = a.listings[kind];
        // "50+" is more than 49, but says nothing against another "50+".
        return l ? { value: l.atLeast ? l.count + 0.5 : l.count, text: count(l.count, l.atLeast) } : { text: '' };
      }),
    }));
}

/** The answer: a table per bedroom count, notes, and the chart of the areas' trends when there is one. */
export function compareReply(comparison: Comparison, chart?: ImageFile): Reply {
  const ok = comparison.areas.filter((a) => a.state === 'ok');
  const failed = comparison.areas.filter((a) => a.state === 'failed');
  const names = comparison.areas.map((a) => a.area.name);
  const what =
    comparison.bedrooms === undefined
      ? 'every bedroom count'
      : comparison.bedrooms === 0
        ? 'studios'
        : `${comparison.bedrooms}-bedroom homes`;
  const title = `${names.join(' vs ')}: ${what}`;
  const blocks: Block[] = [{ kind: 'header', text: title }];
  const lines: string[] = [title];
  if (ok.length > 0) {
    for (const bucket of comparison.buckets) {
      const rows = rowsOf(comparison, ok, bucket);
      const columns = [comparison.buckets.length > 1 ? bucketTitle(bucket) : '', ...ok.map((a) => a.area.name)];
      const last = bucket === comparison.buckets.at(-1);
      const body = [...rows, ...(last ? listingRows(comparison, ok) : [])].map((r) => [r.label, ...marked(r)]);
      blocks.push({ kind: 'table', columns, rows: body });
      lines.push(...body.map((r) => `${r[0]}: ${r.slice(1).join(' | ')}`));
    }
    const twelve = ok.filter((a) => a.cells.some((c) => c.rent.months === 12)).map((a) => a.area.name);
    const part = ok.filter((a) => a.cells.some((c) => c.sale.atLeast || c.rent.atLeast)).map((a) => a.area.name);
    const notes = [
      `★ the best of each row. Medians of every transaction of the last 3 months, of every property type; "${THIN}" where fewer than ${MIN_MEDIAN} had a price.`,
      ...(twelve.length > 0 ? [`Rents over 12 months for ${twelve.join(', ')}: 3 months had too few lettings.`] : []),
      ...(part.length > 0
        ? [
            `${part.join(', ')}: more transactions than Manzil reads of one period, so medians of the newest and counts marked + at least.`,
          ]
        : []),
      'Gross yield: the median annual rent over the median sale price, both of every property type. AED per sqft and its change: the price trend of apartments.',
    ];
    blocks.push({ kind: 'context', text: notes.join(' ') });
  }
  for (const a of failed) {
    const text = `${a.area.name}: not compared, ${a.reason ?? 'the property service failed'}.`;
    blocks.push({ kind: 'text', text });
    lines.push(text);
  }
  if (chart) blocks.push({ kind: 'image', image: chart });
  return { text: lines.join('\n'), blocks };
}
