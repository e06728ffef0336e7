// The operator's HTTP endpoints: GET /healthz (JSON; 503 when something is wrong) and GET /metrics (Prometheus text).
// Served by a small server of their own on OPS_HOST (loopback by default). The public Slack port answers only a
// liveness /healthz, unless OPS_ON_SLACK_PORT asks for everything there too (see docs/security.md).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import { bearerMatches } from './bearer.js';
import type { Health } from './health.js';
import type { Metrics } from './metrics.js';

export interface OpsRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface OpsAccess {
  /** OPS_TOKEN: when set, /metrics and the detailed /healthz need `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify(body)}\n`);
};

export function opsRoutes(health: Health, metrics: Metrics, logger: Logger, access: OpsAccess = {}): OpsRoute[] {
  const fail = (res: ServerResponse, e: unknown) => {
    logger.error('ops endpoint failed', { error: e });
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('internal error\n');
  };
  // No token configured: whoever reaches the port (loopback by default) may read everything.
  const allowed = (req: IncomingMessage) =>
    access.token === undefined || bearerMatches(req.headers.authorization, access.token);
  return [
    {
      path: '/healthz',
      method: 'GET',
      handler: (req, res) => {
        health.check().then(
          // Without the token, the verdict alone: enough for a probe, nothing about teams, budgets or errors.
          (report) => json(res, report.status === 'ok' ? 200 : 503, allowed(req) ? report : { status: report.status }),
          (e: unknown) => fail(res, e),
        );
      },
    },
    {
      path: '/metrics',
      method: 'GET',
      handler: (req, res) => {
        if (!allowed(req)) {
          // The header's value is never logged: it may be a mistyped token.
          logger.warn('ops: GET /metrics refused: missing or wrong bearer token (OPS_TOKEN)', {
            sent: req.headers.authorization ? 'wrong' : 'none',
          });
          res.writeHead(401, { 'www-authenticate': 'Bearer realm="manzil-ops"', 'content-type': 'text/plain' });
          res.end('unauthorized: send Authorization: Bearer <OPS_TOKEN>\n');
          return;
        }
        metrics.text().then(
          (text) => {
            res.writeHead(200, { 'content-type': metrics.contentType });
            res.end(text);
          },
          (e: unknown) => fail(res, e),
        );
      },
    },
  ];
}

/**
 * GET /healthz for a public port: is the process up and not stopping? No database, no detail, nothing to learn and
 * nothing to write however often it is asked (a load balancer's or Kubernetes' liveness probe).
 */
export function livenessRoutes(health: Health): OpsRoute[] {
  return [
    {
      path: '/healthz',
      method: 'GET',
      handler: (_req, res) => {
        const status = health.live();
        json(res, status === 'ok' ? 200 : 503, { status });
      },
    },
  ];
}

export interface OpsServer {
  port: number;
  /** The address actually bound (127.0.0.1 unless OPS_HOST says otherwise). */
  host: string;
  close(): Promise<void>;
}

/** A plain HTTP server for the routes, on loopback unless told otherwise. */
export function startOpsServer(routes: readonly OpsRoute[], port: number, host = '127.0.0.1'): Promise<OpsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes.find((r) => r.path === path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (req.method !== route.method && !(req.method === 'HEAD' && route.method === 'GET')) {
      res.writeHead(405, { allow: route.method, 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    route.handler(req, res);
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        port: address.port,
        host: address.address,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
