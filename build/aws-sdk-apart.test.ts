// The AWS SDK is built into a file of its own beside the server bundle (build.mjs, awsSdkApart):
// the bundle stays small for every start, and a server with its files in S3 loads the file at its
// first request, through the loader's code-cache path and through a plain require alike.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3 } from '../src-server/testing/s3-server';

const root = resolve('.');
const dir = join(root, 'dist/server');
const data = mkdtempSync(join(tmpdir(), 'taskreward-sdk-apart-'));
let s3: TestS3;
beforeAll(async () => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  s3 = await startS3Server();
}, 120_000);
afterAll(async () => {
  await s3?.close();
  rmSync(data, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string> = {}, node: string[] = []) {
  const res = spawnSync(process.execPath, [...node, join(dir, 'main.cjs'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: data, ...env },
    encoding: 'utf8',
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe('the AWS SDK beside the server bundle', () => {
  it('is not in server.cjs, only in aws-sdk-s3.cjs', () => {
    // the S3 client's service name appears once in the SDK's code
    expect(readFileSync(join(dir, 'server.cjs'), 'utf8')).not.toContain('"AmazonS3"');
    expect(readFileSync(join(dir, 'aws-sdk-s3.cjs'), 'utf8')).toContain('"AmazonS3"');
  });

  it('is loaded by a server whose files are in S3, through the code-cache loader and a plain require', () => {
    const folder = join(data, 'data');
    expect(run(['migrate', '--data', folder]).code).toBe(0);
    const expected = `all checks passed for ${folder} and S3 bucket ${s3.bucket} at ${s3.endpoint}`;
    // the loader compiles server.cjs through vm
    expect(run(['doctor', '--data', folder], s3.env)).toEqual({ code: 0, out: `${expected}\n` });
    // npm start: --enable-source-maps, and the loader requires the bundle instead
    expect(run(['doctor', '--data', folder], s3.env, ['--enable-source-maps'])).toEqual({
      code: 0,
      out: `${expected}\n`,
    });
    // and the S3 settings are read: a wrong bucket is an error, not "no files"
    const wrong = run(['doctor', '--data', folder], { ...s3.env, S3_BUCKET: 'no-such-bucket' });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toBe(
      `S3 bucket no-such-bucket at ${s3.endpoint}: listing proofs/: The specified bucket does not exist\n`,
    );
  });
});
