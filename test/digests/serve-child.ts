// A Manzil process for the digests restart test: the composition root configured from its environment, serving (its
// heartbeat, jobs and background delivery running) until it is killed. Its modules load first; it starts on the first
// line read from stdin, so the test can start it the moment the previous one is dead.
import { createInterface } from 'node:readline';
import { startManzil } from '../../src/main.js';

process.stdout.write(`${JSON.stringify({ loaded: true })}\n`);
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const manzil = await startManzil({ host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ ready: true, port: manzil.slackPort })}\n`);
