// The delivery thread's entry: the drainer, the poller and the digests on a SQLite connection and chat clients of their
// own, so that posting and polling never hold up the main thread's event loop, which answers chat within Slack's 3 s.
// It is another instance on the same database: claims, leases and the heartbeat fence it as they fence two processes.
import { parentPort, workerData } from 'node:worker_threads';
// The composition root without its chat side (loaded only for the roles that serve chat).
import { compose } from '../app/compose.js';
import { createLogger } from '../log.js';
import type { FromWorker, ToWorker, WorkerInit } from './protocol.js';

const port = parentPort!;
const init = workerData as WorkerInit;
const { config } = init;
const send = (m: FromWorker) => port.postMessage(m);

const logger = createLogger({
  level: config.logLevel,
  secrets: config.secrets,
  format: init.logFormat,
  write: (line) => send({ t: 'log', line }),
  base: { thread: 'delivery' },
});
// The background role, in a thread: the main thread decided the service, the schedule and the write lock.
const side = await compose(config, 'background', {
  thread: {
    instance: init.instance,
    service: init.service,
    alertsCron: init.alertsCron,
    writeLock: init.writeLock,
    logger,
    onUpstream: (call) => send({ t: 'upstream', call }),
    events: {
      delivered: (channel, kind) => send({ t: 'delivered', channel, kind }),
      failed: (channel, kind) => send({ t: 'failed', channel, kind }),
      pollerRun: (ok) => send({ t: 'pollerRun', ok }),
    },
  },
});
const { drainer, poll, digests, scheduler } = side;

// The platforms' pause state, told to the main thread when it changes (its /healthz and /metrics read it).
let told = '';
const tellPlatforms = () => {
  const status = drainer.gate.status();
  const now = JSON.stringify(status);
  if (now !== told) send({ t: 'platforms', status });
  told = now;
};
const watch = setInterval(tellPlatforms, 250);

const calls = { drain: () => drainer.drain(), poll, digests };

async function stop(): Promise<void> {
  clearInterval(watch);
  await side.stop();
}

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'start':
      // The heartbeat row first: a claim is only safe once this instance is known alive.
      side
        .start()
        .catch((error: unknown) =>
          logger.error('the delivery thread could not start its heartbeat or its jobs', { error }),
        );
      return;
    case 'poke':
      return drainer.poke();
    case 'runSoon':
      return scheduler.runSoon(m.job);
    case 'call':
      return void calls[m.name]().then(
        (value) => send({ t: 'result', id: m.id, value }),
        (e: unknown) => send({ t: 'result', id: m.id, error: e instanceof Error ? e.message : String(e) }),
      );
    case 'stop':
      return void stop()
        .catch((e: unknown) => logger.error('delivery thread: stop failed', { error: e }))
        .finally(() => {
          send({ t: 'stopped' });
          port.close();
        });
  }
});
tellPlatforms();
send({ t: 'ready' });
