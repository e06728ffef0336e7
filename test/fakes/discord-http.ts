// The HTTP side of the fake Discord: reading a request as @discordjs/rest sends it (JSON, or multipart with
// `payload_json` and `files[n]`), Discord's error bodies, and the faults a test can queue (429s, failures, held
// answers).
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface UploadedFile {
  field: string;
  name: string;
  size: number;
  contentType: string;
  data: Buffer;
}

export interface ParsedRequest {
  method: string;
  /** The path under `/api/v10`, percent-decoded (`/webhooks/1/tok/messages/@original`). */
  path: string;
  query: Record<string, string>;
  body: unknown;
  files: UploadedFile[];
  authorization: string | undefined;
}

/** What discord.js reads from a Discord error: `code` (Discord's JSON error code), `message`, maybe `errors`. */
export function discordError(code: number, message: string, errors?: unknown): Record<string, unknown> {
  return errors === undefined ? { message, code } : { message, code, errors };
}

/** Discord's shape for a refused field: `{ field: { _errors: [{ code, message }] } }`. */
export function fieldError(field: string, code: string, message: string): Record<string, unknown> {
  return { [field]: { _errors: [{ code, message }] } };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Multipart as undici's FormData writes it; parsed by the platform's own Response, not by hand. */
async function parseMultipart(raw: Buffer, contentType: string): Promise<{ body: unknown; files: UploadedFile[] }> {
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  let body: unknown = {};
  const files: UploadedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') body = JSON.parse(value);
      continue;
    }
    const data = Buffer.from(await value.arrayBuffer());
    files.push({ field, name: value.name, size: data.length, contentType: value.type, data });
  }
  return { body, files };
}

export class BadBody extends Error {}

export async function parseRequest(req: IncomingMessage, prefix: string): Promise<ParsedRequest> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const rawPath = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
  const path = rawPath
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
  const raw = await readBody(req);
  const contentType = req.headers['content-type'] ?? '';
  let body: unknown;
  let files: UploadedFile[] = [];
  try {
    if (contentType.startsWith('multipart/form-data')) ({ body, files } = await parseMultipart(raw, contentType));
    else if (raw.length > 0) body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadBody('the body could not be parsed');
  }
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query: Object.fromEntries(url.searchParams),
    body,
    files,
    authorization: req.headers.authorization,
  };
}

export function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Rule {
  method: string;
  path: RegExp;
  remaining: number;
  answer: () => Answer;
}

interface StickyRule {
  method: string;
  path: RegExp;
  answer: Answer;
}

interface HoldRule {
  method: string;
  path: RegExp;
  onArrive: (flush: () => void) => void;
}

/** The faults a test queued, matched by method and a regex on the path under /api/v10, first queued first. */
export class Faults {
  private readonly rules: Rule[] = [];
  private readonly sticky: StickyRule[] = [];
  private readonly holds: HoldRule[] = [];
  private readonly pending = new Set<() => void>();

  /**
   * `resetAfterSeconds` goes in X-RateLimit-Reset-After (and X-RateLimit-Reset); `retryAfterSeconds` in Retry-After and
   * the body's `retry_after`. Discord usually sends one value in both; a test may make them differ to see which one
   * the client waits.
   */
  rateLimit(
    method: string,
    path: RegExp,
    resetAfterSeconds: number,
    retryAfterSeconds: number,
    times: number,
    global: boolean,
  ): void {
    const bucket = `fake-bucket-${this.rules.length + 1}`;
    this.rules.push({
      method: method.toUpperCase(),
      path,
      remaining: times,
      answer: () => ({
        status: 429,
        body: {
          message: 'You are being rate limited.',
          retry_after: retryAfterSeconds,
          global,
          ...(global ? { code: 0 } : {}),
        },
        headers: {
          // @discordjs/rest waits X-RateLimit-Reset-After for the bucket and Retry-After for a global limit.
          'retry-after': String(retryAfterSeconds),
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String((Date.now() / 1000 + resetAfterSeconds).toFixed(3)),
          'x-ratelimit-reset-after': String(resetAfterSeconds),
          'x-ratelimit-bucket': bucket,
          'x-ratelimit-scope': global ? 'global' : 'user',
          ...(global ? { 'x-ratelimit-global': 'true' } : {}),
        },
      }),
    });
  }

  fail(method: string, path: RegExp, status: number, times: number): void {
    this.rules.push({
      method: method.toUpperCase(),
      path,
      remaining: times,
      answer: () => ({
        status,
        body: discordError(0, `${status}: ${status >= 500 ? 'Internal Server Error' : 'Injected failure'}`),
      }),
    });
  }

  /**
   * Until the returned function is called, requests matching method (`*` for any) and path answer `status` with
   * Discord's error body (`code`, 0 unless given) and are not carried out.
   */
  failUntilOff(method: string, path: RegExp, status: number, code = 0, message?: string): () => void {
    const text =
      message ??
      (code !== 0
        ? `Discord error ${code}`
        : `${status}: ${status === 401 ? 'Unauthorized' : status >= 500 ? 'Service Unavailable' : 'Injected failure'}`);
    const rule: StickyRule = { method: method.toUpperCase(), path, answer: { status, body: discordError(code, text) } };
    this.sticky.push(rule);
    return () => {
      const i = this.sticky.indexOf(rule);
      if (i >= 0) this.sticky.splice(i, 1);
    };
  }

  hold(method: string, path: RegExp): { arrived: Promise<void>; release(): void } {
    let flush: (() => void) | undefined;
    let released = false;
    const arrived = new Promise<void>((resolve) => {
      this.holds.push({
        method: method.toUpperCase(),
        path,
        onArrive: (f) => {
          flush = () => {
            this.pending.delete(flush!);
            f();
          };
          this.pending.add(flush);
          if (released) flush();
          resolve();
        },
      });
    });
    return {
      arrived,
      release() {
        released = true;
        flush?.();
      },
    };
  }

  /** The injected answer for this request, if a rule matches (and uses up one of its times). */
  takeAnswer(method: string, path: string): Answer | undefined {
    const stuck = this.sticky.find((r) => (r.method === '*' || r.method === method) && r.path.test(path));
    if (stuck) return stuck.answer;
    const rule = this.rules.find((r) => r.remaining > 0 && r.method === method && r.path.test(path));
    if (!rule) return undefined;
    rule.remaining--;
    return rule.answer();
  }

  /** Whether this request's answer is to be held; if so, registers the flush. */
  takeHold(method: string, path: string): ((flush: () => void) => void) | undefined {
    const i = this.holds.findIndex((h) => h.method === method && h.path.test(path));
    if (i < 0) return undefined;
    return this.holds.splice(i, 1)[0]!.onArrive;
  }

  /** Answers every held request (on close, so no socket waits forever). */
  releaseAll(): void {
    for (const flush of [...this.pending]) flush();
  }
}
