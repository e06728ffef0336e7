// A text sparkline: one bar per value, scaled between the series' own minimum and maximum.
const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
/** Shown for a point with no value, so gaps stay visible and the bars keep their place in time. */
export const SPARK_GAP = '·';

export function sparkline(values: readonly (number | undefined)[]): string {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (!known.length) return '';
  const min = Math.min(...known);
  const span = Math.max(...known) - min;
  return values
    .map((v) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) return SPARK_GAP;
      // A flat series sits in the middle rather than on the floor.
      const level = span === 0 ? 3 : Math.round(((v - min) / span) * (BARS.length - 1));
      return BARS[level];
    })
    .join('');
}
