// A bare node:http server on 127.0.0.1 for byte-level control of an answer (dripping, endless bodies).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  url: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

export async function rawServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<RawServer> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headers at once, then one space every `everyMs` for as long as the client listens: the body never ends. */
export function drip(everyMs: number) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** Headers at once, then 64 KiB chunks as fast as the client reads them, without a content-length: never ends. */
export function endless() {
  const chunk = Buffer.alloc(64 * 1024, ' ');
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let open = true;
    res.on('close', () => (open = false));
    const pump = () => {
      while (open && res.write(chunk));
      if (open) res.once('drain', pump);
    };
    pump();
  };
}

/** Polls `condition` every 5 ms until it holds (or throws after `timeoutMs`). */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
