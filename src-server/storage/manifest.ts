import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { DB_FILE_NAME, SECRET_FILE_NAME } from './data-folder';
import { type FileKind, parseStoredFilePath, perKind } from './stored-names';

/** The first entry of every backup archive; names the archive as ours and lists every other entry. */
export const MANIFEST_NAME = 'manifest.json';
export const BACKUP_FORMAT = 'taskreward-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** One file in the archive, by its path inside the data folder ("files/proofs/ab12….png"). */
export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: typeof BACKUP_FORMAT_VERSION;
  appVersion: string;
  createdAt: string;
  /** The newest migration applied to the copied database. */
  lastMigration: string;
  /** How many stored files of each kind the archive holds. */
  counts: Record<FileKind, number>;
  /** Files a row names that were not in the data folder when the backup ran (doctor reports them). */
  missing: string[];
  entries: ManifestEntry[];
}

/**
 * Paths an archive may hold: the database, the secret and stored files (by the store's own
 * definition of their names, so a kind of file a backup writes is one a restore accepts),
 * nothing else.
 */
export function isAllowedEntryPath(path: string): boolean {
  return path === DB_FILE_NAME || path === SECRET_FILE_NAME || parseStoredFilePath(path) !== null;
}

/** The sha256 of a file on disk, in hex, and its size, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The manifest as written into an archive: its fields, then `checksum`, the sha256 of the
 * fields' compact JSON, so a damaged manifest is caught like any damaged file.
 */
export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify({ ...manifest, checksum: digest(JSON.stringify(manifest)) }, null, 2)}\n`;
}

/** Thrown for an archive that is damaged, foreign or incomplete; the message says which. */
export class BadArchiveError extends Error {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses and checks a manifest: ours, whole (its checksum), a version this code reads, every
 * entry a path we allow, listed once, with a size and a sha256. Throws BadArchiveError otherwise.
 */
export function parseManifest(text: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BadArchiveError('the manifest is not valid JSON');
  }
  if (!isRecord(raw) || raw.format !== BACKUP_FORMAT) {
    throw new BadArchiveError('this is not a TaskReward backup (its manifest is foreign)');
  }
  const { checksum, ...fields } = raw;
  if (typeof checksum !== 'string' || checksum !== digest(JSON.stringify(fields))) {
    throw new BadArchiveError('the manifest does not match its own checksum: the archive is damaged');
  }
  if (raw.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BadArchiveError(`backup format version ${String(raw.formatVersion)} is not supported`);
  }
  const entries = raw.entries;
  if (
    !Array.isArray(entries) ||
    typeof raw.lastMigration !== 'string' ||
    typeof raw.appVersion !== 'string'
  ) {
    throw new BadArchiveError('the manifest is incomplete');
  }
  const seen = new Set<string>();
  const checked: ManifestEntry[] = [];
  for (const e of entries) {
    if (
      !isRecord(e) ||
      typeof e.path !== 'string' ||
      !isAllowedEntryPath(e.path) ||
      typeof e.bytes !== 'number' ||
      typeof e.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(e.sha256) ||
      seen.has(e.path)
    ) {
      throw new BadArchiveError(`the manifest lists a bad entry: ${JSON.stringify(e).slice(0, 120)}`);
    }
    seen.add(e.path);
    checked.push({ path: e.path, bytes: e.bytes, sha256: e.sha256 });
  }
  if (!seen.has(DB_FILE_NAME)) throw new BadArchiveError('the manifest lists no database');
  const counts = isRecord(raw.counts) ? raw.counts : {};
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    appVersion: raw.appVersion,
    createdAt: typeof raw.createdAt === 'string' ? raw.createdAt : '',
    lastMigration: raw.lastMigration,
    counts: perKind((kind) => Number(counts[kind] ?? 0)),
    missing: Array.isArray(raw.missing) ? raw.missing.filter((m) => typeof m === 'string') : [],
    entries: checked,
  };
}
