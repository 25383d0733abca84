// The test app behind a real Node HTTP server on a free port, for tests that need real sockets
// (raw request targets, connection headers, parser errors), and a raw-socket request.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { type HttpTimeouts, serveApp } from '../http/node-server';
import { createTestApp, type TestApp } from './test-app';

export interface ServedTestApp {
  readonly t: TestApp;
  readonly server: Server;
  readonly port: number;
}

/** Starts the test app on a free port, served as `serve` does, before the file's tests; stops it after. */
export function serveTestApp(
  options: { timeouts?: Partial<HttpTimeouts>; app?: Parameters<typeof createTestApp>[0] } = {},
): ServedTestApp {
  const state: { t?: TestApp; server?: Server; port?: number } = {};
  beforeAll(async () => {
    state.t = await createTestApp(options.app);
    // the production server setup (timeouts, parser errors, refused bodies read to the end)
    state.server = serveApp(state.t.app.fetch, {
      port: 0,
      hostname: '127.0.0.1',
      timeouts: options.timeouts,
    });
    await new Promise<void>((r) => state.server?.once('listening', () => r()));
    state.port = (state.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => state.server?.close(r));
    await state.t?.dispose();
  });
  return {
    get t() {
      if (!state.t) throw new Error('the test app is not started yet');
      return state.t;
    },
    get server() {
      if (!state.server) throw new Error('the test app is not started yet');
      return state.server;
    },
    get port() {
      if (state.port === undefined) throw new Error('the test app is not started yet');
      return state.port;
    },
  };
}

/** Writes one raw request and resolves with everything the server sent until it closed. */
export function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString();
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(request);
  });
}
