// Every example in help and in docs/ runs (issue 38): each is read where a user reads it (test/docs/examples.ts says
// the rule) and asked of one whole Manzil on the embedded sandbox, in-process. A reply fails the example when it is an
// error, a dead end, or not what the doc says it does. Commands that change what a channel holds run in a channel of
// their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import type { Reply } from '../../src/views/model.js';
import { tempDir } from '../ops/helpers.js';
import { HELP_TOPICS, docExamples, docsFiles, helpExamples, problem, seen, type Example } from './examples.js';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** Commands that change a channel's alerts or digests: each in a fresh channel. */
const CHANGES = /^\/?(?:manzil\s+)?(?:alerts?|digests?)\s+(?:add|remove|pause|resume)\b/iu;

let manzil: Manzil;
let channels = 0;
beforeAll(async () => {
  manzil = await startManzil({
    env: {
      MANZIL_DB_PATH: join(tempDir('manzil-docs-'), 'manzil.db'),
      OPS_PORT: '0',
      MANZIL_DEMO_TICK_S: '0',
      LOG_LEVEL: 'error',
      DELIVERY_THREAD: 'off',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
}, 60_000);
afterAll(() => manzil?.stop());

/** Each channel has a person of its own: the alerts a person may keep are not used up by the examples before. */
const ask = (text: string, channel: string, location?: string) =>
  manzil.bot.handleCommand({
    user: `U${channel.replace(/\W/gu, '')}`,
    channel,
    text,
    ...(location ? { location } : {}),
    isAdmin: async () => true,
  });

/** `/alerts pause 2`: the channel is given two alerts first, as the doc's reader would have. */
const NUMBERED = /^\/?(?:manzil\s+)?(alerts?|digests?)\s+(?:pause|resume|remove|test|more|edit)\s+(\d+)\b/iu;
const SEED: Record<string, (i: number) => string> = {
  alert: (i) => `alerts add rent marina ${i + 1}br`,
  digest: (i) => `digest add ${['jvc', 'jlt', 'marina', 'downtown'][i % 4]}`,
};

async function run(example: Example): Promise<Reply> {
  if (!CHANGES.test(example.text) && !NUMBERED.test(example.text))
    return ask(example.text, 'slack:TDOCS:CMAIN', example.location);
  const channel = `slack:TDOCS:C${++channels}`;
  const numbered = NUMBERED.exec(example.text);
  if (numbered) {
    const seed = SEED[numbered[1]!.toLowerCase().replace(/s$/u, '')]!;
    for (let i = 0; i < Number(numbered[2]); i++) await ask(seed(i), channel);
  }
  return ask(example.text, channel, example.location);
}

/** Runs each example (in order: `/alerts pause 2` finds the alerts added before it in its channel). */
async function failures(examples: readonly Example[]): Promise<string[]> {
  const out: string[] = [];
  for (const example of examples) {
    const reply = await run(example);
    const why = problem(example, reply);
    // DOCS_EXAMPLES_DUMP=<file>: every example and the first line of its reply, to see what the test ran.
    const dump = process.env.DOCS_EXAMPLES_DUMP;
    if (dump) appendFileSync(dump, `${example.where} | ${example.text} | ${seen(reply).text.split('\n')[0]}\n`);
    if (why) out.push(`${example.where}: "${example.text}": ${why}`);
  }
  return out;
}

describe('every example in help and in docs/ runs', () => {
  it('fails an example broken on purpose: an id the sample lacks, a place it lacks, an outcome not given', async () => {
    const broken = docExamples(
      [
        '| `property <id>` | one property | `/property 12345678` |',
        'Search an area: `rent atlantisxyzzy 2br`.',
        'A word of several places (`location jumeirah` asks which one).',
        'One agent: `/agent 99999999 rent`.',
      ].join('\n'),
      'broken.md',
    );
    expect(broken.map((e) => e.text)).toEqual([
      '/property 12345678',
      'rent atlantisxyzzy 2br',
      'location jumeirah',
      '/agent 99999999 rent',
    ]);
    const found = await failures(broken);
    expect(found).toHaveLength(4);
    expect(found[2]).toMatch(/the doc says it asks which one/);
  });

  it('the help texts: every example answers', { timeout: 120_000 }, async () => {
    const examples: Example[] = [];
    for (const topic of HELP_TOPICS) {
      const help = await ask(topic, 'slack:TDOCS:CMAIN');
      examples.push(...helpExamples(help.text, topic));
    }
    expect(examples.length).toBeGreaterThan(50);
    expect(await failures(examples)).toEqual([]);
  });

  it('docs/*.md and README.md: every chat example answers as the doc says', { timeout: 120_000 }, async () => {
    const examples = docsFiles(ROOT).flatMap(([file, text]) => docExamples(text, file));
    expect(examples.length).toBeGreaterThan(80);
    expect(await failures(examples)).toEqual([]);
  });
});
