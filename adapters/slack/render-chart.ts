// A chart Manzil drew as a PNG, also as Slack's own line chart (the data_visualization block), with the same values:
// at most 6 series of at most 20 points (the latest months), named and labelled within 20 characters. @slack/types
// 3.2.0 does not type the block yet: its shape is written here from the docs
// (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block).
import type { ChartData, ImageFile } from '../../src/views/model.js';
import { clampPlain, cutValue, orElse } from '../shared/text.js';
import { SLACK_LIMITS as L } from './limits.js';

export interface DataVisualizationBlock {
  type: 'data_visualization';
  title: string;
  chart: {
    type: 'line';
    series: { name: string; data: { label: string; value: number }[] }[];
    axis_config: { categories: string[]; x_label?: string; y_label?: string };
  };
  block_id?: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "Dec 2025", as the PNG's axis says it. */
const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1] ?? month} ${month.slice(0, 4)}`;

/** Names cut to 20 characters, still unique (Slack refuses two series of one name). */
function names(series: ChartData['series']): string[] {
  const seen = new Set<string>();
  return series.map((s, i) => {
    let name = clampPlain(orElse(s.name, `Series ${i + 1}`), L.chartSeriesName);
    for (let n = 2; seen.has(name); n++) name = `${cutValue(name, L.chartSeriesName - String(n).length - 1)} ${n}`;
    seen.add(name);
    return name;
  });
}

/** The chart as a data_visualization block, or undefined when it has no values of its own. */
export function chartBlock(image: ImageFile): DataVisualizationBlock | undefined {
  const data = image.data;
  if (!data || data.months.length === 0) return undefined;
  const months = data.months.slice(-L.chartPoints);
  const shown = data.series.slice(0, L.chartSeries);
  const named = names(shown);
  const series = shown
    .map((s, i) => ({
      name: named[i]!,
      data: s.points
        .filter((p) => months.includes(p.month))
        .map((p) => ({ label: monthLabel(p.month), value: p.value })),
    }))
    .filter((s) => s.data.length > 0);
  if (series.length === 0) return undefined;
  const axis: DataVisualizationBlock['chart']['axis_config'] = { categories: months.map(monthLabel) };
  if (data.xLabel?.trim()) axis.x_label = clampPlain(data.xLabel, L.chartAxisLabel);
  if (data.yLabel?.trim()) axis.y_label = clampPlain(data.yLabel, L.chartAxisLabel);
  return {
    type: 'data_visualization',
    title: clampPlain(orElse(image.title, 'Chart'), L.chartTitle),
    chart: { type: 'line', series, axis_config: axis },
  };
}
