// main.ts against a stand-in for Electron (its binary is not installed here): the wiring starts
// the real server bundle, opens /admin in a locked-down window, keeps navigation on the app's
// origin, answers the bridge only from the connection page, and stops the server with the window.
import { spawnSync } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const userData = mkdtempSync(join(tmpdir(), 'taskreward-electron-'));

type Handler = (...args: unknown[]) => unknown;
const h = vi.hoisted(() => ({
  windows: [] as unknown[],
  ipc: new Map<string, (...args: unknown[]) => unknown>(),
  permission: null as null | ((...args: unknown[]) => void),
  openExternal: [] as string[],
  quits: 0,
  userData: '',
  root: '',
}));
h.userData = userData;
// an app folder with the built server and web app but no single binary, so the shell takes its
// development path (system Node and the bundle) whatever else was built in this tree
const appRoot = join(userData, 'app');
mkdirSync(join(appRoot, 'dist'), { recursive: true });
symlinkSync(join(root, 'dist/server'), join(appRoot, 'dist/server'), 'junction');
symlinkSync(join(root, 'dist/web'), join(appRoot, 'dist/web'), 'junction');
h.root = appRoot;

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class FakeContents extends Emitter {
    openHandler: ((details: { url: string }) => { action: string }) | null = null;
    setWindowOpenHandler(fn: (details: { url: string }) => { action: string }) {
      this.openHandler = fn;
    }
  }
  class FakeWindow extends Emitter {
    webContents = new FakeContents();
    loaded: string[] = [];
    constructor(readonly options: Record<string, unknown>) {
      super();
      h.windows.push(this);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      this.emit('ready-to-show');
      return Promise.resolve();
    }
    loadFile(file: string) {
      this.loaded.push(file);
      return Promise.resolve();
    }
    show() {}
    focus() {}
    setMenu() {}
    isMinimized() {
      return false;
    }
    close() {
      this.emit('closed');
    }
    static fromWebContents() {
      return null;
    }
  }
  const app = Object.assign(new Emitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: () => h.userData,
    getAppPath: () => h.root,
    quit: () => {
      h.quits++;
    },
  });
  return {
    app,
    BrowserWindow: FakeWindow,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => {} },
    dialog: { showErrorBox: (title: string, text: string) => h.openExternal.push(`error: ${title} ${text}`) },
    ipcMain: { handle: (channel: string, fn: Handler) => h.ipc.set(channel, fn) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: Handler) => {
          h.permission = fn;
        },
      },
    },
    shell: {
      openExternal: async (url: string) => {
        h.openExternal.push(url);
      },
    },
  };
});

interface Win extends EventEmitter {
  options: { webPreferences: Record<string, unknown> };
  loaded: string[];
  webContents: EventEmitter & { openHandler: (d: { url: string }) => { action: string } };
  close(): void;
}
const mainWindow = () => h.windows[0] as Win;
let adminUrl = '';

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  // started from anywhere, as a desktop app is: the server must not depend on the cwd
  const cwd = process.cwd();
  process.chdir(userData);
  try {
    await import('./main');
  } finally {
    process.chdir(cwd);
  }
  for (let i = 0; i < 300 && !mainWindow()?.loaded.length; i++) await new Promise((r) => setTimeout(r, 50));
  adminUrl = mainWindow()?.loaded[0] ?? '';
});
afterAll(() => rmSync(userData, { recursive: true, force: true }));

/** Sends a navigation event and says whether the app prevented it. */
function navigate(url: string): boolean {
  let prevented = false;
  mainWindow().webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
  return prevented;
}

describe('the desktop main process', () => {
  it('starts the server on 127.0.0.1 with its data under app-data and opens its setup link (no admin yet)', async () => {
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/setup\?token=[\w-]{43}$/);
    const token = new URL(adminUrl).searchParams.get('token') ?? '';
    const check = await fetch(new URL('/api/setup', adminUrl), { headers: { 'X-Setup-Token': token } });
    expect(check.status).toBe(200);
    const page = await fetch(adminUrl);
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('<div id="root">')]);
    expect(existsSync(join(userData, 'data', 'taskreward.db'))).toBe(true);
    expect(existsSync(join(userData, 'data', 'server.lock'))).toBe(true);
  });

  it('opens the window isolated, sandboxed, without Node and without a preload', () => {
    expect(mainWindow().options.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    });
    expect(mainWindow().options.webPreferences.preload).toBeUndefined();
  });

  it('keeps navigation on the app origin and sends http(s) links to the system browser', () => {
    const origin = new URL(adminUrl).origin;
    expect(navigate(`${origin}/admin/users`)).toBe(false);
    expect(navigate('https://instagram.com/taskreward')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(h.openExternal).toEqual(['https://instagram.com/taskreward']);
    expect(mainWindow().webContents.openHandler({ url: 'https://x.example/' })).toEqual({ action: 'deny' });
    expect(mainWindow().webContents.openHandler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(h.openExternal).toEqual(['https://instagram.com/taskreward', 'https://x.example/']);
  });

  it('grants no permission to a page', () => {
    const answers: boolean[] = [];
    h.permission?.({}, 'notifications', (granted: boolean) => answers.push(granted));
    expect(answers).toEqual([false]);
  });

  it('answers the bridge only from its own connection page', async () => {
    const get = h.ipc.get('taskreward:get-connection');
    const fromPage = { senderFrame: { url: pathToFileURL(join(root, 'src-desktop/connection.html')).href } };
    expect(await get?.(fromPage)).toEqual({ mode: 'local', remoteUrl: null });
    expect(() => get?.({ senderFrame: { url: adminUrl } })).toThrow('not allowed');
  });

  it('stops the server when the window closes, then quits', async () => {
    mainWindow().close();
    for (let i = 0; i < 100 && h.quits === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(h.quits).toBeGreaterThan(0);
    await expect(fetch(adminUrl)).rejects.toThrow();
    expect(existsSync(join(userData, 'data', 'server.lock'))).toBe(false);
  });
});
