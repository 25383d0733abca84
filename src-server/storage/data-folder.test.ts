import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { DataFolder } from './data-folder';

let root: string;
beforeEach(() => {
  root = join(mkdtempSync(join(tmpdir(), 'taskreward-folder-')), 'data');
});
afterEach(() => {
  rmSync(join(root, '..'), { recursive: true, force: true });
});

describe('DataFolder', () => {
  it('keeps the database, the secret and the files under its root', () => {
    const folder = new DataFolder(root);
    for (const path of [
      folder.dbFile,
      folder.secretFile,
      folder.filesDir,
      folder.tmpDir,
      folder.backupsDir,
    ]) {
      expect(path.startsWith(`${root}/`)).toBe(true);
    }
  });

  it('creates its layout, even when the root does not exist yet', () => {
    const folder = new DataFolder(root);
    folder.prepare();
    expect(statSync(folder.filesDir).isDirectory()).toBe(true);
    expect(statSync(folder.tmpDir).isDirectory()).toBe(true);
  });

  it('clears the temp folder for the lock holder but keeps the files', () => {
    const folder = new DataFolder(root);
    folder.prepare();
    writeFileSync(join(folder.tmpDir, 'half-written.upload'), 'x');
    writeFileSync(join(folder.filesDir, 'proof.png'), 'x');
    folder.prepare({ clearTemp: true });
    expect(existsSync(join(folder.tmpDir, 'half-written.upload'))).toBe(false);
    expect(existsSync(join(folder.filesDir, 'proof.png'))).toBe(true);
  });

  it('leaves the temp folder alone for other commands (a running server may be mid-upload)', () => {
    const folder = new DataFolder(root);
    folder.prepare();
    writeFileSync(join(folder.tmpDir, 'in-flight.upload'), 'x');
    folder.prepare();
    expect(existsSync(join(folder.tmpDir, 'in-flight.upload'))).toBe(true);
  });

  it('generates a secret once, readable only by its owner, and returns the same one later', () => {
    const folder = new DataFolder(root);
    folder.prepare();
    const first = folder.secret(null);
    expect(first.byteLength).toBeGreaterThanOrEqual(32);
    expect(statSync(folder.secretFile).mode & 0o777).toBe(0o600);
    expect(new DataFolder(root).secret(null)).toEqual(first);
  });

  it('gives different folders different secrets', () => {
    const a = new DataFolder(join(root, 'a'));
    const b = new DataFolder(join(root, 'b'));
    a.prepare();
    b.prepare();
    expect(a.secret(null)).not.toEqual(b.secret(null));
  });

  it('prefers the secret from the environment and writes no file for it', () => {
    const folder = new DataFolder(root);
    folder.prepare();
    expect(new TextDecoder().decode(folder.secret('from-the-env'))).toBe('from-the-env');
    expect(existsSync(folder.secretFile)).toBe(false);
  });

  it('ignores whitespace around a kept secret', () => {
    const folder = new DataFolder(root);
    folder.prepare();
    writeFileSync(folder.secretFile, '  kept-secret\n');
    expect(new TextDecoder().decode(folder.secret(null))).toBe('kept-secret');
    expect(readFileSync(folder.secretFile, 'utf8')).toBe('  kept-secret\n');
  });
});

describe('openApp and the token secret', () => {
  const open = (env: Record<string, string> = {}) =>
    openApp(readConfig({ DATA_DIR: root, ...env }), { web: new Map() });

  it.each([
    ['an empty secret.key', () => writeFileSync(join(root, 'secret.key'), '\n'), {}],
    ['a short secret.key', () => writeFileSync(join(root, 'secret.key'), 'short'), {}],
    ['a short TOKEN_SECRET', () => {}, { TOKEN_SECRET: 'dev' }],
  ])('refuses to start with %s instead of failing every sign-in', async (_label, damage, env) => {
    new DataFolder(root).prepare();
    damage();
    await expect(open(env)).rejects.toThrow(/at least 32 bytes/);
  });

  it('starts with a TOKEN_SECRET of 32 bytes', async () => {
    const opened = await open({ TOKEN_SECRET: 'x'.repeat(32) });
    await opened.close();
  });

  // the nodes sharing one database must share the key, so none may make its own
  it.each([
    ['DATABASE_URL', { DATABASE_URL: 'postgres://taskreward@db.invalid/taskreward' }],
    ['CLUSTER=1', { CLUSTER: '1' }],
  ])(
    'refuses to start one of many nodes (%s) without TOKEN_SECRET, before touching anything',
    async (_label, env) => {
      await expect(open(env)).rejects.toThrow(/^TOKEN_SECRET is required when DATABASE_URL is set: /);
      expect(existsSync(join(root, 'secret.key'))).toBe(false);
      expect(existsSync(join(root, 'taskreward.db'))).toBe(false);
    },
  );

  it('refuses a PostgreSQL pool of one connection (a job holds one for its lock while it works)', async () => {
    await expect(
      open({ DATABASE_URL: 'postgres://taskreward@db.invalid/taskreward', DATABASE_POOL_SIZE: '1' }),
    ).rejects.toThrow(/^DATABASE_POOL_SIZE must be at least 2/);
  });

  it('starts one of many nodes with TOKEN_SECRET, and writes no secret.key', async () => {
    const opened = await open({ CLUSTER: '1', TOKEN_SECRET: 'y'.repeat(32) });
    try {
      expect(opened.deps.config.cluster).toBe(true);
      expect(new TextDecoder().decode(opened.deps.secret)).toBe('y'.repeat(32));
      expect(existsSync(join(root, 'secret.key'))).toBe(false);
    } finally {
      await opened.close();
    }
  });
});
