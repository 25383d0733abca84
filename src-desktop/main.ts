// Electron's main process: thin wiring around the plain modules beside it (server-process,
// local-server, remote-settings, security), which the tests run in Node.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  type MenuItemConstructorOptions,
  session,
  shell,
} from 'electron';
import { CHANNELS } from './bridge';
import { LocalServer } from './local-server';
import { type DesktopSettings, loadSettings, settingsFile, updateSettings } from './remote-settings';
import { isAllowedNavigation, isTrustedSender, secureWebPreferences, shouldOpenExternally } from './security';
import { resolveServerProgram, stopWithWindow } from './server-process';

const here = __dirname; // dist/desktop after the build
const connectionPage = join(here, 'connection.html');
const connectionUrl = pathToFileURL(connectionPage).href;
let settings: DesktopSettings;
let local: LocalServer | null = null;
let main: BrowserWindow | null = null;
let appOrigin = '';
let quitting = false;

/** Every navigation and new window stays on the app's origin; http(s) links go to the browser. */
function harden(win: BrowserWindow, allowed: (url: string) => boolean): void {
  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (allowed(url)) return;
    event.preventDefault();
    if (shouldOpenExternally(url)) void shell.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!allowed(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (shouldOpenExternally(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

async function connect(): Promise<string> {
  settings = loadSettings(settingsFile(app.getPath('userData')));
  if (settings.mode === 'remote' && settings.remoteUrl) {
    await local?.stop();
    local = null;
    return settings.remoteUrl;
  }
  if (!local) {
    const program = resolveServerProgram({
      env: process.env,
      packaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      appRoot: app.getAppPath(),
    });
    local = new LocalServer(program, join(app.getPath('userData'), 'data'));
  }
  return local.start();
}

async function openAdmin(): Promise<void> {
  const url = await connect();
  appOrigin = new URL(url).origin;
  buildMenu();
  await main?.loadURL(await firstPage());
}

/**
 * /admin, or while the local server still has no admin (a new data folder) the one-time setup
 * link it printed, which creates one and then goes to /admin itself.
 */
async function firstPage(): Promise<string> {
  const setup = local?.setupUrl;
  if (setup) {
    const token = new URL(setup).searchParams.get('token') ?? '';
    const open = await fetch(`${appOrigin}/api/setup`, { headers: { 'X-Setup-Token': token } }).then(
      (res) => res.ok,
      () => false,
    );
    if (open) return setup;
  }
  return `${appOrigin}/admin`;
}

async function backupMenu(): Promise<void> {
  if (!local || !main) return;
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
  const { canceled, filePath } = await dialog.showSaveDialog(main, {
    title: 'Back up TaskReward',
    defaultPath: `taskreward-${stamp}.tar.gz`,
    filters: [{ name: 'TaskReward backup', extensions: ['gz', 'tar'] }],
  });
  if (canceled || !filePath) return;
  const outcome = await local.backup(filePath);
  await dialog.showMessageBox(main, {
    type: outcome.ok ? 'info' : 'error',
    message: outcome.ok ? 'Backup written' : 'Backup failed',
    detail: outcome.output,
  });
}

async function restoreMenu(): Promise<void> {
  if (!local || !main) return;
  const { canceled, filePaths } = await dialog.showOpenDialog(main, {
    title: 'Restore TaskReward from a backup',
    properties: ['openFile'],
    filters: [{ name: 'TaskReward backup', extensions: ['gz', 'tgz', 'tar'] }],
  });
  if (canceled || !filePaths[0]) return;
  const sure = await dialog.showMessageBox(main, {
    type: 'warning',
    buttons: ['Restore', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: 'Replace all data on this computer with this backup?',
    detail: 'The server stops, the backup is checked and swapped in, and the server starts again.',
  });
  if (sure.response !== 0) return;
  const outcome = await local.restore(filePaths[0]);
  appOrigin = new URL(outcome.url).origin;
  await main.loadURL(`${appOrigin}/admin`);
  await dialog.showMessageBox(main, {
    type: outcome.ok ? 'info' : 'error',
    message: outcome.ok ? 'Restored' : 'Restore refused',
    detail: outcome.output,
  });
}

function openConnectionWindow(): void {
  const win = new BrowserWindow({
    parent: main ?? undefined,
    modal: true,
    width: 520,
    height: 380,
    webPreferences: secureWebPreferences(join(here, 'preload.cjs')),
  });
  harden(win, (url) => url === connectionUrl);
  win.setMenu(null);
  void win.loadFile(connectionPage);
}

function buildMenu(): void {
  const isLocal = settings.mode === 'local';
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        { label: 'Back Up…', enabled: isLocal, click: () => void backupMenu() },
        { label: 'Restore…', enabled: isLocal, click: () => void restoreMenu() },
        { type: 'separator' },
        { label: 'Connection…', click: openConnectionWindow },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: [{ role: 'reload' }, { role: 'togglefullscreen' }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function registerIpc(): void {
  const trusted = (url: string) => isTrustedSender(url, connectionUrl);
  ipcMain.handle(CHANNELS.getConnection, (event) => {
    if (!trusted(event.senderFrame?.url ?? '')) throw new Error('not allowed');
    return loadSettings(settingsFile(app.getPath('userData')));
  });
  ipcMain.handle(CHANNELS.setConnection, async (event, change: { mode: unknown; remoteUrl?: unknown }) => {
    if (!trusted(event.senderFrame?.url ?? '')) throw new Error('not allowed');
    const result = updateSettings(settingsFile(app.getPath('userData')), change);
    if ('settings' in result) {
      BrowserWindow.fromWebContents(event.sender)?.close();
      await openAdmin();
    }
    return result;
  });
}

async function start(): Promise<void> {
  // no permission (camera, notifications, …) is ever granted to a page
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  registerIpc();
  main = new BrowserWindow({ width: 1280, height: 840, show: false, webPreferences: secureWebPreferences() });
  harden(main, (url) => isAllowedNavigation(url, appOrigin));
  main.once('ready-to-show', () => main?.show());
  stopWithWindow(
    main,
    () => local?.running ?? null,
    () => app.quit(),
  );
  try {
    await openAdmin();
  } catch (err) {
    dialog.showErrorBox('TaskReward could not start its server', (err as Error).message);
    app.quit();
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (main?.isMinimized()) main.restore();
    main?.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.on('before-quit', (event) => {
    // the child server must stop cleanly before the app goes
    if (quitting || !local?.running) return;
    event.preventDefault();
    quitting = true;
    void local.stop().finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());
  void app.whenReady().then(start);
}
