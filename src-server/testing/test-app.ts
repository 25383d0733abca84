import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createApp } from '../app';
import { type Opened, openApp } from '../bootstrap';
import { readConfig } from '../config';
import { cloneTestDatabase, testDatabaseUrl } from '../db/test-databases';
import { startSession } from '../features/users/sessions.service';
import type { ThrottleLimits } from '../features/users/throttle';
import type { UserRow } from '../features/users/users.repository';
import type { WebAssets } from '../http/web-assets';
import type { expensiveWork } from '../work/expensive-work';
import { CLUSTER_ENV } from './cluster';
import { makeUser } from './factories';

export interface TestApp extends Opened {
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** app.request() with JSON in and out and an optional bearer token. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: BodyInit },
  ): Promise<{ status: number; body: ApiBody; headers: Headers }>;
  tokenFor(user: UserRow, rememberMe?: boolean): Promise<string>;
  /** Closes the database and deletes the temp data folder. */
  dispose(): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field in tests
export type ApiBody = any;

/** Whether this run's test apps are on PostgreSQL (TEST_DATABASE_URL). */
export const testsOnPostgres = testDatabaseUrl() !== null;

/**
 * A real app over a fresh temp data folder and a migrated SQLite file. `web` stands in for
 * the built web app (none by default).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    throttle?: ThrottleLimits;
    clock?: () => Date;
    web?: WebAssets;
    work?: Parameters<typeof expensiveWork>[0];
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskreward-test-'));
  // PostgreSQL when the run has one (TEST_DATABASE_URL): a database of this app's own
  const template = testDatabaseUrl() && !options.env?.DATABASE_URL ? inject('pgTemplate') : null;
  const pgDatabase = template ? await cloneTestDatabase(testDatabaseUrl()!, template) : null;
  const config = readConfig({
    DATA_DIR: dataDir,
    // with DATABASE_URL the app is a node of a cluster, which needs TOKEN_SECRET
    ...(pgDatabase ? { DATABASE_URL: pgDatabase.url, TOKEN_SECRET: CLUSTER_ENV.TOKEN_SECRET } : {}),
    ...options.env,
  });
  const opened = await openApp(config, {
    web: options.web ?? new Map(),
    throttle: options.throttle,
    clock: options.clock,
    work: options.work,
  });
  const app = createApp(opened.deps);
  return {
    ...opened,
    app,
    dataDir,
    async call(method, path, { body, token, headers = {}, raw } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      const h = init.headers as Record<string, string>;
      if (token) h.Authorization = `Bearer ${token}`;
      if (raw !== undefined) init.body = raw;
      else if (body !== undefined) {
        h['Content-Type'] ??= 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const res = await app.request(path, init);
      const text = await res.text();
      let parsed: ApiBody = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    tokenFor: (user, rememberMe = false) => sessionToken(opened.deps, user, rememberMe),
    async dispose() {
      await opened.close();
      await pgDatabase?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A signed-in session of the user on the app of `deps` (as a sign-in makes one) and its token. */
export async function sessionToken(
  deps: Pick<Opened['deps'], 'db' | 'clock' | 'secret'>,
  user: UserRow,
  rememberMe = false,
): Promise<string> {
  return (await startSession(deps, user, rememberMe, { ip: 'local', userAgent: 'test' })).token;
}

/** A test app with one admin ("Admin") and their token: the start of most route tests. */
export async function createAdminTestApp(
  options: Parameters<typeof createTestApp>[0] = {},
): Promise<{ t: TestApp; admin: UserRow; adminToken: string }> {
  const t = await createTestApp(options);
  const admin = await makeUser(t.deps.db, { role: 'admin', name: 'Admin' });
  return { t, admin, adminToken: await t.tokenFor(admin) };
}
