// Small valid PNGs for the upload tests, made here (no chart rendering needed): RGB, 8 bits, filter 0 per row.
// `noise` fills the pixels with pseudo-random bytes that deflate cannot shrink, for a PNG of a wanted weight.
import { crc32, deflateSync } from 'node:zlib';
import type { ImageFile } from '../../src/views/model.js';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function makePng(width: number, height: number, options: { noise?: boolean; seed?: number } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, filter 0, no interlace
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let x = options.seed ?? 7;
  for (let row = 0; row < height; row++) {
    const at = row * (width * 3 + 1);
    raw[at] = 0;
    for (let i = 1; i <= width * 3; i++) {
      // xorshift: bytes deflate cannot shrink; else a gradient.
      if (options.noise) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        raw[at + i] = x & 0xff;
      } else raw[at + i] = (row * 7 + i) & 0xff;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A chart as the core hands it to the posters. */
export function chartImage(png: Buffer, name = 'digest-dubai-marina.png'): ImageFile {
  return {
    name,
    title: 'Dubai Marina: AED per sq ft, last 12 months',
    alt: 'Line chart of AED per sq ft in Dubai Marina over 12 months, one line per bedroom count',
    fallback: '1 bed  ▁▂▃▄▅▆▇█  AED 1,850 → 2,010\n2 beds ▂▂▃▃▄▅▆▇  AED 1,990 → 2,230',
    pngBase64: png.toString('base64'),
  };
}
