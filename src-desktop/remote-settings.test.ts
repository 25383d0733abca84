import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadSettings,
  normalizeRemoteUrl,
  saveSettings,
  settingsFile,
  updateSettings,
} from './remote-settings';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-desktop-'));
  file = settingsFile(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('remote mode settings', () => {
  it('starts in local mode when nothing was saved', () => {
    expect(loadSettings(file)).toEqual({ mode: 'local', remoteUrl: null });
  });

  it('remembers a remote server between runs', () => {
    expect(updateSettings(file, { mode: 'remote', remoteUrl: ' https://panel.example.com/admin ' })).toEqual({
      settings: { mode: 'remote', remoteUrl: 'https://panel.example.com' },
    });
    // a new run reads the same file
    expect(loadSettings(settingsFile(dir))).toEqual({
      mode: 'remote',
      remoteUrl: 'https://panel.example.com',
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mode: 'remote',
      remoteUrl: 'https://panel.example.com',
    });
  });

  it('keeps the remote address when going back to local mode', () => {
    updateSettings(file, { mode: 'remote', remoteUrl: 'http://10.0.0.5:3000' });
    expect(updateSettings(file, { mode: 'local' })).toEqual({
      settings: { mode: 'local', remoteUrl: 'http://10.0.0.5:3000' },
    });
    expect(loadSettings(file).mode).toBe('local');
  });

  it.each([
    ['not a url', /full address/],
    ['ftp://files.example.com', /https/],
    ['javascript:alert(1)', /https/],
    ['file:///etc/passwd', /https/],
    ['https://admin:secret@panel.example.com', /user name or password/],
  ])('refuses %s and keeps the saved settings', (url, message) => {
    saveSettings(file, { mode: 'local', remoteUrl: null });
    const result = updateSettings(file, { mode: 'remote', remoteUrl: url });
    expect('error' in result && result.error).toMatch(message);
    expect(loadSettings(file)).toEqual({ mode: 'local', remoteUrl: null });
  });

  it('refuses an unknown mode', () => {
    expect(updateSettings(file, { mode: 'cloud' })).toEqual({ error: 'Unknown connection mode' });
  });

  it.each([
    ['damaged JSON', '{"mode": "remote", '],
    ['a remote mode without an address', '{"mode":"remote"}'],
    ['a remote mode with a bad address', '{"mode":"remote","remoteUrl":"javascript:alert(1)"}'],
    ['not an object', '"remote"'],
  ])('falls back to local mode for %s', (_label, text) => {
    writeFileSync(file, text);
    expect(loadSettings(file).mode).toBe('local');
  });

  it('normalizes an address to its origin', () => {
    expect(normalizeRemoteUrl('HTTPS://Panel.Example.com:8443/admin?x=1')).toEqual({
      url: 'https://panel.example.com:8443',
    });
  });
});
