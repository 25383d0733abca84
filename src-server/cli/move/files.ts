import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileReference } from '../../storage/backup-files';
import type { DataFolder } from '../../storage/data-folder';
import { FILE_KINDS, type FileKind, type FileStore, LocalFileStore } from '../../storage/file-store';
import type { Progress } from './progress';

/** Whether the nodes' store is the data folder's own files/ (nothing to copy then). */
export function storeIsFolder(folder: DataFolder, filesDir: string | null, s3: unknown): boolean {
  if (s3) return false;
  if (!filesDir) return true;
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return real(filesDir) === real(folder.filesDir);
}

/** Every referenced file once, with its size in the folder. */
export async function sourceFiles(
  folder: DataFolder,
  refs: FileReference[],
): Promise<{ kind: FileKind; name: string; size: number }[]> {
  const seen = new Map<string, { kind: FileKind; name: string; size: number }>();
  for (const r of refs) {
    const key = `${r.kind}/${r.name}`;
    if (seen.has(key)) continue;
    const { size } = await stat(join(folder.filesDir, r.kind, r.name));
    seen.set(key, { kind: r.kind, name: r.name, size });
  }
  return [...seen.values()];
}

/** What the target store holds: `kind/name` → size. */
export async function targetSizes(target: FileStore): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const kind of FILE_KINDS) {
    for (const f of await target.listWithTimes(kind)) out.set(`${kind}/${f.name}`, f.size);
  }
  return out;
}

/**
 * Copies the folder's referenced files into the target store under their own names; a file the
 * target already holds with the same size (an earlier, interrupted move) is not sent again.
 * Returns how many were written.
 */
export async function copyFiles(
  folder: DataFolder,
  target: FileStore,
  files: { kind: FileKind; name: string; size: number }[],
  progress: Progress,
): Promise<number> {
  const source = new LocalFileStore(folder);
  const there = await targetSizes(target);
  const step = progress.step('files', files.length, 'files');
  let written = 0;
  for (const f of files) {
    if (there.get(`${f.kind}/${f.name}`) !== f.size) {
      const file = await source.read(f.kind, f.name);
      if (!file) throw new Error(`${f.kind}/${f.name} vanished from ${folder.filesDir}`);
      await target.saveAs(f.kind, f.name, file.bytes);
      written++;
    }
    step.add(1);
  }
  step.end();
  return written;
}

/** The referenced files the target lacks or holds with another size, in words. */
export async function fileMismatches(
  target: FileStore,
  files: { kind: FileKind; name: string; size: number }[],
): Promise<string[]> {
  const there = await targetSizes(target);
  const out: string[] = [];
  for (const f of files) {
    const size = there.get(`${f.kind}/${f.name}`);
    if (size === undefined) out.push(`${f.kind}/${f.name} is missing`);
    else if (size !== f.size) out.push(`${f.kind}/${f.name} has ${size} bytes, not ${f.size}`);
  }
  return out;
}
