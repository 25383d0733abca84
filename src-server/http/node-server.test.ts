// The served app over real sockets: refusals of uploads reach a browser-like client as JSON,
// and slow clients are cut off by the timeouts.
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import { serveTestApp } from '../testing/http-server';
import { workKey } from '../work/expensive-work';
import { HOLD_MS, heldRefusals, holdRefusal } from './held-refusal';
import { HTTP_TIMEOUTS } from './node-server';

const served = serveTestApp();
const BOUNDARY = 'browser-like-boundary';

/** A multipart proof upload: the part head, `size` bytes of file starting with `head`, the tail. */
function proofBody(head: Buffer, size: number): Buffer {
  const start = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="task"\r\n\r\nsome-task\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="proofImage"; filename="p.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const file = Buffer.alloc(size, 0x41);
  head.copy(file);
  return Buffer.concat([start, file, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

/**
 * Sends a whole request like a browser busy uploading on a slow line (64 KB every 10 ms) and
 * reads nothing until the body is sent: a reset would lose the answer waiting in its buffer.
 */
function browserUpload(
  path: string,
  body: Buffer,
  token?: string,
  method = 'POST',
): Promise<{ answer: string; error: string | null }> {
  return new Promise((resolve) => {
    const socket = net.connect(served.port, '127.0.0.1');
    socket.pause();
    let answer = '';
    let error: string | null = null;
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      if (/\r\n\r\n/.test(answer) && /\}$/.test(answer)) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ answer, error }));
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let offset = 0;
    const pump = () => {
      if (socket.destroyed) return;
      if (offset >= body.length) {
        socket.resume();
        return;
      }
      const chunk = body.subarray(offset, offset + 64 * 1024);
      offset += chunk.length;
      socket.write(chunk, () => setTimeout(pump, 10));
    };
    pump();
  });
}

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function expectJsonError(result: { answer: string; error: string | null }, status: number, code: string) {
  expect(result.error).toBeNull();
  expect(result.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  const body = JSON.parse(result.answer.slice(result.answer.indexOf('\r\n\r\n') + 4));
  expect(body).toMatchObject({ success: false, error: { code } });
}

describe('an upload refused before or while its body is read reaches a slow browser as JSON', () => {
  it('401 without a token, for a 5 MB proof', { timeout: 30_000 }, async () => {
    expectJsonError(
      await browserUpload('/api/submissions', proofBody(PNG_HEAD, 5_000_000)),
      401,
      'unauthorized',
    );
  });

  it('403 for a suspended user', { timeout: 30_000 }, async () => {
    const user = await makeUser(served.t.deps.db, { status: 'suspended' });
    const token = await served.t.tokenFor(user);
    expectJsonError(
      await browserUpload('/api/submissions', proofBody(PNG_HEAD, 5_000_000), token),
      403,
      'suspended',
    );
  });

  it('403 for a user uploading the site logo', { timeout: 30_000 }, async () => {
    const token = await served.t.tokenFor(await makeUser(served.t.deps.db));
    expectJsonError(
      await browserUpload('/api/settings/logo', proofBody(PNG_HEAD, 3_000_000), token, 'PUT'),
      403,
      'forbidden',
    );
  });

  it('413 for a file over 5 MB, refused while it streams in', { timeout: 30_000 }, async () => {
    const token = await served.t.tokenFor(await makeUser(served.t.deps.db));
    expectJsonError(
      await browserUpload('/api/submissions', proofBody(PNG_HEAD, 6_000_000), token),
      413,
      'file_too_large',
    );
  });

  it('415 for a file that is not an image, refused from its first bytes', { timeout: 30_000 }, async () => {
    const token = await served.t.tokenFor(await makeUser(served.t.deps.db));
    expectJsonError(
      await browserUpload('/api/submissions', proofBody(Buffer.from('GIF89a'), 4_000_000), token),
      415,
      'file_type',
    );
  });

  it('429 for an account that already has two images in flight', { timeout: 30_000 }, async () => {
    const user = await makeUser(served.t.deps.db);
    const token = await served.t.tokenFor(user);
    const held = [0, 1].map(() => served.t.deps.work.cpu.reserve(workKey.user(user._id)));
    try {
      const result = await browserUpload('/api/submissions', proofBody(PNG_HEAD, 4_000_000), token);
      expectJsonError(result, 429, 'too_many_requests');
      expect(result.answer).toMatch(/\r\nretry-after: \d+\r\n/i);
    } finally {
      for (const ticket of held) ticket.release();
    }
  });
});

/** A small proof upload over a fresh connection: status, Connection header, ms to the answer. */
function quickUpload(token: string): Promise<{ status: number; connection: string; ms: number }> {
  const body = proofBody(PNG_HEAD, 2_000);
  const started = performance.now();
  const agent = new http.Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: served.port,
        method: 'POST',
        path: '/api/submissions',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': body.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          agent.destroy();
          resolve({
            status: res.statusCode ?? 0,
            connection: String(res.headers.connection ?? ''),
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a flooding account', () => {
  it('gets its next refusal after a pause, with the connection closed', { timeout: 30_000 }, async () => {
    const user = await makeUser(served.t.deps.db);
    const token = await served.t.tokenFor(user);
    const other = await makeUser(served.t.deps.db);
    const otherToken = await served.t.tokenFor(other);
    const held = [0, 1].map(() => served.t.deps.work.cpu.reserve(workKey.user(user._id)));
    const otherHeld = [0, 1].map(() => served.t.deps.work.cpu.reserve(workKey.user(other._id)));
    try {
      // the first refusal is answered at once, its body read, the connection kept
      const first = await quickUpload(token);
      expect(first.status).toBe(429);
      expect(first.connection).not.toBe('close');
      expect(first.ms).toBeLessThan(HOLD_MS / 2);
      // refused again within the window: held, then answered and closed
      const again = await quickUpload(token);
      expect(again.status).toBe(429);
      expect(again.connection).toBe('close');
      expect(again.ms).toBeGreaterThanOrEqual(HOLD_MS - 20);
      // another account's first refusal is not held
      const otherFirst = await quickUpload(otherToken);
      expect(otherFirst.ms).toBeLessThan(HOLD_MS / 2);
    } finally {
      for (const ticket of [...held, ...otherHeld]) ticket.release();
    }
  });

  it('holds at most so many refusals at once; beyond them answers at once', async () => {
    const response = new Response('refused', { status: 429 });
    const before = heldRefusals();
    const waiting = [holdRefusal(response, 200, before + 2), holdRefusal(response, 200, before + 2)];
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    expect(heldRefusals()).toBe(before + 2);
    expect(holdRefusal(response, 200, before + 2)).toBe(response);
    await Promise.all(waiting);
    expect(heldRefusals()).toBe(before);
  });
});

describe('HTTP timeouts', () => {
  it('gives a 5 MB upload at 350 kbit/s room to arrive, and slow headers far less', () => {
    const uploadSeconds = (5 * 1024 * 1024 * 8) / 350_000;
    expect(HTTP_TIMEOUTS.requestMs / 1000).toBeGreaterThan(uploadSeconds);
    expect(HTTP_TIMEOUTS.headersMs).toBeLessThanOrEqual(20_000);
    expect(HTTP_TIMEOUTS.keepAliveMs).toBeLessThanOrEqual(10_000);
    expect(HTTP_TIMEOUTS.idleMs).toBeLessThanOrEqual(60_000);
    expect(served.server.headersTimeout).toBe(HTTP_TIMEOUTS.headersMs);
    expect(served.server.requestTimeout).toBe(HTTP_TIMEOUTS.requestMs);
    expect(served.server.keepAliveTimeout).toBe(HTTP_TIMEOUTS.keepAliveMs);
    expect(served.server.timeout).toBe(HTTP_TIMEOUTS.idleMs);
  });
});

describe('slow clients are cut off', () => {
  const fast = serveTestApp({
    timeouts: { headersMs: 600, requestMs: 1_500, keepAliveMs: 400, idleMs: 5_000, checkEveryMs: 100 },
  });

  /** Opens a socket, runs `drip` on it, and resolves with what came back and when it closed. */
  function timed(drip: (socket: net.Socket) => void): Promise<{ answer: string; ms: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(fast.port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
      drip(socket);
    });
  }

  it('closes a connection whose headers trickle in (slowloris) with a 408 once the headers time is up', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { answer, ms } = await timed((socket) => {
      socket.write('GET /api/settings HTTP/1.1\r\nHost: x\r\n');
      timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    });
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
    expect(ms).toBeLessThan(3_000);
  });

  it('closes a connection whose body trickles in once the request time is up', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { answer, ms } = await timed((socket) => {
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
      timer = setInterval(() => socket.writable && socket.write(' '), 100);
    });
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(1_400);
    expect(ms).toBeLessThan(4_000);
  });

  it('closes an idle keep-alive connection after the keep-alive time', async () => {
    const { answer, ms } = await timed((socket) => {
      socket.write('GET /api/settings HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeLessThan(2_000);
  });
});
