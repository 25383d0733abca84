import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { checkAccessibility } from './axe';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');
export const ADMIN = { email: 'admin@taskreward.test', password: 'admin-pass-1', name: 'Admin' };

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

/** The two languages the app ships. */
export type Lang = 'tr' | 'en';

/** Every language at phone and desktop width, as [lang, label, size] rows for it.each. */
export const COMBOS = [
  ['tr', 'phone', PHONE],
  ['tr', 'desktop', DESKTOP],
  ['en', 'phone', PHONE],
  ['en', 'desktop', DESKTOP],
] as const;

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Opens the server's SQLite file (WAL lets the test write beside the server). */
  db(): Database.Database;
  stop(): Promise<void>;
}

/** Starts the real built server (dist/server/main.cjs) on a free port over a temp data folder. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskreward-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.cjs', 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    if (process.env.E2E_SERVER_LOG) {
      child.stdout?.on('data', (c: Buffer) => appendFileSync(process.env.E2E_SERVER_LOG ?? '', c));
      child.stderr?.on('data', (c: Buffer) => appendFileSync(process.env.E2E_SERVER_LOG ?? '', c));
      child.once('exit', (code, signal) =>
        appendFileSync(process.env.E2E_SERVER_LOG ?? '', `exit ${code} ${signal}\n`),
      );
    }
    child.stderr?.on('data', (c: Buffer) => {
      log += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  const handles: Database.Database[] = [];
  return {
    url,
    dataDir,
    db() {
      const db = new Database(join(dataDir, 'taskreward.db'));
      db.pragma('busy_timeout = 5000');
      handles.push(db);
      return db;
    },
    async stop() {
      for (const h of handles) h.close();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Launches Debian's headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The server and the browser a spec shares; read them inside hooks and tests only. */
export interface Suite {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/** Starts the server (env may be a function, read once earlier hooks ran) and the browser; closes both after. */
export function withServerAndBrowser(
  env: Record<string, string> | (() => Record<string, string>) = {},
): Suite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(typeof env === 'function' ? env() : env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('the server is not started yet');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not launched yet');
      return browser;
    },
  };
}

/** A fresh browser context at phone or desktop size, in the given language. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  options: { size?: { width: number; height: number }; lang?: Lang; phone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const phone = options.phone ?? options.size === PHONE;
  const context = await browser.newContext({
    baseURL,
    viewport: options.size ?? DESKTOP,
    locale: options.lang === 'en' ? 'en-US' : 'tr-TR',
    isMobile: phone,
    hasTouch: phone,
    serviceWorkers: 'block',
  });
  if (options.lang) {
    await context.addInitScript((lng) => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', lng);
    }, options.lang);
  }
  const page = await context.newPage();
  return { context, page };
}

/** A fresh page signed in with a token (install banner dismissed, as other specs test it), collecting page errors. */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  token: string,
  options: { lang: Lang; size: { width: number; height: number } },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { context, page } = await newPage(browser, baseURL, options);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto('/');
  await page.evaluate((t) => {
    localStorage.setItem('token', t);
    localStorage.setItem('installBannerDismissed', '1');
  }, token);
  return { context, page, errors };
}

/**
 * Saves a full-page screenshot under test-results/screenshots, after the accessibility gate:
 * axe finds no serious or critical violation in the page as it is (axe.ts). AXE_REPORT=1
 * records the violations without failing (to survey them).
 */
export async function shot(page: Page, name: string): Promise<void> {
  const blocking = await checkAccessibility(page, name);
  if (blocking.length > 0 && process.env.AXE_REPORT !== '1') {
    throw new Error(`accessibility (axe) in ${name}:\n${blocking.join('\n')}`);
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Registers a user through the API and returns the token. */
export async function apiRegister(
  baseURL: string,
  user: { name: string; email: string; password: string },
): Promise<{ token: string; id: string }> {
  const res = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(user),
  });
  const body = (await res.json()) as { token: string; data: { _id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return { token: body.token, id: body.data._id };
}

/** Logs in through the login form. */
export async function uiLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('form button[type=submit]').click();
}
