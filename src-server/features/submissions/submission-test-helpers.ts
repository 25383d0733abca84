// Test-only helpers for the submission and file tests (never imported by the server).
import { randomBytes } from 'node:crypto';
import { makeUser } from '../../testing/factories';
import type { TestApp } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';

export interface Part {
  name: string;
  value?: string;
  filename?: string;
  type?: string;
  data?: Uint8Array;
}

/** A multipart/form-data body built by hand, so tests control every byte and header. */
export function multipart(parts: Part[]): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----taskreward${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename !== undefined;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file ? `; filename="${p.filename}"` : ''}\r\n` +
          `${file ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.from(p.data ?? Buffer.from(p.value ?? '')));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: new Uint8Array(Buffer.concat(chunks)),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POST /api/submissions with a proof file (when given), the task id and a description. */
export function submit(
  t: TestApp,
  token: string | undefined,
  fields: { task?: string; description?: string; file?: Uint8Array; filename?: string; type?: string },
  headers: Record<string, string> = {},
) {
  const parts: Part[] = [];
  if (fields.file) {
    parts.push({
      name: 'proofImage',
      filename: fields.filename ?? 'proof.png',
      type: fields.type ?? 'image/png',
      data: fields.file,
    });
  }
  if (fields.task !== undefined) parts.push({ name: 'task', value: fields.task });
  if (fields.description !== undefined) parts.push({ name: 'description', value: fields.description });
  const { body, contentType } = multipart(parts);
  return t.call('POST', '/api/submissions', {
    token,
    raw: body,
    headers: { 'Content-Type': contentType, ...headers },
  });
}

/** What the data folder holds: stored proofs and temp files (both empty after a refusal). */
export async function onDisk(t: TestApp) {
  const store = t.deps.files;
  return { proofs: await store.list('proofs'), temp: await store.listTemp() };
}

/** A new user who started a new task (made by `adminToken`'s admin): ready to send a proof. */
export async function startedTask(t: TestApp, adminToken: string, overrides: Record<string, unknown> = {}) {
  const taskId = await createTask(t, adminToken, overrides);
  const user = await makeUser(t.deps.db);
  const token = await t.tokenFor(user);
  const res = await t.call('POST', `/api/tasks/${taskId}/start`, { token });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { user, token, taskId };
}
