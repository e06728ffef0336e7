// A small PNG reader for the chart tests (8-bit, non-interlaced: what resvg writes), and an image comparison.
import { inflateSync } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type Decoded = { width: number; height: number; /** RGBA, 4 bytes a pixel */ rgba: Buffer };

/** The width and height in the IHDR chunk, which must come first after the signature. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG: bad signature');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG: IHDR is not the first chunk');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export function decodePng(png: Buffer): Decoded {
  const { width, height } = pngSize(png);
  const depth = png[24]!;
  const colorType = png[25]!;
  const interlace = png[28]!;
  const channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  if (depth !== 8 || channels === undefined || interlace !== 0)
    throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IDAT') idat.push(data);
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== (stride + 1) * height)
    throw new Error(`PNG data is ${raw.length} bytes, expected ${(stride + 1) * height}`);
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad PNG filter ${filter} on row ${y}`);
      out[i] = (line[i]! + predictor) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = p * channels;
    const gray = channels <= 2;
    rgba[p * 4] = pixels[s]!;
    rgba[p * 4 + 1] = gray ? pixels[s]! : pixels[s + 1]!;
    rgba[p * 4 + 2] = gray ? pixels[s]! : pixels[s + 2]!;
    rgba[p * 4 + 3] = channels === 4 ? pixels[s + 3]! : channels === 2 ? pixels[s + 1]! : 255;
  }
  return { width, height, rgba };
}

/**
 * How far apart two images of one size are: `mean` is the mean absolute difference over every channel of every pixel,
 * as a fraction of 255; `changed` is the fraction of pixels with some channel differing by more than `threshold`.
 */
export function compareImages(a: Decoded, b: Decoded, threshold = 64): { mean: number; changed: number } {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`sizes differ: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  let sum = 0;
  let changed = 0;
  for (let p = 0; p < a.width * a.height; p++) {
    let worst = 0;
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(a.rgba[p * 4 + c]! - b.rgba[p * 4 + c]!);
      sum += d;
      if (d > worst) worst = d;
    }
    if (worst > threshold) changed++;
  }
  const pixels = a.width * a.height;
  return { mean: sum / (pixels * 4 * 255), changed: changed / pixels };
}
