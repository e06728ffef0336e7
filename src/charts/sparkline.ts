// A text sparkline for the terminal and for wherever an image cannot go: ▁▂▃▄▅▆▇█, one character per value.

const BARS = '▁▂▃▄▅▆▇█';

/**
 * One bar per value, scaled from the lowest (▁) to the highest (█). Values that are not finite numbers (a missing
 * month) show as a space; a flat series shows as middle bars; no values give ''.
 */
export function textSparkline(values: readonly number[]): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return values.length ? ' '.repeat(values.length) : '';
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const top = BARS.length - 1;
  return values
    .map((v) => {
      if (!Number.isFinite(v)) return ' ';
      if (max === min) return BARS[3];
      return BARS[Math.round(((v - min) / (max - min)) * top)];
    })
    .join('');
}
