import { hostname } from 'node:os';
import { resolve } from 'node:path';

/** The server's resident size above which it asks V8 to give pooled heap pages back, MB. */
export const DEFAULT_MEMORY_BUDGET_MB = 150;

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
   * One of possibly many app nodes sharing the database: every piece of state that
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
  /**
   * Where proofs and images are kept when not in the data folder: an S3-compatible bucket (AWS S3,
   * Cloudflare R2, MinIO...) that every app node shares. Null: the data folder's files/, the default.
   */
  s3: S3Config | null;
  /**
   * FILES_DIR: a folder every app node mounts (NFS, a shared volume) holding proofs/ and images/,
   * instead of the data folder's files/. Null: the data folder's. Not with S3_BUCKET.
   */
  filesDir: string | null;
  /** NODE_NAME, else the host name: on every log line, and PostgreSQL's view of this node's connections. */
  nodeName: string;
  /** METRICS_TOKEN: /metrics answers a request bearing it; null (the default) and it is a 404. */
  metricsToken: string | null;
  /** METRICS_PORT: /metrics, without a token, on its own port bound to 127.0.0.1; null: none. */
  metricsPort: number | null;
  /**
   * STOP_DRAIN_SECONDS: after a stop signal the server keeps answering, /readyz with 503, this
   * long before it stops taking connections, so a load balancer sees the 503 first (0 by default).
   */
  stopDrainMs: number;
  /**
   * MEMORY_BUDGET_MB: while the server's resident size is above this, it asks V8 now and then to
   * give back the heap pages it keeps pooled (cli/memory-reducer.ts); 150 MB by default, 0: never.
   */
  memoryBudgetBytes: number;
  /**
   * SMTP_URL (nodemailer's URL form: smtp://user:pass@host:587, smtps://user:pass@host:465) and
   * MAIL_FROM (`"TaskReward" <no-reply@example.com>`): mails go out through it. Null: no mail is
   * sent and the screens that would send one say so.
   */
  mail: { smtpUrl: string; from: string } | null;
  /**
   * PUBLIC_URL: the site's address as its users reach it (https://taskreward.example), used in the
   * links mails carry. Null: the address the request came to.
   */
  publicUrl: string | null;
}

/** The mail settings of an environment; null without SMTP_URL. Throws on a half-given setting. */
export function readMailConfig(env: NodeJS.ProcessEnv): Config['mail'] {
  const smtpUrl = env.SMTP_URL?.trim() || '';
  const from = env.MAIL_FROM?.trim() || '';
  if (!smtpUrl) return null;
  if (!/^smtps?:\/\/[^/]/i.test(smtpUrl))
    throw new Error('SMTP_URL must be an smtp:// or smtps:// address (smtp://user:pass@host:587)');
  // a mail without a sender is refused by most servers, and guessing one gets it marked as spam
  if (!from) throw new Error('MAIL_FROM is required with SMTP_URL, e.g. "TaskReward <no-reply@example.com>"');
  if (/[\r\n]/.test(from)) throw new Error('MAIL_FROM must be on one line');
  return { smtpUrl, from };
}

function readPublicUrl(env: NodeJS.ProcessEnv): string | null {
  const text = env.PUBLIC_URL?.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`PUBLIC_URL must be an http:// or https:// address, not "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`PUBLIC_URL must be an http:// or https:// address, not "${text}"`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** An S3-compatible bucket for the stored files (storage/s3-file-store.ts). */
export interface S3Config {
  /** S3_ENDPOINT, e.g. https://<account>.r2.cloudflarestorage.com; null: AWS S3 in `region`. */
  endpoint: string | null;
  /** S3_BUCKET: setting it is what turns object storage on. */
  bucket: string;
  /** S3_REGION (else AWS_REGION), default us-east-1 (R2 takes it as "auto", MinIO's default). */
  region: string;
  /** S3_PREFIX: keys are `<prefix>proofs/<name>` and `<prefix>images/<name>`; '' or ending in '/'. */
  prefix: string;
  /** S3_FORCE_PATH_STYLE=1: bucket in the path (MinIO and most self-hosted servers need it). */
  forcePathStyle: boolean;
  /**
   * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) of the environment given;
   * null when absent, and the SDK looks further (shared config files, instance or task roles).
   */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
}

/** The S3 settings of an environment; null without S3_BUCKET. Throws on a half-given setting. */
export function readS3Config(env: NodeJS.ProcessEnv): S3Config | null {
  const bucket = env.S3_BUCKET?.trim() || '';
  const endpoint = env.S3_ENDPOINT?.trim() || null;
  if (!bucket) {
    // silently keeping files on one node's disk would lose them on a multi-node site
    if (endpoint || env.S3_PREFIX?.trim())
      throw new Error(
        'S3_ENDPOINT or S3_PREFIX is set but S3_BUCKET is not: name the bucket to keep files in',
      );
    return null;
  }
  if (endpoint && !/^https?:\/\/[^/]/i.test(endpoint))
    throw new Error(`S3_ENDPOINT must be an http:// or https:// address, not "${endpoint}"`);
  const prefix = (env.S3_PREFIX?.trim() ?? '').replace(/^\/+|\/+$/g, '');
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both or neither');
  const sessionToken = env.AWS_SESSION_TOKEN?.trim();
  return {
    endpoint,
    bucket,
    region: env.S3_REGION?.trim() || env.AWS_REGION?.trim() || 'us-east-1',
    prefix: prefix ? `${prefix}/` : '',
    forcePathStyle: ['1', 'true'].includes(env.S3_FORCE_PATH_STYLE?.trim().toLowerCase() ?? ''),
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
        : null,
  };
}

function metricsPort(text: string | undefined): number | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const n = Number(trimmed);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new Error(`METRICS_PORT must be a port number from 1 to 65535, not "${trimmed}"`);
  return n;
}

function drainMs(text: string | undefined): number {
  const trimmed = text?.trim();
  if (!trimmed) return 0;
  const n = Number(trimmed);
  if (!Number.isFinite(n) || n < 0 || n > 600)
    throw new Error(`STOP_DRAIN_SECONDS must be a number of seconds from 0 to 600, not "${trimmed}"`);
  return Math.round(n * 1000);
}

function memoryBudget(text: string | undefined): number {
  const trimmed = text?.trim();
  if (!trimmed) return DEFAULT_MEMORY_BUDGET_MB * 1024 * 1024;
  const n = Number(trimmed);
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000)
    throw new Error(`MEMORY_BUDGET_MB must be a whole number of megabytes (0: off), not "${trimmed}"`);
  return n * 1024 * 1024;
}

function poolSize(text: string | undefined): number {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) && n >= 1 && n <= 1000 ? n : 10;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env, webDir?: string): Config {
  const port = Number.parseInt(env.PORT ?? '3000', 10);
  const config: Config = {
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
    s3: readS3Config(env),
    filesDir: env.FILES_DIR?.trim() ? resolve(env.FILES_DIR.trim()) : null,
    nodeName: env.NODE_NAME?.trim() || hostname(),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    metricsPort: metricsPort(env.METRICS_PORT),
    stopDrainMs: drainMs(env.STOP_DRAIN_SECONDS),
    memoryBudgetBytes: memoryBudget(env.MEMORY_BUDGET_MB),
    mail: readMailConfig(env),
    publicUrl: readPublicUrl(env),
  };
  if (config.s3 && config.filesDir)
    throw new Error('FILES_DIR and S3_BUCKET both name where files go: set one of them');
  return config;
}
