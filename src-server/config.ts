import { resolve } from 'node:path';

/** Everything the process reads from its environment, read once. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * `postgres://…`: the database is PostgreSQL there (many app nodes may share it) instead of the
   * SQLite file in the data folder. Null: SQLite, the default.
   */
  databaseUrl: string | null;
  /**
   * One of possibly many app nodes sharing the database (issue 18): every piece of state that
   * changes an answer is kept in the database, scheduled jobs run on one node at a time, and
   * TOKEN_SECRET is required. On whenever DATABASE_URL is set; `CLUSTER=1` turns it on over the
   * SQLite file too, which is how the tests run the cluster paths (two apps on one file).
   */
  cluster: boolean;
  /** PostgreSQL connections per process (DATABASE_POOL_SIZE, 10 by default). */
  databasePoolSize: number;
  webDir: string;
  tokenSecret: string | null;
  adminEmail: string | null;
  adminPassword: string | null;
  trustProxy: boolean;
  oneSignal: { appId: string | null; apiKey: string | null; baseUrl: string };
}

function poolSize(text: string | undefined): number {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) && n >= 1 && n <= 1000 ? n : 10;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env, webDir?: string): Config {
  const port = Number.parseInt(env.PORT ?? '3000', 10);
  return {
    port: Number.isFinite(port) && port >= 0 && port < 65536 ? port : 3000,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    cluster: Boolean(env.DATABASE_URL) || env.CLUSTER === '1' || env.CLUSTER === 'true',
    databasePoolSize: poolSize(env.DATABASE_POOL_SIZE),
    webDir: resolve(webDir ?? env.WEB_DIR ?? 'dist/web'),
    tokenSecret: env.TOKEN_SECRET || null,
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    oneSignal: {
      appId: env.ONESIGNAL_APP_ID || null,
      apiKey: env.ONESIGNAL_API_KEY || null,
      baseUrl: env.ONESIGNAL_BASE_URL || 'https://api.onesignal.com',
    },
  };
}
