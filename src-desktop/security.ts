import type { WebPreferences } from 'electron';

/**
 * Whether the app's window may navigate to `url`: only within the origin it was opened on
 * (the local server or the chosen remote server). Everything else is denied.
 */
export function isAllowedNavigation(url: string, appOrigin: string): boolean {
  try {
    return new URL(url).origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

/** Whether a link the app may not open itself goes to the system browser: http(s) only. */
export function shouldOpenExternally(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** Whether an IPC call comes from the app's own connection page (a file shipped with the app). */
export function isTrustedSender(senderUrl: string, pageUrl: string): boolean {
  try {
    const sender = new URL(senderUrl);
    const page = new URL(pageUrl);
    return sender.protocol === 'file:' && sender.pathname === page.pathname;
  } catch {
    return false;
  }
}

/**
 * The web preferences of every window: context isolation, no Node in the renderer, the
 * Chromium sandbox, web security on; `preload` only for the app's own connection page.
 */
export function secureWebPreferences(preload?: string): WebPreferences {
  return {
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    sandbox: true,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
    ...(preload ? { preload } : {}),
  };
}
