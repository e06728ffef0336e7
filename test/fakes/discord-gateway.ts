// The fake Discord gateway: a WebSocket server that speaks gateway v10 in JSON as discord.js 14 expects it. HELLO on
// connect; IDENTIFY answered with READY and the guild's GUILD_CREATE; heartbeats acknowledged; a dropped connection
// resumed at resume_gateway_url with the events it missed replayed; privileged intents refused with close 4014.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { guild, ready, snowflake, type World } from './discord-payloads.js';

const OP = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  presence: 3,
  resume: 6,
  reconnect: 7,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
} as const;

/** GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT: an app must be granted these in the developer portal. */
export const PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15);

/** Close codes after which discord.js gives up (it resumes or re-identifies after any other). */
const FATAL_CLOSES = new Set([4004, 4010, 4011, 4012, 4013, 4014]);

interface Session {
  id: string;
  seq: number;
  socket: WebSocket | undefined;
  /** Events sent (or meant to be sent) in this session, for replay on resume. */
  sent: { s: number; packet: string }[];
}

export interface GatewayOptions {
  world: World;
  token: string;
  heartbeatIntervalMs: number;
  /** Privileged intents the application was granted. */
  allowedIntents: number;
}

export class FakeGateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private current: Session | undefined;
  private readonly counts = { identified: 0, resumed: 0 };
  /** Every IDENTIFY's `d` as the client sent it, the token left out. */
  private readonly identifyPayloads: Record<string, unknown>[] = [];
  private readyWaiters: (() => void)[] = [];
  private reconnectWaiters: (() => void)[] = [];
  private isReady = false;
  /** The base address; READY's resume_gateway_url is `${url}/resume` so resumes can be told apart in logs. */
  url = '';

  constructor(private readonly options: GatewayOptions) {
    this.wss.on('connection', (socket, req) => this.onConnection(socket, req));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  stats(): { identified: number; resumed: number } {
    return { ...this.counts };
  }

  /** The IDENTIFY payloads received so far (accepted or not), without their token. */
  identifies(): Record<string, unknown>[] {
    return this.identifyPayloads.map((d) => structuredClone(d));
  }

  ready(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Sends a dispatch in the live session; if the connection is down, it waits in the session for a resume. */
  dispatch(event: string, data: unknown): void {
    const session = this.current;
    if (!session) throw new Error(`fake Discord: no gateway session to dispatch ${event} to (did the client log in?)`);
    this.send(session, event, data);
  }

  /** Closes the live connection: 1006 (or any code under 4000 but 1000) tears the socket down with no close frame. */
  async drop(code: number): Promise<void> {
    const session = this.current;
    const socket = session?.socket;
    if (!session || !socket) throw new Error('fake Discord: no live gateway connection to drop');
    const reconnected = new Promise<void>((resolve) => this.reconnectWaiters.push(resolve));
    session.socket = undefined;
    if (code === 1006) socket.terminate();
    else socket.close(code, 'closed by the fake');
    if (FATAL_CLOSES.has(code)) {
      this.reconnectWaiters = [];
      return;
    }
    await reconnected;
  }

  async close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onConnection(socket: WebSocket, req: IncomingMessage): void {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    if (params.get('v') !== '10') return socket.close(4012, 'Invalid API version');
    if ((params.get('encoding') ?? 'json') !== 'json')
      return socket.close(4002, 'Decode error: the fake speaks JSON only');
    let session: Session | undefined;
    socket.send(
      JSON.stringify({
        op: OP.hello,
        d: { heartbeat_interval: this.options.heartbeatIntervalMs, _trace: ['fake-discord'] },
        s: null,
        t: null,
      }),
    );
    socket.on('message', (raw) => {
      let payload: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(String(raw));
      } catch {
        return socket.close(4002, 'Decode error');
      }
      const d = (typeof payload.d === 'object' && payload.d !== null ? payload.d : {}) as Record<string, unknown>;
      switch (payload.op) {
        case OP.heartbeat:
          return socket.send(JSON.stringify({ op: OP.heartbeatAck, d: null, s: null, t: null }));
        case OP.identify:
          if (session) return socket.close(4005, 'Already authenticated');
          session = this.identify(socket, d);
          return;
        case OP.resume:
          if (session) return socket.close(4005, 'Already authenticated');
          session = this.resume(socket, d);
          return;
        case OP.presence:
        case 4: // voice state
        case 8: // request guild members
          if (!session) return socket.close(4003, 'Not authenticated');
          return;
        default:
          return socket.close(4001, 'Unknown opcode');
      }
    });
    socket.on('close', () => {
      if (session && session.socket === socket) session.socket = undefined;
    });
  }

  private identify(socket: WebSocket, d: Record<string, unknown>): Session | undefined {
    const { token: _token, ...sent } = d;
    this.identifyPayloads.push(sent);
    if (d.token !== this.options.token) {
      socket.close(4004, 'Authentication failed');
      return undefined;
    }
    const intents = d.intents;
    if (typeof intents !== 'number' || !Number.isInteger(intents) || intents < 0 || intents >= 1 << 26) {
      socket.close(4013, 'Invalid intent(s)');
      return undefined;
    }
    if (intents & PRIVILEGED_INTENTS & ~this.options.allowedIntents) {
      socket.close(4014, 'Disallowed intent(s)');
      return undefined;
    }
    const session: Session = { id: snowflake(), seq: 0, socket, sent: [] };
    this.sessions.set(session.id, session);
    this.current = session;
    this.counts.identified++;
    this.send(session, 'READY', ready(this.options.world, session.id, `${this.url}/resume`));
    this.send(session, 'GUILD_CREATE', guild(this.options.world));
    this.isReady = true;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    this.notifyReconnected();
    return session;
  }

  private resume(socket: WebSocket, d: Record<string, unknown>): Session | undefined {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    if (d.token !== this.options.token) {
      socket.close(4004, 'Authentication failed');
      return undefined;
    }
    if (!session || typeof d.seq !== 'number' || d.seq > session.seq) {
      // Discord answers an unknown session with INVALID_SESSION (not resumable): the client identifies again.
      socket.send(JSON.stringify({ op: OP.invalidSession, d: false, s: null, t: null }));
      return undefined;
    }
    session.socket = socket;
    this.current = session;
    this.counts.resumed++;
    for (const missed of session.sent.filter((e) => e.s > (d.seq as number))) socket.send(missed.packet);
    this.send(session, 'RESUMED', { _trace: ['fake-discord'] });
    this.notifyReconnected();
    return session;
  }

  private notifyReconnected(): void {
    for (const resolve of this.reconnectWaiters.splice(0)) resolve();
  }

  private send(session: Session, event: string, data: unknown): void {
    const s = ++session.seq;
    const packet = JSON.stringify({ op: OP.dispatch, t: event, s, d: data });
    session.sent.push({ s, packet });
    if (session.sent.length > 1_000) session.sent.shift();
    session.socket?.send(packet);
  }
}
