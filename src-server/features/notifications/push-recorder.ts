// Test-only: a local HTTP server standing in for OneSignal (never imported by the server).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Reply = { status: number; body: string } | 'hang';

export interface PushRecorder {
  url: string;
  requests: RecordedRequest[];
  /** What the next requests get (200 with a notification id by default). */
  reply(next: Reply): void;
  /** Resolves once `count` requests arrived; rejects after `ms`. */
  waitFor(count: number, ms?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

export async function startPushRecorder(): Promise<PushRecorder> {
  const requests: RecordedRequest[] = [];
  let next: Reply = { status: 200, body: JSON.stringify({ id: 'notification-1', external_id: null }) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (next === 'hang') return;
      res.writeHead(next.status, { 'Content-Type': 'application/json' });
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(r) {
      next = r;
    },
    async waitFor(count, ms = 3000) {
      const until = Date.now() + ms;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} push requests, got ${requests.length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return requests;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (opened, then closed at once). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
