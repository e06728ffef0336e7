// What the operator's endpoints serve where (docs/security.md, "What is exposed where"): the one place the rule is
// kept.
//   - The ops server (the detailed /healthz and /metrics) binds OPS_HOST, 127.0.0.1 by default, on OPS_PORT; without
//     OPS_PORT, on PORT when no chat platform serves HTTP there (Discord, Socket Mode, `--ops`).
//   - Slack's public port answers only a liveness /healthz (no detail, no database), unless OPS_ON_SLACK_PORT=on.
//   - OPS_TOKEN, when set, guards /metrics and the detailed /healthz wherever they are served.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';

export interface OpsPlan {
  /** What Slack's HTTP port serves besides Slack's events: the liveness /healthz, or everything. */
  slackPort: 'liveness' | 'all';
  /** Where the ops server listens, when one runs. */
  server: { host: string; port: number } | undefined;
}

export function planOps(config: Config, wanted: { chatPlatform: boolean; ops: boolean }): OpsPlan {
  const slackHttp = Boolean(config.slack && !config.slack.appToken);
  const port = config.ops.port ?? (slackHttp ? undefined : wanted.ops || wanted.chatPlatform ? config.port : undefined);
  return {
    slackPort: slackHttp && config.ops.onSlackPort ? 'all' : 'liveness',
    server: port === undefined ? undefined : { host: config.ops.host, port },
  };
}

const loopback = (address: string) => /^(127\.|::1$|::ffff:127\.)/.test(address);

/** The start's log lines about it: where each thing is served, and a warning for metrics readable by anyone. */
export function logOpsPlan(
  plan: OpsPlan,
  config: Config,
  logger: Logger,
  bound: { slackPort?: number | undefined; server?: { host: string; port: number } | undefined },
): void {
  const token = config.ops.token !== undefined;
  const slackHttp = Boolean(config.slack && !config.slack.appToken);
  if (slackHttp && plan.slackPort === 'all') {
    logger.info('ops: GET /healthz and GET /metrics on the Slack port (OPS_ON_SLACK_PORT)', {
      port: bound.slackPort,
      token,
    });
    if (!token)
      logger.warn(
        'ops: /metrics is served on the public Slack port without OPS_TOKEN: anyone who reaches it can read it',
      );
  } else if (slackHttp) {
    logger.info('ops: GET /healthz (liveness only) on the Slack port', { port: bound.slackPort });
  }
  if (bound.server) {
    logger.info('ops: serving GET /healthz and GET /metrics', {
      host: bound.server.host,
      port: bound.server.port,
      token,
    });
    if (!token && !loopback(bound.server.host)) {
      logger.warn(
        'ops: /metrics is served beyond loopback (OPS_HOST) without OPS_TOKEN: anyone who reaches the port can read it',
        { host: bound.server.host },
      );
    }
  } else if (slackHttp && plan.slackPort === 'liveness') {
    logger.info(
      'ops: /metrics and the detailed /healthz are not served: set OPS_PORT (they listen on OPS_HOST, 127.0.0.1 by default)',
    );
  }
}
