// Flood: one account floods the expensive work (many parallel large profile photos, hundreds
// of password changes) while another user signs in, reads and uploads a photo of their own.
// The other user's requests must all succeed and be delayed by no more than a small factor
// of what they cost on an idle server; the flooder is refused (429/503), and the server's
// memory stays bounded. Prints every figure it measured.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, median, type RequestSpec, send } from '../bench/load';
import { multipart } from '../src-server/features/submissions/submission-test-helpers';
import { jpegFile } from '../src-server/storage/image-fixtures';
import { FULL } from './scale';
import { type ServerProcess, startServerProcess } from './server';

const FLOOD_MS = FULL ? 30_000 : 8_000;
const PHOTO_WORKERS = 40;
const PASSWORD_WORKERS = 30;
const MAX_RATIO = 4;
const PASSWORD = 'flood-pass-1';
// a phone photo of about 3 megapixels, the same for the flooder and the other user
const PHOTO = jpegFile(2000, 1500);

let server: ServerProcess;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

interface Account {
  id: string;
  email: string;
  token: string;
  address: string;
}

function json(
  method: string,
  path: string,
  account: Account | null,
  body?: unknown,
  address?: string,
): RequestSpec {
  return {
    method,
    path,
    headers: {
      'x-forwarded-for': address ?? account?.address ?? '192.0.2.1',
      ...(account ? { authorization: `Bearer ${account.token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

const PHOTO_FORM = multipart([
  { name: 'name', value: 'Flood Test' },
  { name: 'profileImage', filename: 'me.jpg', type: 'image/jpeg', data: PHOTO },
]);
const PHOTO_BODY = Buffer.from(PHOTO_FORM.body);

function photoUpload(account: Account): RequestSpec {
  const { contentType } = PHOTO_FORM;
  const body = PHOTO_BODY;
  return {
    method: 'PUT',
    path: '/api/users/me',
    headers: {
      'x-forwarded-for': account.address,
      authorization: `Bearer ${account.token}`,
      'content-type': contentType,
    },
    body,
  };
}

const parse = (a: Answer) => JSON.parse(a.body.toString()) as Record<string, unknown>;

async function register(name: string, email: string, address: string): Promise<Account> {
  const res = await send(
    server.url,
    json('POST', '/api/auth/register', null, { name, email, password: PASSWORD }, address),
    agent,
  );
  expect(res.status).toBe(201);
  const body = parse(res) as { token: string; data: { _id: string } };
  return { id: body.data._id, email, token: body.token, address };
}

/** Current resident set size of the server, in bytes (VmRSS). */
function rss(): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

interface Measured {
  login: number[];
  read: number[];
  photo: number[];
  statuses: number[];
}

/** The other user's round of requests, one after another: sign-ins, reads, photo uploads. */
async function victimRound(victim: Account, rounds: number): Promise<Measured> {
  const m: Measured = { login: [], read: [], photo: [], statuses: [] };
  for (let i = 0; i < rounds; i++) {
    const login = await send(
      server.url,
      json('POST', '/api/auth/login', null, { email: victim.email, password: PASSWORD }, victim.address),
      agent,
    );
    m.login.push(login.ms);
    m.statuses.push(login.status);
    for (let r = 0; r < 3; r++) {
      const read = await send(server.url, json('GET', '/api/users/me', victim), agent);
      m.read.push(read.ms);
      m.statuses.push(read.status);
    }
    const photo = await send(server.url, photoUpload(victim), agent);
    m.photo.push(photo.ms);
    m.statuses.push(photo.status);
  }
  return m;
}

beforeAll(async () => {
  server = await startServerProcess({ env: { TRUST_PROXY: '1' } });
});

afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

describe('flood of expensive work by one account', () => {
  it('delays another user by a small factor at most, refuses the flooder, and keeps memory bounded', async () => {
    const victim = await register('Victim', 'victim@flood.test', '198.51.100.10');
    const flooder = await register('Flooder', 'flooder@flood.test', '203.0.113.66');

    // warm up (worker thread, argon2, statement cache), then the idle baseline
    await victimRound(victim, 1);
    const idle = await victimRound(victim, FULL ? 8 : 4);
    const rssBefore = rss();

    // the flooder runs in its own process at a lower CPU priority: on this machine it stands
    // in for the attacker's own computer, which would not take the server's cores
    const bodyFile = join(server.dataDir, 'flood-photo-body');
    writeFileSync(bodyFile, PHOTO_BODY);
    const client = spawn(process.execPath, [join(__dirname, 'flood-client.mjs')], {
      env: {
        ...process.env,
        FLOOD_URL: server.url,
        FLOOD_PHOTO_BODY: bodyFile,
        FLOOD_PHOTO_TYPE: PHOTO_FORM.contentType,
        FLOOD_PASSWORD: PASSWORD,
        FLOOD_ADDRESS: flooder.address,
        FLOOD_TOKEN: flooder.token,
        FLOOD_MS: String(FLOOD_MS),
        FLOOD_PHOTO_WORKERS: String(PHOTO_WORKERS),
        FLOOD_PASSWORD_WORKERS: String(PASSWORD_WORKERS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (client.pid) setPriority(client.pid, 10);
    let clientOut = '';
    client.stdout?.on('data', (c: Buffer) => {
      clientOut += c.toString();
    });
    const clientDone = new Promise<void>((r) => client.once('exit', () => r()));
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rss());
    }, 50);
    await new Promise((r) => setTimeout(r, 1_000));
    const started = Date.now();
    const flooded: Measured = { login: [], read: [], photo: [], statuses: [] };
    while (Date.now() - started < FLOOD_MS - 2_000) {
      const round = await victimRound(victim, 1);
      for (const key of ['login', 'read', 'photo', 'statuses'] as const) flooded[key].push(...round[key]);
    }
    await clientDone;
    clearInterval(sampler);
    const floodStatuses = JSON.parse(clientOut.trim().split('\n').at(-1) ?? '{}') as Record<number, number>;

    const ratio = (key: 'login' | 'read' | 'photo') => median(flooded[key]) / median(idle[key]);
    const figures = {
      idleMedianMs: { login: median(idle.login), read: median(idle.read), photo: median(idle.photo) },
      floodedMedianMs: {
        login: median(flooded.login),
        read: median(flooded.read),
        photo: median(flooded.photo),
      },
      ratio: { login: ratio('login'), read: ratio('read'), photo: ratio('photo') },
      victimRequests: flooded.statuses.length,
      flooderStatuses: floodStatuses,
      rssMiB: { before: rssBefore / 2 ** 20, peakDuringFlood: rssPeak / 2 ** 20 },
    };
    console.log(`flood figures: ${JSON.stringify(figures, null, 2)}`);

    // the other user was never refused
    expect(flooded.statuses.every((s) => s === 200)).toBe(true);
    // the flooder was: its share of the queues is two jobs at a time
    expect((floodStatuses[429] ?? 0) + (floodStatuses[503] ?? 0)).toBeGreaterThan(0);
    for (const key of ['login', 'read', 'photo'] as const) expect(ratio(key)).toBeLessThanOrEqual(MAX_RATIO);
    // memory: images waiting their turn hold no buffers
    expect(rssPeak - rssBefore).toBeLessThan(200 * 2 ** 20);
  });
});
