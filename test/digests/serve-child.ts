// A Manzil process for the digests restart test: the composition root configured from its environment, serving (its
// heartbeat, jobs and background delivery running) until it is killed. Its modules load first; it starts on the first
// line read from stdin, so the test can start it the moment the previous one is dead. A second line stops it
// gracefully:
// what it has under way finishes, and it exits 0 once nothing is left to run, so it posts nothing more.
import { createInterface } from 'node:readline';
import { startManzil } from '../../src/app/index.js';

process.stdout.write(`${JSON.stringify({ loaded: true })}\n`);
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
const manzil = await startManzil({ host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ ready: true, port: manzil.slackPort })}\n`);
lines.once('line', () => {
  void manzil.stop().then(() => {
    // It exits once nothing is left to run (no timer, no socket); should something linger, after 5 s.
    lines.close();
    process.stdin.destroy();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
});
