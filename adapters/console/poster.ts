// Alerts in the terminal chat: the console's ChatPoster. While the chat runs, it hands each alert to the chat, which
// prints it above a redrawn prompt and makes its buttons the ones a number presses (as for any reply). A chart is saved
// as a PNG file under `chartsDir` (./data/charts/ beside the database) and its path printed with its text fallback.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { typedFor, type Reply } from '../../src/bot/index.js';
import type { ChatPoster } from '../../src/ports/index.js';
import type { Block, ImageFile } from '../../src/views/model.js';
import { colorFor, renderText } from './render.js';

export interface ConsolePosterOptions {
  /** Where charts are saved as PNG files (created when missing); unset: a chart shows its text fallback only. */
  chartsDir?: string | undefined;
}

/**
 * The file a chart is saved as: its name made safe for any file system, and a short hash of the delivery, so that a
 * delivery posted again writes the same file while two digests never overwrite each other.
 */
export function chartFileName(image: ImageFile, deliveryId: string, index: number): string {
  const base =
    image.name
      .replace(/\.png$/i, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 80) || 'chart';
  const tag = createHash('sha256').update(`${deliveryId}\n${index}`).digest('hex').slice(0, 8);
  return `${base}-${tag}.png`;
}

/** A path as a person would type it from here: `./data/charts/x.png` under the working directory, else absolute. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? `.${sep}${rel}` : path;
}

export class ConsolePoster implements ChatPoster {
  readonly platform = 'console';
  /** Set by the chat while it runs: shows the alert without breaking the line being typed. */
  display: ((reply: Reply) => void) | undefined;

  constructor(
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly color: boolean = colorFor(output),
    private readonly options: ConsolePosterOptions = {},
  ) {}

  async post(_channel: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    // An alert's commands as they are typed here, without the slash (`alerts list`), like every reply of the chat.
    const shownReply = await this.saveCharts(typedFor({ commandStyle: 'plain' }, reply), deliveryId);
    if (this.display) this.display(shownReply);
    else this.output.write(`\n${renderText(shownReply, { color: this.color }).text}\n`);
    return { messageId: `console-${deliveryId}` };
  }

  /** Saves each chart as a PNG and says where after its text fallback; a chart that could not be saved says so. */
  private async saveCharts(reply: Reply, deliveryId: string): Promise<Reply> {
    const dir = this.options.chartsDir;
    if (!dir || !reply.blocks.some((b) => b.kind === 'image')) return reply;
    const blocks: Block[] = [];
    for (const [i, block] of reply.blocks.entries()) {
      blocks.push(block);
      if (block.kind !== 'image') continue;
      try {
        const bytes = Buffer.from(block.image.pngBase64, 'base64');
        if (bytes.length === 0) throw new Error('the chart is empty');
        const path = join(dir, chartFileName(block.image, deliveryId, i));
        await mkdir(dir, { recursive: true });
        // Written beside, then renamed: a crash never leaves half a PNG under the chart's name.
        const partial = `${path}.${process.pid}.part`;
        await writeFile(partial, bytes);
        await rename(partial, path);
        blocks.push({ kind: 'context', text: `Chart saved: ${shown(path)}` });
      } catch (e) {
        const why = e instanceof Error && 'code' in e ? ` (${String(e.code)})` : '';
        blocks.push({ kind: 'context', text: `(the chart could not be saved${why})` });
      }
    }
    return { ...reply, blocks };
  }
}
