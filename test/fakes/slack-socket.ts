// A fake Slack Socket Mode server: says hello, sends envelopes (slash commands, interactions) and records the acks.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface FakeSocketMode {
  url: string;
  /** Resolves when the app has connected and been greeted. */
  connected: Promise<void>;
  /** Sends one envelope; resolves with the app's ack (its `payload`, if any). */
  send(
    type: 'slash_commands' | 'interactive',
    payload: Record<string, unknown>,
  ): Promise<{ envelope_id: string; payload?: unknown }>;
  close(): Promise<void>;
}

export async function startFakeSocketMode(): Promise<FakeSocketMode> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const pending = new Map<string, (ack: { envelope_id: string; payload?: unknown }) => void>();
  let socket: WebSocket | undefined;
  let seq = 0;
  const connected = new Promise<void>((resolve) => {
    server.on('connection', (ws) => {
      socket = ws;
      ws.on('message', (data) => {
        const ack = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
        if (ack.envelope_id) pending.get(ack.envelope_id)?.(ack as { envelope_id: string });
      });
      ws.send(
        JSON.stringify({
          type: 'hello',
          num_connections: 1,
          debug_info: { host: 'fake' },
          connection_info: { app_id: 'A0MANZIL' },
        }),
      );
      resolve();
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/link`,
    connected,
    send(type, payload) {
      const envelope_id = `env-${++seq}`;
      const acked = new Promise<{ envelope_id: string; payload?: unknown }>((resolve) =>
        pending.set(envelope_id, resolve),
      );
      socket!.send(JSON.stringify({ envelope_id, type, accepts_response_payload: type === 'slash_commands', payload }));
      return acked;
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
