// The log of API requests, for tests and demos. The gateway key never reaches it: the key header is
// always `***`, and the key's text is masked wherever else it might appear.
export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  params: Record<string, string>;
  headers: Record<string, string>;
}

const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  constructor(private readonly key: string) {}

  private mask(text: string): string {
    return text.split(this.key).join('***');
  }

  record(
    method: string,
    path: string,
    params: Record<string, string>,
    rawHeaders: Record<string, string | string[] | undefined>,
  ): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(rawHeaders)) {
      if (value === undefined) continue;
      headers[name] = name === 'x-gateway-key' ? '***' : this.mask(Array.isArray(value) ? value.join(', ') : value);
    }
    const masked: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) masked[this.mask(k)] = this.mask(v);
    this.entries.push({ at: new Date().toISOString(), method, path: this.mask(path), params: masked, headers });
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e, params: { ...e.params }, headers: { ...e.headers } }));
  }

  clear(): void {
    this.entries = [];
  }
}
