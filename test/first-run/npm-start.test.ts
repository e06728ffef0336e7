// The newcomer's first run, as the README tells it: `npm start` with nothing configured, a search typed in the
// terminal chat, "Save as alert" pressed by its number, and the alert's first new listing arriving while the chat runs.
//
// What runs is the real `npm start` of the real package.json (its prestart and start scripts), in a scratch
// directory so that ./data lands there. Only the build is stood in for: dist/src/cli.js is a two-line shim that
// runs the TypeScript source through tsx, because compiling the whole project (tsc) in a test takes longer than the
// test itself, and would write the checkout's dist/. Everything after `node dist/src/cli.js start` is the real code.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** A scratch project: the real package.json and bin/, node_modules linked, dist/ a shim onto the source. */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'manzil-first-run-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist', 'src'), { recursive: true });
  copyFileSync(join(repo, 'package.json'), join(dir, 'package.json'));
  for (const file of ['manzil.js', 'build.js']) copyFileSync(join(repo, 'bin', file), join(dir, 'bin', file));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  const source = pathToFileURL(join(repo, 'src', 'cli.ts')).href;
  writeFileSync(
    join(dir, 'dist', 'src', 'cli.js'),
    `import { register } from 'tsx/esm/api';\nregister();\nconst { runCli } = await import(${JSON.stringify(source)});\nprocess.exitCode = await runCli(process.argv.slice(2));\n`,
  );
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
  for (const r of running.splice(0)) if (r.child.exitCode === null && r.child.pid) process.kill(-r.child.pid, 'SIGKILL');
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
    // An empty environment: no keys, no database path. Only a faster demo clock than the default 5 seconds.
    const run = npmStart(dir, { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, MANZIL_DEMO_TICK_S: '0.5' });

    await run.waitFor(/demo mode.*new listings appear every few seconds; connect Slack, Discord or a real API key: see README/, 15_000);
    run.child.stdin.write('rent marina\n');
    await run.waitFor(/== Homes for rent in Dubai Marina ==/, 10_000);
    // Cards: price and beds first, then the title.
    expect(run.stdout()).toMatch(/^\* AED [\d,]+\/yr · (Studio|\d+ beds?) +\S/m);
    const [, next, save] = await run.waitFor(/\[(\d+)\] Next ▶ {2}\[(\d+)\] Save as alert/, 5_000);

    run.child.stdin.write(`${save}\n`);
    await run.waitFor(/Saved as alert #1: Homes for rent in Dubai Marina\. .*Checked every 10 seconds/, 10_000);
    // The demo clock adds listings every half second; the alerts run every 10 seconds: at most two runs away.
    const alert = await run.waitFor(/🔔 New listing · Alert #1 · Homes for rent in Dubai Marina\n\* AED [\d,]+\/yr[^\n]*\n(?:.*\n)*?.*\[(\d+)\] Details/, 25_000);
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
  }, 60_000);
});
