// The architecture's import boundaries are lint errors: ESLint with the project's own config, on code that crosses
// them.
import { describe, expect, it } from 'vitest';
import { projectEslint } from './eslint.js';

const eslint = projectEslint();

/** The import-boundary errors ESLint reports for `code` as if it were the file at `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2).map((m) => m.message);
}

/** The errors of one rule ESLint reports for `code` as if it were the file at `filePath`. */
async function ruleErrors(rule: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule && m.severity === 2).map((m) => m.message);
}

const importing = (path: string) => `import { thing } from '${path}';\nexport const x = thing;\n`;

describe('import boundaries', () => {
  it('refuses an adapter importing the parser or the bot internals', async () => {
    const query = await boundaryErrors('adapters/slack/x.ts', importing('../../src/query/index.js'));
    expect(query.join()).toMatch(/adapters may import from src only/);
    const cache = await boundaryErrors('adapters/slack/x.ts', importing('../../src/bot/result-cache.js'));
    expect(cache.join()).toMatch(/adapters may import from src only/);
    // Type-only imports count too: they tie the adapter to the internals just the same.
    expect(
      await boundaryErrors(
        'adapters/console/x.ts',
        "import type { Query } from '../../src/query/types.js';\nexport type Q = Query;\n",
      ),
    ).not.toEqual([]);
  });

  it('lets an adapter import the bot, the message model and the logger', async () => {
    expect(await boundaryErrors('adapters/slack/x.ts', importing('../../src/bot/index.js'))).toEqual([]);
    expect(await boundaryErrors('adapters/slack/x.ts', importing('../../src/views/model.js'))).toEqual([]);
    expect(await boundaryErrors('adapters/console/x.ts', importing('../../src/log.js'))).toEqual([]);
  });

  it('refuses an adapter importing the store, the api client or another adapter', async () => {
    expect(await boundaryErrors('adapters/slack/x.ts', importing('../../src/store/index.js'))).not.toEqual([]);
    expect(await boundaryErrors('adapters/slack/x.ts', importing('../../src/api/client.js'))).not.toEqual([]);
    expect(await boundaryErrors('adapters/slack/x.ts', importing('../console/render.js'))).not.toEqual([]);
  });

  it('keeps the parser pure: src/query may not import the store', async () => {
    const errors = await boundaryErrors('src/query/x.ts', importing('../store/index.js'));
    expect(errors.join()).toMatch(/query and views are pure/);
  });

  it('keeps SQL out of src/alerts: no drizzle-orm or better-sqlite3, only the store repositories; still no adapters', async () => {
    expect((await boundaryErrors('src/alerts/x.ts', importing('drizzle-orm'))).join()).toMatch(
      /alerts write no SQL of their own/,
    );
    expect((await boundaryErrors('src/alerts/x.ts', importing('drizzle-orm/sqlite-core'))).join()).toMatch(
      /alerts write no SQL/,
    );
    expect((await boundaryErrors('src/alerts/x.ts', importing('better-sqlite3'))).join()).toMatch(
      /alerts write no SQL/,
    );
    expect(await boundaryErrors('src/alerts/x.ts', importing('../../adapters/slack/poster.js'))).not.toEqual([]);
    expect(await boundaryErrors('src/alerts/x.ts', importing('../store/index.js'))).toEqual([]);
  });

  it('passes the adapters as they are', async () => {
    const results = await eslint.lintFiles(['adapters/**/*.ts']);
    const crossings = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}: ${m.message}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps the outbox free of any kind of message, and the ports free of implementations', async () => {
    expect((await boundaryErrors('src/outbox/x.ts', importing('../alerts/index.js'))).join()).toMatch(
      /the outbox knows no kind of message/,
    );
    expect((await boundaryErrors('src/outbox/x.ts', importing('drizzle-orm'))).join()).toMatch(
      /the outbox writes no SQL/,
    );
    expect(await boundaryErrors('src/outbox/x.ts', importing('../store/index.js'))).toEqual([]);
    expect((await boundaryErrors('src/ports/x.ts', importing('../store/index.js'))).join()).toMatch(
      /ports are interfaces/,
    );
    expect(await boundaryErrors('adapters/discord/x.ts', importing('../../src/ports/index.js'))).toEqual([]);
  });
});

describe('size and cycles', () => {
  it('refuses a source file over 400 lines, but not one on the named list of exceptions', async () => {
    const long = Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    expect((await ruleErrors('max-lines', 'src/outbox/x.ts', long)).join()).toMatch(/Maximum allowed is 400/);
    expect(await ruleErrors('max-lines', 'src/api/operations.ts', long)).toEqual([]);
  });

  it('refuses an import cycle: the store meta module importing the outbox repository, which imports it', async () => {
    const code = "import { createOutboxRepo } from './outbox.js';\nexport const x = createOutboxRepo;\n";
    expect((await ruleErrors('import-x/no-cycle', 'src/store/meta.ts', code)).join()).toMatch(/cycle/i);
    expect(await ruleErrors('import-x/no-cycle', 'src/store/x.ts', code)).toEqual([]);
  });
});
