import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What the desktop app connects to: its own local server, or a remote server's URL. */
export interface DesktopSettings {
  mode: 'local' | 'remote';
  /** The remote server's origin ("https://panel.example.com"), kept while in local mode too. */
  remoteUrl: string | null;
}

export const DEFAULT_SETTINGS: DesktopSettings = { mode: 'local', remoteUrl: null };

/** The settings file inside the app-data folder. */
export function settingsFile(appDataDir: string): string {
  return join(appDataDir, 'desktop-settings.json');
}

/**
 * Checks a remote server address typed by the user and returns its origin: http or https
 * only, a host, no user name or password. Returns an error message instead when it is unusable.
 */
export function normalizeRemoteUrl(input: string): { url: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return { error: 'Enter a full address such as https://panel.example.com' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { error: 'The address must start with https:// (or http://)' };
  }
  if (parsed.username || parsed.password)
    return { error: 'The address must not carry a user name or password' };
  if (!parsed.hostname) return { error: 'The address has no host' };
  return { url: parsed.origin };
}

/** Reads the settings; a missing or damaged file gives the defaults (local mode). */
export function loadSettings(file: string): DesktopSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
  if (typeof raw !== 'object' || raw === null) return { ...DEFAULT_SETTINGS };
  const stored = raw as Partial<Record<keyof DesktopSettings, unknown>>;
  const remote = typeof stored.remoteUrl === 'string' ? normalizeRemoteUrl(stored.remoteUrl) : null;
  const remoteUrl = remote && 'url' in remote ? remote.url : null;
  const mode = stored.mode === 'remote' && remoteUrl ? 'remote' : 'local';
  return { mode, remoteUrl };
}

/** Writes the settings atomically (a temp file renamed over the old one). */
export function saveSettings(file: string, settings: DesktopSettings): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Applies a change asked for from the connection page: local mode, or remote mode with an
 * address that normalizeRemoteUrl accepts. Returns the saved settings or the reason it refused.
 */
export function updateSettings(
  file: string,
  change: { mode: unknown; remoteUrl?: unknown },
): { settings: DesktopSettings } | { error: string } {
  const current = loadSettings(file);
  if (change.mode === 'local') {
    const settings: DesktopSettings = { ...current, mode: 'local' };
    saveSettings(file, settings);
    return { settings };
  }
  if (change.mode !== 'remote' || typeof change.remoteUrl !== 'string')
    return { error: 'Unknown connection mode' };
  const remote = normalizeRemoteUrl(change.remoteUrl);
  if ('error' in remote) return remote;
  const settings: DesktopSettings = { mode: 'remote', remoteUrl: remote.url };
  saveSettings(file, settings);
  return { settings };
}
