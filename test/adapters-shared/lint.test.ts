// adapters/shared is the one place every adapter may import besides its own folder; it imports no adapter and no
// platform library. ESLint with the project's own config, on code that crosses (or keeps to) the boundary.
import { describe, expect, it } from 'vitest';
import { projectEslint } from '../lint/eslint.js';

const eslint = projectEslint();

/** The import-boundary errors ESLint reports for `code` as if it were the file at `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2).map((m) => m.message);
}

const importing = (path: string) => `import { thing } from '${path}';\nexport const x = thing;\n`;

describe('adapters/shared boundaries', () => {
  it.each(['slack', 'discord', 'console'])(
    'lets the %s adapter import adapters/shared, by either path',
    async (name) => {
      expect(await boundaryErrors(`adapters/${name}/x.ts`, importing('../shared/text.js'))).toEqual([]);
      expect(await boundaryErrors(`adapters/${name}/x.ts`, importing('../../adapters/shared/table.js'))).toEqual([]);
    },
  );

  it.each([
    ['slack', '../discord/render.js'],
    ['discord', '../slack/render-text.js'],
    ['console', '../../adapters/slack/send.js'],
    ['slack', '../sharedish/x.js'],
  ])('still refuses the %s adapter importing another adapter (%s)', async (name, path) => {
    expect((await boundaryErrors(`adapters/${name}/x.ts`, importing(path))).join()).toMatch(
      /adapters never import each other/,
    );
  });

  it('refuses adapters/shared importing a specific adapter', async () => {
    for (const path of [
      '../slack/render.js',
      '../discord/send.js',
      '../console/render.js',
      '../../adapters/slack/limits.js',
    ]) {
      expect((await boundaryErrors('adapters/shared/x.ts', importing(path))).join(), path).toMatch(
        /adapters\/shared imports no adapter/,
      );
    }
  });

  it('refuses adapters/shared importing a platform library', async () => {
    for (const lib of ['@slack/bolt', '@slack/types', 'discord.js', 'picocolors']) {
      expect((await boundaryErrors('adapters/shared/x.ts', importing(lib))).join(), lib).toMatch(
        /adapters\/shared knows no platform/,
      );
    }
  });

  it('holds adapters/shared to the adapters’ own limits on src', async () => {
    expect((await boundaryErrors('adapters/shared/x.ts', importing('../../src/bot/result-cache.js'))).join()).toMatch(
      /adapters may import from src only/,
    );
    expect(await boundaryErrors('adapters/shared/x.ts', importing('../../src/store/index.js'))).not.toEqual([]);
    expect(await boundaryErrors('adapters/shared/x.ts', importing('../../src/views/model.js'))).toEqual([]);
    expect(await boundaryErrors('adapters/shared/x.ts', importing('./text.js'))).toEqual([]);
  });

  it('passes adapters/shared as it is', async () => {
    const results = await eslint.lintFiles(['adapters/shared/**/*.ts']);
    expect(results.length).toBeGreaterThan(0);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.ruleId}: ${m.message}`))).toEqual(
      [],
    );
  });
});
