// Test-only (never imported by the server): backup to restore as an operator meets it, shared by
// the journey on the server bundle (backup-journey.test.ts) and the single binary's checks
// (build/binary.check.ts). A data folder holding every kind of stored file, made by the real
// server over HTTP; what its users see of it, to compare after a restore; and the guard that
// the folder holds a file of every kind the store defines.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { openDatabase } from '../db/database';
import { referencedFiles } from '../storage/backup-files';
import { DataFolder } from '../storage/data-folder';
import { icoFile, pngFile } from '../storage/image-fixtures';
import { FILE_KINDS, FILE_ROLES, type FileRole, STORED_TYPES } from '../storage/stored-names';
import { screenshot } from '../testing/screenshots';

/** How a journey runs the product: its CLI, and its server on a data folder. */
export interface Operator {
  /** Runs a command to its end: its exit code and everything it printed. */
  cli(args: string[], env?: NodeJS.ProcessEnv): { code: number | null; out: string };
  /** Starts `serve` on a data folder and resolves once it listens. */
  serve(data: string, env?: NodeJS.ProcessEnv): Promise<RunningServer>;
}

export interface RunningServer {
  url: string;
  output(): string;
  stop(): Promise<unknown>;
}

export const OWNER = { email: 'owner@journey.test', password: 'owner-pass-1', name: 'Owner' };
export const WORKERS = [
  { name: 'Ayşe Worker', email: 'ayse@journey.test', password: 'ayse-pass-1' },
  { name: 'Bora Worker', email: 'bora@journey.test', password: 'bora-pass-1' },
];
const ACCOUNTS = [OWNER, ...WORKERS];

