import type { ApiErrorBody } from '@contract/errors';

/** A failed API call: the contract's code and message, or `network_error` when nothing answered. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const TOKEN_KEY = 'token';

type Listener = (error: ApiError) => void;
const listeners = new Set<Listener>();

/** Called for every failed call (the auth state listens for `banned` and expired sessions). */
export function onApiError(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    (value as ApiErrorBody).success === false
  );
}

/** Calls the API with the stored bearer token; resolves to the whole success body. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    const error = new ApiError(0, 'network_error', 'Please check your internet connection');
    for (const l of listeners) l(error);
    throw error;
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    // an empty or non-JSON reply is handled below by its status
  }
  if (!res.ok || isErrorBody(json)) {
    const e = isErrorBody(json) ? json.error : { code: 'internal', message: res.statusText };
    const { code, message, errors, ...details } = e;
    const error = new ApiError(res.status, code, message, errors ?? {}, details);
    for (const l of listeners) l(error);
    throw error;
  }
  return json as T;
}

/** The `data` of a success body. */
export async function getData<T>(path: string, options?: RequestOptions): Promise<T> {
  const body = await request<{ data: T }>(path, options);
  return body.data;
}
