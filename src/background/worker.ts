// The delivery thread's entry: the drainer, the poller and the digests on a SQLite connection and chat clients of their
// own, so that posting and polling never hold up the main thread's event loop, which answers chat within Slack's 3 s.
// It is another instance on the same database: claims, leases and the heartbeat fence it as they fence two processes.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { Heartbeat } from '../jobs/index.js';
import { createLogger } from '../log.js';
import { buildPosters } from '../platforms.js';
import { openService } from '../service.js';
import { openDatabase, WriteLock } from '../store/index.js';
import { backgroundScheduler, composeBackground, digestComposer } from './compose.js';
import type { FromWorker, ToWorker, WorkerInit } from './protocol.js';

const port = parentPort!;
const init = workerData as WorkerInit;
const { config, service, instance } = init;
const send = (m: FromWorker) => port.postMessage(m);

const logger = createLogger({
  level: config.logLevel,
  secrets: config.secrets,
  format: init.logFormat,
  write: (line) => send({ t: 'log', line }),
  base: { thread: 'delivery' },
});
// Another instance on the same database: on SQLite, its writes take turns with the main thread's (write-lock.ts).
const db = await openDatabase({
  dbPath: config.dbPath,
  postgres: config.postgres,
  writeLock: init.writeLock && new WriteLock(init.writeLock, threadId, false),
  onError: (error) => logger.warn('a Postgres connection failed; the pool opens another', { error }),
});
const { api, shares } = await openService(config, logger, db, (call) => send({ t: 'upstream', call }));
const posters = buildPosters(config, db, logger);
const repos = { alerts: db.alerts, outbox: db.outbox, leases: db.leases, digests: db.digests };
const heartbeat = new Heartbeat(repos.leases, instance);
const scheduler = backgroundScheduler(config, logger);
const stopping = new AbortController();
const { drainer, poll, digests } = composeBackground({
  config,
  api,
  service,
  repos,
  buttons: db.buttons(service),
  composer: digestComposer(config, api, undefined, { cache: db.marketCache(service), logger }).composer,
  posters,
  logger,
  instance,
  heartbeat,
  scheduler,
  alertsCron: init.alertsCron,
  shares,
  signal: stopping.signal,
  ownThread: true,
  events: {
    delivered: (channel, kind) => send({ t: 'delivered', channel, kind }),
    failed: (channel, kind) => send({ t: 'failed', channel, kind }),
    pollerRun: (ok) => send({ t: 'pollerRun', ok }),
  },
});

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
  stopping.abort();
  await scheduler.stop();
  await drainer.stop();
  await heartbeat.stop();
  await api.close();
  await db.close();
}

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'start':
      // The heartbeat row first: a claim is only safe once this instance is known alive.
      heartbeat
        .start()
        .then(() => {
          drainer.start();
          return scheduler.start();
        })
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
