// A process that drew a chart can still load discord.js afterwards. Vega-Lite adds a method to every Set that
// discord.js's first import tripped over, so a bot whose Discord side loaded after its first chart would not start.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { REPO, nodeArgs } from '../support/child.js';

it('loads discord.js after drawing a chart', async () => {
  const script = new URL('./fixtures/chart-then-discord.ts', import.meta.url);
  const { stdout } = await promisify(execFile)(process.execPath, nodeArgs(script), { cwd: REPO, timeout: 60_000 });
  expect(stdout.trim()).toBe('loaded');
}, 90_000);
