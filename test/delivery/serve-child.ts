// A Manzil process for the restart tests: the composition root serving Slack over HTTP on loopback (its heartbeat,
// jobs and background delivery running), configured from its environment, until it is killed. Its modules load first
// (seconds through tsx); it starts on the first line read from stdin, so a test can restart it the moment another
// one dies, as a compiled build under a process manager would start.
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.js';
import { startManzil } from '../../src/app/index.js';

process.stdout.write(`${JSON.stringify({ loaded: true })}\n`);
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
// As `manzil start` runs it: the delivery thread unless DELIVERY_THREAD=off.
const manzil = await startManzil({ host: '127.0.0.1', deliveryThread: loadConfig(process.env).alerts.thread });
process.stdout.write(`${JSON.stringify({ ready: true, port: manzil.slackPort })}\n`);
