// Shared by the sandbox tests: a running sandbox and a small fetch wrapper (global fetch, 127.0.0.1 only).
import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // Parsed JSON; tests assert on its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function get(
  base: string,
  path: string,
  params: Record<string, string> = {},
  key: string | null = 'sandbox-key',
): Promise<Reply> {
  const qs = new URLSearchParams(params).toString();
  const headers: Record<string, string> = { 'x-gateway-host': new URL(base).host };
  if (key !== null) headers['x-gateway-key'] = key;
  const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, { headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A sandbox listening for the whole file; `api(path, params)` calls it with the right key. */
export function useSandbox(options: SandboxOptions = {}) {
  const state: { sandbox: Sandbox; url: string } = {} as never;
  beforeAll(async () => {
    state.sandbox = createSandbox(options);
    state.url = await state.sandbox.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await state.sandbox.close();
  });
  return {
    get sandbox() {
      return state.sandbox;
    },
    get url() {
      return state.url;
    },
    api: (path: string, params: Record<string, string> = {}) => get(state.url, path, params, state.sandbox.key),
    /** Every page of a search until the first empty one. */
    async all(path: string, params: Record<string, string> = {}) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const out: any[] = [];
      for (let page = 1; page < 200; page++) {
        const r = await get(state.url, path, { ...params, page: String(page) }, state.sandbox.key);
        if (r.status !== 200) throw new Error(`${path} page ${page}: ${r.status} ${r.text}`);
        if (r.json.data.length === 0) return out;
        out.push(...r.json.data);
      }
      throw new Error('no empty page after 200 pages');
    },
  };
}
