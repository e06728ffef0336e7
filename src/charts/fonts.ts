// The fonts the charts are drawn with: Noto Sans and Noto Sans Arabic (SIL OFL 1.1, assets/fonts/OFL.txt), loaded by
// path so a chart renders the same on every machine and in Docker, never from the system. Also their advance widths,
// so that Vega lays out titles, labels and legends with the widths resvg will draw (Vega has no canvas to measure
// with).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The family named in every text mark; Noto Sans Arabic follows it for the glyphs Noto Sans lacks. */
export const FONT_FAMILY = 'Noto Sans';
export const FONT_STACK = '"Noto Sans", "Noto Sans Arabic"';

const FILES = {
  regular: ['NotoSans-Regular.ttf', 'NotoSansArabic-Regular.ttf'],
  bold: ['NotoSans-Bold.ttf', 'NotoSansArabic-Bold.ttf'],
} as const;
export const FONT_FILES: readonly string[] = [...FILES.regular, ...FILES.bold];

/**
 * assets/fonts of the repository, looked for upwards from this module: src/charts/ when run from source,
 * dist/src/charts/ when compiled. The image must ship assets/ beside dist/.
 */
export function defaultFontDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'assets', 'fonts');
    if (existsSync(path.join(candidate, FILES.regular[0]))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(
    `charts: the fonts (assets/fonts/${FILES.regular[0]}) were not found above ${fileURLToPath(import.meta.url)}`,
  );
}

export function fontPaths(fontDir: string): string[] {
  return FONT_FILES.map((f) => path.join(fontDir, f));
}

/** Advance widths (in em) of one TrueType font, read from its cmap and hmtx tables. */
class Metrics {
  private readonly cache = new Map<number, number | null>();
  private readonly view: DataView;
  private readonly unitsPerEm: number;
  private readonly numberOfHMetrics: number;
  private readonly hmtx: number;
  private readonly lookup: (code: number) => number;

  constructor(file: string) {
    const buf = readFileSync(file);
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const tables = new Map<string, number>();
    const numTables = this.view.getUint16(4);
    for (let i = 0; i < numTables; i++) {
      const at = 12 + i * 16;
      tables.set(buf.toString('latin1', at, at + 4), this.view.getUint32(at + 8));
    }
    const table = (tag: string) => {
      const at = tables.get(tag);
      if (at === undefined) throw new Error(`charts: ${path.basename(file)} has no ${tag} table`);
      return at;
    };
    this.unitsPerEm = this.view.getUint16(table('head') + 18);
    this.numberOfHMetrics = this.view.getUint16(table('hhea') + 34);
    this.hmtx = table('hmtx');
    this.lookup = this.cmap(table('cmap'));
  }

  /** The advance of a code point in em, null when the font has no glyph for it. */
  advance(code: number): number | null {
    let width = this.cache.get(code);
    if (width !== undefined) return width;
    const glyph = this.lookup(code);
    if (glyph === 0) width = null;
    else {
      const entry = Math.min(glyph, this.numberOfHMetrics - 1);
      width = this.view.getUint16(this.hmtx + entry * 4) / this.unitsPerEm;
    }
    this.cache.set(code, width);
    return width;
  }

  /** The Unicode subtable: format 12 (full range) when there is one, else format 4 (the BMP). */
  private cmap(cmap: number): (code: number) => number {
    const v = this.view;
    let format4: number | undefined;
    for (let i = 0, n = v.getUint16(cmap + 2); i < n; i++) {
      const platform = v.getUint16(cmap + 4 + i * 8);
      const encoding = v.getUint16(cmap + 6 + i * 8);
      const at = cmap + v.getUint32(cmap + 8 + i * 8);
      const format = v.getUint16(at);
      if (format === 12 && (platform === 0 || (platform === 3 && encoding === 10))) return format12(v, at);
      if (format === 4 && (platform === 0 || (platform === 3 && encoding === 1))) format4 ??= at;
    }
    if (format4 === undefined) throw new Error('charts: a font without a Unicode cmap');
    return format4Lookup(v, format4);
  }
}

function format12(v: DataView, at: number): (code: number) => number {
  const groups = v.getUint32(at + 12);
  return (code) => {
    let lo = 0;
    let hi = groups - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const g = at + 16 + mid * 12;
      if (code < v.getUint32(g)) hi = mid - 1;
      else if (code > v.getUint32(g + 4)) lo = mid + 1;
      else return v.getUint32(g + 8) + code - v.getUint32(g);
    }
    return 0;
  };
}

function format4Lookup(v: DataView, at: number): (code: number) => number {
  const segments = v.getUint16(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const offsets = deltas + segments * 2;
  return (code) => {
    if (code > 0xffff) return 0;
    for (let s = 0; s < segments; s++) {
      if (code > v.getUint16(ends + s * 2)) continue;
      const start = v.getUint16(starts + s * 2);
      if (code < start) return 0;
      const delta = v.getInt16(deltas + s * 2);
      const offset = v.getUint16(offsets + s * 2);
      if (offset === 0) return (code + delta) & 0xffff;
      const glyph = v.getUint16(offsets + s * 2 + offset + (code - start) * 2);
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}

type Face = { regular: Metrics[]; bold: Metrics[] };
const faces = new Map<string, Face>();

function face(fontDir: string): Face {
  let f = faces.get(fontDir);
  if (!f) {
    f = {
      regular: FILES.regular.map((name) => new Metrics(path.join(fontDir, name))),
      bold: FILES.bold.map((name) => new Metrics(path.join(fontDir, name))),
    };
    faces.set(fontDir, f);
  }
  return f;
}

/**
 * The width in pixels of `text` at `size`, as the first font of the stack that has each glyph draws it (no kerning or
 * shaping: Arabic is measured by its isolated forms, a little wider than joined text).
 */
export function textWidth(fontDir: string, text: string, size: number, bold: boolean): number {
  const stack = bold ? face(fontDir).bold : face(fontDir).regular;
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    let advance: number | null = null;
    for (const m of stack) if ((advance = m.advance(code)) !== null) break;
    em += advance ?? 0.6;
  }
  return em * size;
}
