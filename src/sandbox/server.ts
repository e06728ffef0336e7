// The HTTP face of the sandbox: gateway checks (key, plan, quota), injected faults, the 17 operations,
// and the `/__sandbox/` control routes (no key, not logged).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OPERATIONS, checkParams, type OperationName } from '../api/operations.js';
import type { Dataset } from './dataset.js';
import type { FaultRule, Faults } from './faults.js';
import { handle, type TransactionShape } from './handlers.js';
import type { Quota } from './quota.js';
import type { RequestLog } from './request-log.js';

export interface ServerContext {
  ds: Dataset;
  key: string;
  plan: 'basic' | 'full';
  transactionShape: TransactionShape;
  faults: Faults;
  quota?: Quota;
  log: RequestLog;
  advance(minutes: number): { added: number; withdrawn: number; repriced: number; relisted: number };
  stats(): Record<string, number>;
  /** Pending delayed answers, cleared on close so it never hangs. */
  timers: Set<NodeJS.Timeout>;
}

const BY_PATH = new Map(Object.entries(OPERATIONS).map(([name, spec]) => [spec.path as string, name as OperationName]));
const FULL_PLAN_ONLY = new Set<string>(['/search-agents-detailed', '/search-brokers-detailed']);

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

const errorBody = (status: number, error: string) => JSON.stringify({ success: false, error, code: status });

function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > limit) reject(new RangeError('body too large'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

async function control(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL) {
  const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
  const json = (status: number, value: unknown) => send(res, status, JSON.stringify(value));
  try {
    switch (route) {
      case 'POST /__sandbox/advance': {
        const minutes = Number(url.searchParams.get('minutes') ?? '60');
        if (!(minutes > 0)) return json(400, { error: 'minutes must be a positive number' });
        return json(200, { ...ctx.advance(minutes), now: new Date(ctx.ds.now).toISOString() });
      }
      case 'POST /__sandbox/faults': {
        const text = await readBody(req);
        let rule: unknown;
        try {
          rule = JSON.parse(text);
        } catch {
          return json(400, { error: 'the body must be a JSON fault rule' });
        }
        ctx.faults.add(rule as FaultRule);
        return json(201, { ok: true, active: ctx.faults.size });
      }
      case 'DELETE /__sandbox/faults':
        ctx.faults.clear();
        return json(200, { ok: true });
      case 'GET /__sandbox/requests':
        return json(200, ctx.log.list());
      case 'DELETE /__sandbox/requests':
        ctx.log.clear();
        return json(200, { ok: true });
      case 'GET /__sandbox/stats':
        return json(200, { ...ctx.stats(), now: new Date(ctx.ds.now).toISOString() });
      default:
        return json(404, { error: `no control route ${route}` });
    }
  } catch (e) {
    if (e instanceof RangeError) return json(400, { error: e.message });
    throw e;
  }
}

/** Checks that the real service makes beyond the table: an optional parameter sent empty is refused. */
function paramProblems(op: OperationName, params: Record<string, string>): string[] {
  const problems = checkParams(op, params).map((p) => p.message);
  const spec = OPERATIONS[op].params as Record<string, { required?: boolean }>;
  for (const [name, value] of Object.entries(params)) {
    if (value === '' && Object.hasOwn(spec, name) && !spec[name]!.required)
      problems.push(`${name} must not be empty: leave it out to mean all`);
  }
  return problems;
}

function api(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL) {
  const params: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!Object.hasOwn(params, k)) params[k] = v;
  ctx.log.record(req.method ?? 'GET', url.pathname, params, req.headers);

  const sentKey = req.headers['x-gateway-key'];
  if (sentKey === undefined || sentKey === '')
    return send(res, 401, errorBody(401, 'Missing API key: send it in the x-gateway-key header'));
  if (sentKey !== ctx.key) return send(res, 401, errorBody(401, 'Invalid API key'));

  const verdict = ctx.quota?.take();
  const quotaHeaders = verdict?.headers ?? {};
  if (verdict?.exceeded) {
    return send(res, 429, errorBody(429, 'Too many requests: the quota is used up'), {
      ...quotaHeaders,
      'retry-after': String(verdict.retryAfter),
    });
  }

  const effect = ctx.faults.take(url.pathname, params);
  const answer = () => {
    if (effect.status !== undefined) {
      const extra: Record<string, string> =
        effect.retryAfter !== undefined ? { 'retry-after': String(effect.retryAfter) } : {};
      return send(res, effect.status, errorBody(effect.status, `Injected fault: status ${effect.status}`), {
        ...quotaHeaders,
        ...extra,
      });
    }
    const [status, body] = route(ctx, req, url, params);
    if (effect.malformed && status === 200) {
      // Cut mid-document: a client must see a parse failure, not a short page.
      return send(res, 200, body.slice(0, Math.max(1, Math.floor(body.length / 2))), quotaHeaders);
    }
    return send(res, status, body, quotaHeaders);
  };
  if (effect.latencyMs > 0) {
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      answer();
    }, effect.latencyMs);
    ctx.timers.add(timer);
  } else answer();
}

function route(ctx: ServerContext, req: IncomingMessage, url: URL, params: Record<string, string>): [number, string] {
  const op = BY_PATH.get(url.pathname);
  if (!op) return [404, errorBody(404, `Endpoint ${url.pathname} does not exist`)];
  if (req.method !== 'GET') return [405, errorBody(405, `${url.pathname} answers GET only`)];
  if (ctx.plan === 'basic' && FULL_PLAN_ONLY.has(url.pathname)) {
    return [403, errorBody(403, `You are not subscribed to ${url.pathname}: it needs a higher plan`)];
  }
  const problems = paramProblems(op, params);
  if (problems.length > 0) return [400, errorBody(400, problems.join('; '))];
  const result = handle(ctx.ds, op, params, ctx.transactionShape);
  if (result.status !== 200) return [result.status, errorBody(result.status, result.error)];
  return [200, JSON.stringify(result.body)];
}

export function requestListener(ctx: ServerContext) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const work = url.pathname.startsWith('/__sandbox/')
      ? control(ctx, req, res, url)
      : Promise.resolve(api(ctx, req, res, url));
    work.catch((e: unknown) =>
      send(res, 500, errorBody(500, `sandbox error: ${e instanceof Error ? e.message : String(e)}`)),
    );
  };
}
