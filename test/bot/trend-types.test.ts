// `trend <area> villa` through the bot on the sandbox: the service answers studio and 1-bed rows for villas too; the
// reply leaves them out and says so, and the rows it keeps are the service's own figures, read raw over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Block } from '../../src/views/model.js';
import { periodTruth } from '../support/period-truth.js';
import { ask, harness, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let h: Harness;
beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox);
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});

async function rawTrend(params: Record<string, string>) {
  const qs = new URLSearchParams(params);
  const res = await fetch(`${sandbox.url}/price-trend-of-location?${qs.toString()}`, {
    headers: { 'x-gateway-key': sandbox.key },
  });
  return ((await res.json()) as { data: { bedroom_id: number; date: string; community_price: number }[] }).data;
}

describe('a trend of a type without studios', () => {
  it('trend of villas in two areas: no studio or 1-bed rows, a note that says so, the rest as the service gives them', async () => {
    const idOf = (area: string) => String(periodTruth(sandbox, { area, kind: 'sold', months: 1 }).areaId);
    for (const [typed, id] of [
      ['jvc', idOf('Jumeirah Village Circle')],
      ['arabian ranches', undefined],
    ] as const) {
      const reply = await ask(h.bot, `trend ${typed} villa`);
      const table = reply.blocks.find((b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table')!;
      expect(
        table.rows.map((r) => r[0]),
        typed,
      ).not.toContain('Studio');
      expect(
        table.rows.map((r) => r[0]),
        typed,
      ).not.toContain('1 bed');
      expect(table.rows.length, typed).toBeGreaterThan(0);
      const note = reply.blocks.find((b) => b.kind === 'context' && b.text.includes('AED per sqft'));
      expect(note && 'text' in note && note.text, typed).toContain(
        'The studio and 1-bed rows the service returns for villas are left out: villas have 2 bedrooms or more.',
      );
      if (id) {
        const raw = await rawTrend({ location_id: id, property_type: 'villa' });
        expect(raw.some((p) => p.bedroom_id === 0)).toBe(true);
        const latest = raw
          .filter((p) => p.bedroom_id === 2)
          .sort((a, b) => a.date.localeCompare(b.date))
          .at(-1)!.community_price;
        expect(table.rows.find((r) => r[0] === '2 beds')![1]).toBe(latest.toLocaleString('en-US'));
      }
    }
  });
});