// biome-ignore lint/suspicious/noExplicitAny: the journey reads a few fields of JSON replies
type Json = any;

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${url}${path}`, { method, headers, body: payload });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

async function ok(url: string, method: string, path: string, token?: string, body?: unknown): Promise<Json> {
  const res = await call(url, method, path, token, body);
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

function form(fields: Record<string, string>, file: { field: string; bytes: Uint8Array; type: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  f.set(
    file.field,
    new Blob([new Uint8Array(file.bytes)], { type: file.type }),
    `upload.${file.type.slice(6)}`,
  );
  return f;
}

async function signIn(url: string, account: { email: string; password: string }) {
  const res = await call(url, 'POST', '/api/auth/login', undefined, account);
  return res.status === 200 ? (res.json.token as string) : null;
}

/**
 * Fills a fresh data folder through a real server: the owner (made by `create-admin`) sets a
 * logo and a favicon; two workers sign up, one sets a profile photo; both send the same
 * screenshot as proof for two tasks (a PNG and a re-encoded JPEG, each with its WebP
 * thumbnail), which flags the second as a duplicate; the first is approved and paid, the
 * second rejected and appealed; the owner gives the second worker a balance by hand.
 */
export async function fillEveryKind(op: Operator, data: string): Promise<void> {
  const admin = op.cli([
    'create-admin',
    '--email',
    OWNER.email,
    '--password',
    OWNER.password,
    '--name',
    OWNER.name,
    '--data',
    data,
  ]);
  expect(admin, admin.out).toMatchObject({ code: 0 });
  const server = await op.serve(data);
  try {
    const url = server.url;
    const owner = (await signIn(url, OWNER)) as string;
    expect(owner).toBeTruthy();
    await ok(
      url,
      'PUT',
      '/api/settings/logo',
      owner,
      form({}, { field: 'logo', bytes: pngFile(32, 16, { text: 'logo' }), type: 'image/png' }),
    );
    await ok(
      url,
      'PUT',
      '/api/settings/favicon',
      owner,
      form({}, { field: 'favicon', bytes: icoFile(), type: 'image/x-icon' }),
    );
    const tokens: string[] = [];
    const ids: string[] = [];
    for (const w of WORKERS) {
      const r = await ok(url, 'POST', '/api/auth/register', undefined, w);
      tokens.push(r.token);
      ids.push(r.data._id);
    }
    await ok(
      url,
      'PUT',
      '/api/users/me',
      tokens[0],
      form(
        { name: WORKERS[0].name },
        { field: 'profileImage', bytes: pngFile(16, 12, { text: 'me' }), type: 'image/png' },
      ),
    );
    const task = async (title: string) =>
      (
        await ok(url, 'POST', '/api/tasks', owner, {
          title,
          description: `${title}: send a screenshot`,
          reward: 12.5,
          maxCompletions: 10,
        })
      ).data._id as string;
    const png = await screenshot(7);
    const jpeg = await sharp(png).resize(360).jpeg({ quality: 70 }).toBuffer();
    const proofs: string[] = [];
    for (const [i, [bytes, type]] of (
      [
        [png, 'image/png'],
        [jpeg, 'image/jpeg'],
      ] as const
    ).entries()) {
      const taskId = await task(`Task ${i + 1}`);
      await ok(url, 'POST', `/api/tasks/${taskId}/start`, tokens[i]);
      const sent = await ok(
        url,
        'POST',
        '/api/submissions',
        tokens[i],
        form({ task: taskId }, { field: 'proofImage', bytes, type }),
      );
      proofs.push(sent.data._id);
    }
    await ok(url, 'PUT', `/api/submissions/${proofs[0]}/review`, owner, {
      status: 'approved',
      feedback: 'Well done',
    });
    await ok(url, 'PUT', `/api/submissions/${proofs[1]}/review`, owner, {
      status: 'rejected',
      feedback: 'This is a copy',
      rejectionReason: 'irrelevant_evidence',
    });
    await ok(url, 'POST', `/api/submissions/${proofs[1]}/appeal`, tokens[1], {
      message: 'It is my own screenshot, please look again',
    });
    await ok(url, 'PUT', `/api/admin/users/${ids[1]}`, owner, {
      name: WORKERS[1].name,
      email: WORKERS[1].email,
      balance: 40,
    });
  } finally {
    await server.stop();
  }
}

const sha = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

/** A stored file as served: its content type and the sha256 of its bytes. */
async function served(url: string, path: string | null): Promise<string | null> {
  if (!path) return null;
  const res = await fetch(`${url}${path}`);
  expect(res.status, path).toBe(200);
  return `${res.headers.get('content-type')} ${sha(await res.arrayBuffer())}`;
}

/**
 * What the folder's people see through a running server: every account signs in with its
 * password; each one's balance and profile photo; the site's logo and favicon; every proof and
 * thumbnail (through the signed URLs the server hands out), its status, appeal and flags. Two
 * equal views mean the same sign-ins, balances and bytes.
 */
export async function whatUsersSee(url: string): Promise<Json> {
  const view: Json = { accounts: {}, site: {}, submissions: {} };
  let ownerToken = '';
  for (const account of ACCOUNTS) {
    const token = await signIn(url, account);
    expect(token, `${account.email} signs in`).toBeTruthy();
    if (account === OWNER) ownerToken = token as string;
    const me = (await ok(url, 'GET', '/api/users/me', token as string)).data;
    view.accounts[account.email] = {
      role: me.role,
      balance: me.balance,
      photo: await served(url, me.profileImage),
    };
    for (const s of (await ok(url, 'GET', '/api/submissions/user', token as string)).data as Json[]) {
      const asAdmin = (await ok(url, 'GET', `/api/admin/submissions/${s._id}`, ownerToken)).data;
      view.submissions[s._id] = {
        by: account.email,
        status: s.status,
        appeal: s.appeal?.status ?? null,
        flags: (asAdmin.flags as Json[]).map((f) => f.kind).sort(),
        proof: await served(url, s.proofImageUrl),
        thumbnail: await served(url, s.proofThumbnailUrl),
      };
    }
  }
  const site = (await ok(url, 'GET', '/api/settings')).data.site;
  view.site = { logo: await served(url, site.logo), favicon: await served(url, site.favicon) };
  return view;
}

/**
 * The guard of the future: the folder holds a file of every role a row can name it in, of every
 * kind and of every content type the store defines (stored-names.ts), each on disk. A new kind
 * of stored file fails here until the journey makes one, and then fails in backup, restore or
 * doctor until they know it.
 */
export async function expectEveryKind(data: string): Promise<void> {
  const folder = new DataFolder(data);
  const { db } = openDatabase(folder.dbFile);
  let refs: Awaited<ReturnType<typeof referencedFiles>>;
  try {
    refs = await referencedFiles(db);
  } finally {
    await db.destroy();
  }
  expect(new Set(refs.map((r) => r.role))).toEqual(new Set(Object.keys(FILE_ROLES) as FileRole[]));
  const onDisk = FILE_KINDS.flatMap((kind) => {
    const dir = join(folder.filesDir, kind);
    return existsSync(dir) ? readdirSync(dir).map((name) => ({ kind, name })) : [];
  });
  expect(new Set(onDisk.map((f) => f.kind))).toEqual(new Set(FILE_KINDS));
  expect(new Set(onDisk.map((f) => f.name.slice(f.name.lastIndexOf('.') + 1)))).toEqual(
    new Set(Object.values(STORED_TYPES)),
  );
  for (const r of refs) expect(onDisk, `${r.owner}`).toContainEqual({ kind: r.kind, name: r.name });
}

function archiveIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => /^taskreward-.*\.tar\.gz$/.test(n))
        .sort()
    : [];
}

/** Waits until no backup is being written into the folder (no staging folder, no partial archive). */
async function settled(folder: DataFolder): Promise<void> {
  const busy = () =>
    (existsSync(folder.tmpDir) && readdirSync(folder.tmpDir).some((n) => n.startsWith('backup-'))) ||
    (existsSync(folder.backupsDir) && readdirSync(folder.backupsDir).some((n) => n.includes('.partial-')));
  const end = Date.now() + 30_000;
  while (busy()) {
    if (Date.now() > end) throw new Error(`a backup into ${folder.root} never ended`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The journey: a folder with every kind of stored file → a backup by hand and one by the
 * schedule, both while the server runs → each restored into a fresh folder, and the first over
 * the folder itself after it changed → `doctor` clean and the same view for its users each time.
 */
export async function backupToRestore(op: Operator, root: string): Promise<void> {
  const data = join(root, 'data');
  await fillEveryKind(op, data);
  await expectEveryKind(data);
  // (doctor is run on every restored folder below, whose contents are this folder's)
  const doctor = (dir: string) => {
    const run = op.cli(['doctor', '--data', dir]);
    expect(run, run.out).toMatchObject({ code: 0, out: expect.stringContaining('all checks passed') });
  };

  const byHand = join(root, 'by-hand.tar.gz');
  const scheduled = join(root, 'scheduled.tar.gz');
  // a scheduled backup every 3.6 s, the newest kept
  const live = await op.serve(data, { BACKUP_INTERVAL_HOURS: '0.001', BACKUP_KEEP: '1' });
  const written = () => live.output().split('scheduled backup written to').length - 1;
  let before: Json;
  try {
    before = await whatUsersSee(live.url);
    const made = op.cli(['backup', byHand, '--data', data]);
    expect(made, made.out).toMatchObject({ code: 0, out: expect.stringContaining('backup written to') });
    // one made after all of the above; stopping right after it leaves the next one unstarted
    const seen = written();
    const end = Date.now() + 60_000;
    while (written() === seen) {
      expect(live.output()).not.toContain('scheduled backup failed');
      if (Date.now() > end) throw new Error(`no scheduled backup:\n${live.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await live.stop();
  }
  // (a scheduled backup under way when its server stops goes on in its own process: let it end)
  const folder = new DataFolder(data);
  await settled(folder);
  const kept = archiveIn(folder.backupsDir);
  expect(kept.length).toBeGreaterThan(0);
  copyFileSync(join(folder.backupsDir, kept.at(-1) as string), scheduled);

  for (const [how, archive] of [
    ['by hand', byHand],
    ['by the schedule', scheduled],
  ]) {
    const fresh = join(root, `fresh ${how}`);
    const restored = op.cli(['restore', archive, '--data', fresh]);
    expect(restored, `${how}: ${restored.out}`).toMatchObject({ code: 0 });
    doctor(fresh);
    await expectEveryKind(fresh);
    const again = await op.serve(fresh);
    try {
      expect(await whatUsersSee(again.url), how).toEqual(before);
    } finally {
      await again.stop();
    }
  }

  // over the folder itself, after a new account and a new photo
  const late = { name: 'Late Comer', email: 'late@journey.test', password: 'late-pass-1' };
  const changed = await op.serve(data);
  try {
    await ok(changed.url, 'POST', '/api/auth/register', undefined, late);
    const token = (await signIn(changed.url, WORKERS[0])) as string;
    await ok(
      changed.url,
      'PUT',
      '/api/users/me',
      token,
      form(
        { name: WORKERS[0].name },
        { field: 'profileImage', bytes: pngFile(20, 20, { text: 'new' }), type: 'image/png' },
      ),
    );
    expect(await signIn(changed.url, late)).toBeTruthy();
  } finally {
    await changed.stop();
  }
  const backups = archiveIn(folder.backupsDir);
  const over = op.cli(['restore', byHand, '--data', data]);
  expect(over, over.out).toMatchObject({
    code: 0,
    out: expect.stringContaining('the previous contents were replaced'),
  });
  doctor(data);
  await expectEveryKind(data);
  const back = await op.serve(data);
  try {
    expect(await whatUsersSee(back.url)).toEqual(before);
    expect(await signIn(back.url, late)).toBeNull();
  } finally {
    await back.stop();
  }
  // the scheduled backups moved into the restored folder
  expect(archiveIn(folder.backupsDir)).toEqual(backups);
}
