// The newcomer's first run, as the README tells it: `npm start` with nothing configured, a search typed in the
// terminal chat, "Save as alert" pressed by its number, and the alert's first new listing arriving while the chat runs.
//
// What runs is the real `npm start` of the real package.json (its prestart and start scripts) on the real compiled
// JavaScript: the project is built by its own `bin/build.js` (esbuild) into a scratch directory, as a production image
// ships it (dist/, migrations/, package.json, node_modules; no sources), so ./data lands there and the checkout's
// dist/ is left alone. This is also the test that the compiled code runs at all (imports, migrations found).
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A scratch install: the real package.json, package-lock.json and bin/, migrations/ and node_modules linked, dist/
 * built by bin/build.js.
 */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'manzil-first-run-'));
  mkdirSync(join(dir, 'bin'));
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(repo, file), join(dir, file));
  for (const file of ['manzil.js', 'build.js', 'ensure-deps.js'])
    copyFileSync(join(repo, 'bin', file), join(dir, 'bin', file));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(repo, 'migrations'), join(dir, 'migrations'));
  // The sources are linked only for the build: the image ships dist/ alone.
  const sources = ['src', 'adapters', 'tsconfig.json', 'tsconfig.build.json'];
  for (const s of sources) symlinkSync(join(repo, s), join(dir, s));
  execFileSync(process.execPath, [join(dir, 'bin', 'build.js')], { stdio: 'pipe' });
  for (const s of sources) unlinkSync(join(dir, s));
  return dir;
}

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  all(): string;
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray>;
  exit: Promise<number | null>;
}

const running: Run[] = [];
afterEach(() => {
  // npm starts node as its child: end the whole group this test started, if it is still there.
  for (const r of running.splice(0))
    if (r.child.exitCode === null && r.child.pid) process.kill(-r.child.pid, 'SIGKILL');
});

function npmStart(cwd: string, env: Record<string, string>): Run {
  // --no-update-notifier: npm would otherwise ask the registry for a newer npm (tests never leave 127.0.0.1).
  const child = spawn('npm', ['--no-update-notifier', 'start'], { cwd, env, detached: true });
  let out = '';
  let all = '';
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  child.stdout.on('data', (chunk: Buffer) => ((out += chunk.toString()), (all += chunk.toString()), changed()));
  child.stderr.on('data', (chunk: Buffer) => ((all += chunk.toString()), changed()));
  const run: Run = {
    child,
    stdout: () => out,
    all: () => all,
    waitFor: (pattern, ms) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(out);
          if (!m) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(m);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out after ${ms} ms waiting for ${pattern} in:\n${all}`));
        }, ms);
        listeners.add(check);
        check();
      }),
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  running.push(run);
  return run;
}

describe('the first run: npm start with nothing configured', () => {
  it('searches, saves an alert by its button number, shows its first new listing, and quits with 0', async () => {
    const dir = scratchProject();
    // An empty environment: no keys, no database path, the demo clock at its default.
    const run = npmStart(dir, { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir });

    await run.waitFor(
      /demo mode.*new listings appear every few seconds; connect Slack, Discord or a real API key: see README/,
      15_000,
    );
    run.child.stdin.write('rent marina\n');
    await run.waitFor(/== Homes for rent in Dubai Marina ==/, 10_000);
    // Cards: price and beds first, then the title.
    expect(run.stdout()).toMatch(/^\* AED [\d,]+\/yr · (Studio|\d+ beds?) +\S/m);
    const [, next, save] = await run.waitFor(/\[(\d+)\] Next ▶ {2}\[(\d+)\] Save as alert/, 5_000);

    run.child.stdin.write(`${save}\n`);
    await run.waitFor(/Saved as alert #1: Homes for rent in Dubai Marina\. .*Checked every 10 seconds/, 10_000);
    // The demo clock adds listings every 5 seconds, the first in Dubai Marina; the alerts run every 10 seconds: the
    // README promises the first new listing within a minute.
    const alert = await run.waitFor(
      /🔔 New listing · Alert #1 · Homes for rent in Dubai Marina\n\* AED [\d,]+\/yr[^\n]*\n(?:.*\n)*?.*\[(\d+)\] Details/,
      60_000,
    );
    // The alert's button is numbered after the search's, which keep theirs: Next still turns the page.
    expect(Number(alert[1])).toBeGreaterThan(Number(save));
    run.child.stdin.write(`${next}\n`);
    await run.waitFor(/Showing 11–/, 10_000);

    run.child.stdin.write('quit\n');
    expect(await Promise.race([run.exit, new Promise((r) => setTimeout(() => r('still running'), 10_000))])).toBe(0);
    const out = run.stdout();
    expect(out.trimEnd().endsWith('Goodbye.')).toBe(true); // nothing printed after it, not even a late alert
    expect(out).not.toContain('\x1b'); // piped output: no colour codes
    // Log lines never mix with the chat: they go to ./data/manzil.log; only warnings reach the screen (stderr).
    expect(out).not.toMatch(/"level":|INFO/);
    expect(run.all()).not.toMatch(/command answered|alert saved/);
    expect(readFileSync(join(dir, 'data', 'manzil.log'), 'utf8')).toMatch(/"msg":"alert saved"/);
    expect(existsSync(join(dir, 'data', 'manzil.db'))).toBe(true); // the embedded default, under the working directory
    // A bound against a hang only: each step has its own wait, and a loaded machine once took past 120 s in all.
  }, 240_000);
});
