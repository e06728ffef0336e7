// A value estimate in words: the sale and rent ranges with what each stands on, the trend's direction, the gross
// yield, where an asking price sits, and a plain statement that it is an estimate from public records.
import { MIN_RANGE } from '../market/definitions.js';
import { type Comparable, type Estimate, type Position, type Range, type ValueEstimate } from '../market/value.js';
import { formatAed, formatDate, formatNumber } from './format.js';
import type { Block } from './model.js';

export const NOT_A_VALUATION =
  'An estimate from public records (transactions, listings and the price trend of the property data service), not a valuation.';

const aed = (n: number) => formatAed(Math.round(n / 1000) * 1000);
const pct = (n: number) => `${formatNumber(Math.round(Math.abs(n)))} %`;

/** "2-bed apartment", "studio apartment", "4-bed villa". */
export function homeLabel(e: Pick<ValueEstimate['ask'], 'bedrooms' | 'propertyType'>): string {
  const type = e.propertyType.replace(/-/g, ' ');
  return e.bedrooms === 0 ? `studio ${type}` : `${e.bedrooms}-bed ${type}`;
}

function rangeText(e: Estimate & { state: 'ok' }, rent: boolean): string {
  const year = rent ? ' a year' : '';
  return `${aed(e.range.low)} to ${aed(e.range.high)}${year} (middle ${aed(e.range.mid)})`;
}

function basisText(e: Estimate, size: number | undefined): string {
  const few =
    e.fewListings && `only ${e.fewListings.count} ${e.fewListings.period}, fewer than the ${MIN_RANGE} a spread needs`;
  if (e.state === 'thin') {
    if (e.noTrend) return 'Too little data: the price trend has no AED per sqft for this kind of home here';
    const also = e.fewListings ? `${e.fewListings.count} ${e.fewListings.period} and ` : '';
    return `Too little data: ${also}${e.count} ${e.period}; a range needs ${MIN_RANGE}`;
  }
  const sqft = `${formatNumber(size ?? 0)} sqft`;
  const trend = e.trend && `From the price trend's AED ${formatNumber(e.trend.ppsf)}/sqft (${e.trend.month}) × ${sqft}`;
  if (e.source === 'transactions') {
    if (!few) return `From the middle half of ${e.count} ${e.period}`;
    // With a size, from transactions: which it used instead of the listings, and why.
    return trend
      ? `${trend}, spread as the middle half of ${e.count} ${e.period} (${few})`
      : `From the middle half of ${e.count} ${e.period}, homes of every size (${few})`;
  }
  return trend
    ? `${trend}, spread as the middle half of ${e.count} ${e.period} (AED/sqft)`
    : `From the middle half of ${e.count} ${e.period} (AED/sqft a year) × ${sqft}`;
}

function exampleText(c: Comparable): string {
  if (c.sizeSqft !== undefined && c.ppsf !== undefined)
    return `${formatAed(c.price)} for ${formatNumber(c.sizeSqft)} sqft (AED ${formatNumber(c.ppsf)}/sqft)`;
  const date = formatDate(c.date);
  return date ? `${formatAed(c.price)} on ${date}` : formatAed(c.price);
}

function partBlocks(label: string, e: Estimate, size: number | undefined, rent: boolean): Block[] {
  const head = e.state === 'ok' ? `${label}: ${rangeText(e, rent)}` : `${label}: too little data`;
  const examples = e.state === 'ok' && e.examples.length ? `; e.g. ${e.examples.map(exampleText).join(' · ')}` : '';
  return [
    { kind: 'text', text: head },
    { kind: 'context', text: `${basisText(e, size)}${examples}.` },
  ];
}

export function positionText(p: Position, range: Range): string {
  const asked = `${formatAed(p.price)}${p.kind === 'rent' ? ' a year' : ''}`;
  if (p.where === 'above') return `${asked} is ${pct(p.pct)} above the range's top (${aed(range.high)}).`;
  if (p.where === 'below') return `${asked} is ${pct(p.pct)} below the range's bottom (${aed(range.low)}).`;
  if (Math.round(Math.abs(p.pct)) === 0) return `${asked} is within the range, at its middle (${aed(range.mid)}).`;
  return `${asked} is within the range, ${pct(p.pct)} ${p.pct < 0 ? 'below' : 'above'} its middle (${aed(range.mid)}).`;
}

/** The reply's blocks; `area` is the area's name as the service gives it. */
export function valueView(v: ValueEstimate, area: string): { text: string; blocks: Block[] } {
  const size = v.ask.sizeSqft;
  const title = `What a ${homeLabel(v.ask)}${size !== undefined ? ` of ${formatNumber(size)} sqft` : ''} in ${area} is worth`;
  const blocks: Block[] = [{ kind: 'header', text: title }];
  if (v.ask.asking) {
    const asked = v.ask.asking.kind === 'sale' ? v.sale : v.rent;
    const text =
      v.position && asked.state === 'ok'
        ? positionText(v.position, asked.range)
        : `No range to place ${formatAed(v.ask.asking.price)}${v.ask.asking.kind === 'rent' ? ' a year' : ''} in. ${basisText(asked, size)}.`;
    blocks.push({ kind: 'text', text });
  }
  blocks.push(...partBlocks('Sale price', v.sale, size, false), ...partBlocks('Annual rent', v.rent, size, true));
  const facts: string[] = [];
  if (v.trend) {
    const change = `${v.trend.changePct < 0 ? '−' : '+'}${Math.abs(v.trend.changePct).toFixed(1)} %`;
    facts.push(
      `Trend: ${v.trend.direction}, ${change} over ${v.trend.months === 1 ? 'the last month' : `${v.trend.months} months`} to ${v.trend.month}`,
    );
  } else facts.push(`Trend: no price trend for this kind of home in ${area}`);
  if (v.grossYieldPct !== undefined)
    // Its scope said, so that it is not taken for `/compare`'s, which is of every type over 3 months.
    facts.push(
      `Gross yield: ${v.grossYieldPct.toFixed(1)} % (the rent's middle over the price's, of ${homeLabel(v.ask)}s as above; /compare's is of every property type over the last 3 months)`,
    );
  blocks.push({ kind: 'text', text: facts.join('\n') }, { kind: 'context', text: NOT_A_VALUATION });
  const summary = [
    title,
    v.sale.state === 'ok' ? `sale ${rangeText(v.sale, false)}` : 'sale: too little data',
    v.rent.state === 'ok' ? `rent ${rangeText(v.rent, true)}` : 'rent: too little data',
  ].join('; ');
  return { text: `${summary}. An estimate from public records, not a valuation.`, blocks };
}
