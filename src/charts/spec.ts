// The Vega-Lite spec of a trend chart: one line per series over months, a title, labelled axes and a legend.
// Plain data in, plain JSON out: no Vega here, so the spec can be read and tested alone.
import type { TopLevelSpec } from 'vega-lite';
import { FONT_STACK } from './fonts.js';
import type { Cleaned } from './data.js';

/** Distinct on white and for the common colour blindnesses (Okabe-Ito, yellow darkened), in series order. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#B59A00', '#000000'];

const INK = '#1f2933';
const MUTED = '#52606d';
const GRID = '#e4e7eb';

export type SpecOptions = {
  title: string;
  subtitle: string;
  yLabel: string;
  xLabel: string;
  legendTitle: string;
  width: number;
  height: number;
};

/** A Vega string literal for an expression. */
const lit = (s: string) => JSON.stringify(s);
const MONTH_NAMES = `[${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map(lit).join(',')}]`;

export function trendSpec(data: Cleaned, o: SpecOptions): TopLevelSpec {
  const rows = data.series.flatMap((s) => s.points.map((p) => ({ series: s.name, month: p.month, value: p.value })));
  const values = rows.map((r) => r.value);
  const max = Math.max(...values.map(Math.abs));
  const format = max >= 100 ? ',.0f' : max >= 10 ? ',.1f' : ',.2f';
  // Month names on the axis, with the year under the first month and under each January.
  const withYear = data.months.filter((m, i) => i === 0 || m.endsWith('-01'));
  const name = `${MONTH_NAMES}[toNumber(substring(datum.value, 5, 7)) - 1]`;
  const labelExpr = `indexof([${withYear.map(lit).join(',')}], datum.value) >= 0 ? [${name}, substring(datum.value, 0, 4)] : ${name}`;
  const many = data.months.length > 14;

  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: o.width,
    height: o.height,
    autosize: { type: 'fit', contains: 'padding' },
    padding: { left: 20, right: 24, top: 20, bottom: 16 },
    background: 'white',
    title: { text: o.title, subtitle: o.subtitle || undefined },
    data: { values: rows },
    layer: [
      {
        mark: { type: 'line', strokeWidth: 3, strokeJoin: 'round', strokeCap: 'round' },
      },
      {
        // Every month's point, so that a month standing alone (no neighbour to draw a line to) still shows.
        mark: { type: 'point', filled: true, size: data.months.length > 24 ? 28 : 55, opacity: 1 },
      },
    ],
    encoding: {
      x: {
        field: 'month',
        type: 'ordinal',
        scale: { type: 'point', domain: data.months, padding: 0.4 },
        axis: {
          title: o.xLabel || null,
          labelExpr,
          labelOverlap: many ? 'parity' : false,
          labelAngle: 0,
          labelAlign: 'center',
        },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        scale: { zero: false, nice: true, padding: 12 },
        axis: { title: o.yLabel, format, tickCount: 6 },
      },
      color: {
        field: 'series',
        type: 'nominal',
        scale: { domain: data.series.map((s) => s.name), range: PALETTE },
        legend: { title: o.legendTitle || null },
      },
    },
    config: {
      font: FONT_STACK,
      view: { stroke: null },
      title: {
        anchor: 'start',
        fontSize: 24,
        fontWeight: 'bold',
        color: INK,
        subtitleFontSize: 15,
        subtitleColor: MUTED,
        subtitlePadding: 6,
        offset: 18,
        limit: o.width - 60,
      },
      axis: {
        labelFontSize: 14,
        labelColor: MUTED,
        titleFontSize: 15,
        titleFontWeight: 'normal',
        titleColor: INK,
        titlePadding: 12,
        gridColor: GRID,
        domainColor: '#9aa5b1',
        tickColor: '#9aa5b1',
      },
      axisX: { grid: false, labelPadding: 6, tickSize: 5, labelLineHeight: 17 },
      axisY: { grid: true, domain: false, ticks: false, labelPadding: 8 },
      legend: {
        orient: 'right',
        labelFontSize: 15,
        labelColor: INK,
        labelLimit: 220,
        titleFontSize: 14,
        titleFontWeight: 'normal',
        titleColor: MUTED,
        titlePadding: 8,
        symbolType: 'stroke',
        symbolStrokeWidth: 4,
        symbolSize: 320,
        rowPadding: 8,
        offset: 24,
      },
    },
  };
}
