// Discord's rendering of a chart: as a file its embed shows (channel posts), or as its text (interaction answers).
import { describe, expect, it } from 'vitest';
import { renderDiscord, renderDiscordWithFiles } from '../../adapters/discord/render.js';
import type { Block, Reply } from '../../src/views/model.js';
import { chartImage, makePng } from './png.js';

const png = makePng(8, 8);
const reply = (...blocks: Block[]): Reply => ({ text: 'Digest', blocks });

describe('renderDiscordWithFiles', () => {
  it('shows each chart in an embed by attachment://, with its PNG as a file and its alt text as the attachment’s description', () => {
    const image = chartImage(png);
    const { message, files } = renderDiscordWithFiles(
      reply({ kind: 'header', text: 'Dubai Marina' }, { kind: 'image', image }),
    );
    expect(files).toEqual([{ name: 'digest-dubai-marina.png', data: png }]);
    expect(message.embeds).toEqual([
      expect.objectContaining({ title: image.title, image: { url: 'attachment://digest-dubai-marina.png' } }),
    ]);
    expect(message.attachments).toEqual([{ id: 0, filename: 'digest-dubai-marina.png', description: image.alt }]);
    expect(JSON.stringify(message)).not.toContain('▁▂▃');
  });

  it('never gives two charts one name, nor a name Discord would rewrite', () => {
    const a = chartImage(png, 'trend.png');
    const b = chartImage(makePng(4, 4), 'trend.png');
    const c = chartImage(png, 'Business Bay (1 bed).PNG');
    const { message, files } = renderDiscordWithFiles(
      reply({ kind: 'image', image: a }, { kind: 'image', image: b }, { kind: 'image', image: c }),
    );
    expect(files.map((f) => f.name)).toEqual(['trend.png', 'trend-2.png', 'Business_Bay_1_bed_.png']);
    expect(message.embeds.map((e) => e.image?.url)).toEqual(files.map((f) => `attachment://${f.name}`));
  });

  it('sends no file for a chart whose embed did not fit in the message', () => {
    const texts: Block[] = Array.from({ length: 10 }, (_, i) => ({
      kind: 'table',
      columns: ['n'],
      rows: [[String(i)]],
    }));
    const { message, files } = renderDiscordWithFiles(reply(...texts, { kind: 'image', image: chartImage(png) }));
    expect(message.embeds).toHaveLength(10);
    expect(files).toEqual([]);
    expect(message.attachments).toBeUndefined();
  });

  it('leaves a reply without charts as renderDiscord makes it', () => {
    const plain = reply({ kind: 'header', text: 'Hello' }, { kind: 'text', text: 'No chart here' });
    expect(renderDiscordWithFiles(plain)).toEqual({ message: renderDiscord(plain), files: [] });
  });
});

describe('renderDiscord (interaction answers)', () => {
  it('shows a chart as its text fallback: an interaction answer carries no file', () => {
    const m = renderDiscord(reply({ kind: 'image', image: chartImage(png) }));
    expect(m.attachments).toBeUndefined();
    expect(JSON.stringify(m)).not.toContain('attachment://');
    expect(m.embeds[0]!.description).toContain('▁▂▃');
  });
});
