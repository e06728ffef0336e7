// The operator's HTTP endpoints: GET /healthz (JSON; 503 when something is wrong) and GET /metrics (Prometheus text).
// Served by the Slack receiver when Slack runs over HTTP (one port for everything), else by a small server of its own.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Health } from './health.js';
import type { Metrics } from './metrics.js';

export interface OpsRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

export function opsRoutes(health: Health, metrics: Metrics, logger: Logger): OpsRoute[] {
  const fail = (res: ServerResponse, e: unknown) => {
    logger.error('ops endpoint failed', { error: e });
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('internal error\n');
  };
  return [
    {
      path: '/healthz',
      method: 'GET',
      handler: (_req, res) => {
        health.check().then(
          (report) => {
            res.writeHead(report.status === 'ok' ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
            res.end(`${JSON.stringify(report)}\n`);
          },
          (e: unknown) => fail(res, e),
        );
      },
    },
    {
      path: '/metrics',
      method: 'GET',
      handler: (_req, res) => {
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

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/** A plain HTTP server for the routes, when no chat platform serves HTTP on this port. */
export function startOpsServer(routes: readonly OpsRoute[], port: number, host = '0.0.0.0'): Promise<OpsServer> {
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
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
