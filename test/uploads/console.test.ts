// The terminal's ChatPoster with a chart: the PNG saved under the charts directory (./data/charts/ beside the
// database),
// its path printed with the chart's text fallback (sparklines); a chart that cannot be saved says so, and the rest of
// the
// reply is printed all the same.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConsolePoster, chartFileName } from '../../adapters/console/poster.js';
import type { Reply } from '../../src/bot/index.js';
import { chartImage, makePng } from './png.js';

const png = makePng(24, 16);
const image = chartImage(png);
const reply: Reply = {
  text: 'Weekly digest: Dubai Marina',
  blocks: [
    { kind: 'header', text: 'Dubai Marina' },
    { kind: 'image', image },
    { kind: 'text', text: 'Sold in the last 30 days: 42.' },
  ],
};

function terminal(chartsDir?: string) {
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const poster = new ConsolePoster(output, false, chartsDir === undefined ? {} : { chartsDir });
  return { poster, printed: () => printed };
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'manzil-charts-'));

describe('ConsolePoster with a chart', () => {
  it('saves the PNG under the charts directory (made when missing) and prints its path with the sparklines', async () => {
    const dir = join(tempDir(), 'data', 'charts');
    const t = terminal(dir);
    await t.poster.post('console:local', reply, 'd1');
    const files = readdirSync(dir);
    expect(files).toEqual([chartFileName(image, 'd1', 1)]);
    expect(files[0]).toMatch(/^digest-dubai-marina-[0-9a-f]{8}\.png$/);
    expect(readFileSync(join(dir, files[0]!)).equals(png)).toBe(true);
    const text = t.printed();
    expect(text).toContain(`Chart saved: ${join(dir, files[0]!)}`);
    expect(text).toContain('▁▂▃▄▅▆▇█');
    expect(text).toContain('Sold in the last 30 days: 42.');
  });

  it('prints the path as ./data/charts/… when the charts are under the working directory', async () => {
    const cwd = process.cwd();
    const root = tempDir();
    process.chdir(root);
    try {
      const t = terminal(join(root, 'data', 'charts'));
      await t.poster.post('console:local', reply, 'd2');
      expect(t.printed()).toMatch(/Chart saved: \.\/data\/charts\/digest-dubai-marina-[0-9a-f]{8}\.png/);
    } finally {
      process.chdir(cwd);
    }
  });

  it('writes the same file when a delivery is posted again, and another file for another delivery', async () => {
    const dir = tempDir();
    const t = terminal(dir);
    await t.poster.post('console:local', reply, 'd3');
    await t.poster.post('console:local', reply, 'd3');
    expect(readdirSync(dir)).toHaveLength(1);
    await t.poster.post('console:local', reply, 'd4');
    expect(readdirSync(dir)).toHaveLength(2);
    expect(readdirSync(dir).some((f) => f.endsWith('.part'))).toBe(false);
  });

  it('keeps a chart’s file name inside the charts directory whatever its name says', async () => {
    const dir = tempDir();
    const t = terminal(dir);
    await t.poster.post(
      'console:local',
      { ...reply, blocks: [{ kind: 'image', image: chartImage(png, '../../etc/evil name.png') }] },
      'd5',
    );
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^etc-evil-name-[0-9a-f]{8}\.png$/);
  });

  it('says the chart could not be saved, and prints the reply with its sparklines all the same', async () => {
    const blocker = join(tempDir(), 'not-a-dir');
    writeFileSync(blocker, 'a file where the directory should be');
    const t = terminal(join(blocker, 'charts'));
    await expect(t.poster.post('console:local', reply, 'd6')).resolves.toEqual({ messageId: 'console-d6' });
    expect(t.printed()).toMatch(/\(the chart could not be saved \(E[A-Z]+\)\)/);
    expect(t.printed()).toContain('▁▂▃▄▅▆▇█');
    expect(existsSync(join(blocker, 'charts'))).toBe(false);
  });

  it('without a charts directory shows the text fallback only, as before', async () => {
    const t = terminal();
    await t.poster.post('console:local', reply, 'd7');
    expect(t.printed()).toContain('▁▂▃▄▅▆▇█');
    expect(t.printed()).not.toContain('Chart saved');
  });

  it('hands the chat a reply that says where the chart is, while the chat runs', async () => {
    const dir = tempDir();
    const t = terminal(dir);
    const shown: Reply[] = [];
    t.poster.display = (r) => shown.push(r);
    await t.poster.post('console:local', reply, 'd8');
    expect(t.printed()).toBe('');
    expect(shown[0]!.blocks).toContainEqual({
      kind: 'context',
      text: `Chart saved: ${join(dir, chartFileName(image, 'd8', 1))}`,
    });
  });
});
