import { PNG } from 'pngjs';
import { ADMIN } from './harness';

/** What the server answers: the HTTP status and its JSON envelope. */
export interface ApiReply<T> {
  status: number;
  body: { success: boolean; data: T; error?: { code: string; message: string } };
}

/** A colour as red, green and blue, 0 to 255 (fractions are rounded). */
export type Rgb = readonly [number, number, number];

/** The JSON API of one server: `api` answers whatever the status, `ok` throws unless it is 2xx. */
export interface ApiClient {
  api<T = unknown>(method: string, path: string, token: string | null, body?: unknown): Promise<ApiReply<T>>;
  ok<T = unknown>(method: string, path: string, token: string | null, body?: unknown): Promise<T>;
  /** The admin creates a task from these fields; returns its id. */
  createTask(adminToken: string, fields: Record<string, unknown>): Promise<string>;
  /** The user starts the task and sends a PNG proof; returns the submission id. */
  startAndSubmit(token: string, taskId: string, image: Buffer, description?: string): Promise<string>;
}

/** A client for the API under `baseURL()` (read on each call, so it may be set in beforeAll). */
export function apiClient(baseURL: () => string): ApiClient {
  const api = async <T = unknown>(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<ApiReply<T>> => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${baseURL()}/api${path}`, { method, headers, body: payload });
    return { status: res.status, body: (await res.json()) as ApiReply<T>['body'] };
  };
  const ok = async <T = unknown>(method: string, path: string, token: string | null, body?: unknown) => {
    const reply = await api<T>(method, path, token, body);
    if (reply.status >= 300) {
      throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
    return reply.body.data;
  };
  return {
    api,
    ok,
    async createTask(adminToken, fields) {
      return (await ok<{ _id: string }>('POST', '/tasks', adminToken, fields))._id;
    },
    async startAndSubmit(token, taskId, image, description = 'Ekran görüntüsü ekte.') {
      await ok('POST', `/tasks/${taskId}/start`, token);
      const form = new FormData();
      form.set('task', taskId);
      form.set('description', description);
      form.set('proofImage', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'proof.png');
      return (await ok<{ _id: string }>('POST', '/submissions', token, form))._id;
    },
  };
}

/** Logs in through the API and returns the token (the admin by default). */
export async function apiLogin(
  baseURL: string,
  user: { email: string; password: string } = ADMIN,
): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const body = (await res.json()) as { token: string };
  if (!res.ok) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.token;
}

/** A small real PNG, of one colour or painted pixel by pixel. */
export function makePng(
  width: number,
  height: number,
  colour: Rgb | ((x: number, y: number) => Rgb),
): Buffer {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = typeof colour === 'function' ? colour(x, y) : colour;
      const i = (y * width + x) * 4;
      image.data[i] = Math.round(r);
      image.data[i + 1] = Math.round(g);
      image.data[i + 2] = Math.round(b);
      image.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(image);
}

export interface RegisteredUser {
  id: string;
  token: string;
  name: string;
  email: string;
}

/**
 * Signs people up over the API, each from its own address of `subnet` (`10.40` gives 10.40.x.y:
 * the per-address sign-up limit never trips) and, unless given, with an email made of `prefix`
 * and a counter. One per spec: the counter is its own.
 */
export function registrar(baseURL: () => string, subnet: string, prefix: string) {
  let count = 0;
  return async (
    name: string,
    email?: string,
    extra: Record<string, string> = {},
  ): Promise<RegisteredUser> => {
    count++;
    const address = email ?? `${prefix}${count}@example.test`;
    const res = await fetch(`${baseURL()}/api/auth/register`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `${subnet}.${count >> 8}.${count & 255}`,
      },
      body: JSON.stringify({ name, email: address, password: 'secret123', ...extra }),
    });
    const body = (await res.json()) as { token: string; data: { _id: string } };
    if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
    return { id: body.data._id, token: body.token, name, email: address };
  };
}
