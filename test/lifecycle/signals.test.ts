// `manzil start` under a process manager (piped stdin, as in Docker): SIGTERM lets the answer on its way
// reach the person, then exits 0; a second SIGTERM exits at once.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnChat, type ChatProcess } from '../console/spawn-chat.js';

const running: ChatProcess[] = [];
afterEach(() => running.splice(0).forEach((p) => p.kill()));

async function startWithSlowAnswer(latencyMs: number): Promise<ChatProcess> {
  const p = spawnChat({ tty: false, env: { MANZIL_LOG_FILE: '-' } }); // the log on stderr, where these tests read it
  running.push(p);
  await p.waitFor(/Manzil terminal chat/);
  await p.addFault({ latencyMs, count: 1, path: '/search-rent' });
  p.child.stdin.write('rent marina 2br\n');
  await p.reached('/search-rent'); // the slow upstream call is under way
  return p;
}

// A process started from the TypeScript source takes seconds to start on a loaded machine.
describe('signals', () => {
  it('SIGTERM finishes the answer in flight, closes everything and exits 0', async () => {
    const p = await startWithSlowAnswer(1_200);
    p.child.kill('SIGTERM');
    expect(await p.exit(10_000)).toBe(0);
    const out = p.output();
    expect(out).toMatch(/"signal":"SIGTERM".*signal received/);
    expect(out).toMatch(/== .*Dubai Marina.* ==/);
    expect(out.search(/"msg":"stopped"/)).toBeGreaterThan(out.search(/== .*Dubai Marina.* ==/));
  }, 60_000);

  it('a second SIGTERM exits at once', async () => {
    const p = await startWithSlowAnswer(30_000);
    p.child.kill('SIGTERM');
    await p.waitFor(/signal received/);
    p.child.kill('SIGTERM');
    expect(await p.exit(3_000)).toBe(143);
    expect(p.output()).not.toMatch(/Dubai Marina ==/);
  }, 60_000);
});
