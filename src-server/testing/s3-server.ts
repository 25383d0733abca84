// Test-only: a real S3-protocol server on a free port (never imported by the server).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { readS3Config, type S3Config } from '../config';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The environment that points the app at this server (S3_ENDPOINT, S3_BUCKET, credentials...). */
  env: Record<string, string>;
  /** readConfig's s3 field for `env`. */
  config: S3Config;
  /** Every key in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** Puts an object behind the app's back. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** Whether the bucket has an object under exactly this key. */
  has(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Starts the server process (s3-server-child.mjs) and resolves with its port. */
function spawnServer(directory: string, bucket: string): Promise<{ child: ChildProcess; port: number }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 's3-server-child.mjs');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', script, JSON.stringify({ directory, bucket })],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('the test S3 server did not start within 20 s')), 20_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve({ child, port: (JSON.parse(line) as { port: number }).port });
      }
    });
    child.once('exit', (code) => fail(new Error(`the test S3 server exited (${code}): ${err.trim()}`)));
  });
}

/**
 * Starts a real S3-protocol server (@20minutes/s3rver: S3's REST API over HTTP with its XML
 * errors, PutObject, GetObject, DeleteObject, ListObjectsV2 with continuation tokens) in a process
 * of its own on 127.0.0.1 and a free port, keeping its objects in a temp folder, with one empty
 * bucket. It refuses an access key it does not know (it knows S3RVER) but lets signatures through
 * (see s3-server-child.mjs).
 */
export async function startS3Server(options: { bucket?: string; prefix?: string } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'taskreward-test';
  const directory = mkdtempSync(join(tmpdir(), 'taskreward-s3-'));
  let started: Awaited<ReturnType<typeof spawnServer>>;
  try {
    started = await spawnServer(directory, bucket);
  } catch (err) {
    rmSync(directory, { recursive: true, force: true });
    throw err;
  }
  const { child, port } = started;
  const endpoint = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: '1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    ...(options.prefix ? { S3_PREFIX: options.prefix } : {}),
  };
  const config = readS3Config(env)!;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    bucket,
    env,
    config,
    async keys() {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async put(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
    },
    async has(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (err) {
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return false;
        throw err;
      }
    },
    async close() {
      client.destroy();
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.stdin?.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
