import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, type NpmServer, startWithNpm, until } from '../../src-server/testing/npm-server';
import { snap } from './checks';
import { COMBOS, DESKTOP, type Lang, launchBrowser, newPage, PHONE } from './harness';

/**
 * A new operator's first start: `npm start` as the README says, over an empty data
 * folder and with no ADMIN_EMAIL; the setup link is read from the server's output, the first
 * admin is created through the page in Chromium and signs in; the same link is refused after
 * use, and the page refuses without the token. Both languages, phone and desktop.
 */

const TEXT = {
  en: {
    title: 'Create the first admin',
    invalid: 'This setup link is not valid',
    done: 'Setup is complete',
    submit: 'Create the admin account',
    mismatch: 'Passwords do not match',
    short: 'Password must be at least 6 characters',
  },
  tr: {
    title: 'İlk yöneticiyi oluştur',
    invalid: 'Bu kurulum bağlantısı geçerli değil',
    done: 'Kurulum tamamlandı',
    submit: 'Yönetici hesabını oluştur',
    mismatch: 'Şifreler eşleşmiyor',
    short: 'Şifre en az 6 karakter olmalı',
  },
} as const;

const OWNER = { name: 'Site Sahibi', email: 'owner@taskreward.test', password: 'owner-pass-1' };

let data: string;
let npm: NpmServer;
let url: string;
let link: string;
let browser: Browser;

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'taskreward-first-run-'));
  npm = startWithNpm(['start'], { DATA_DIR: data, PORT: '0', HOST: '127.0.0.1' });
  url = await npm.listening;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  if (npm && npm.child.exitCode === null) {
    npm.child.kill('SIGTERM');
    await npm.exited;
  }
  rmSync(data, { recursive: true, force: true });
});

async function open(lang: Lang, size: { width: number; height: number }, path: string) {
  const opened = await newPage(browser, url, { lang, size });
  // the phone install banner is tested elsewhere: out of the way of the form
  await opened.context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
  await opened.page.goto(path);
  return opened;
}

const heading = (page: Page) => page.locator('.auth-card h1');

describe('the first start over an empty data folder', () => {
  it('prints a one-time setup link before the "listening on" line', () => {
    const out = npm.output();
    const match = /no admin account yet: create the first one at (http:\/\/\S+\/setup\?token=([\w-]+)) /.exec(
      out,
    );
    expect(match, out).not.toBeNull();
    link = match![1];
    expect(new URL(link).origin).toBe(url);
    expect(match![2]).toMatch(/^[\w-]{43}$/);
    expect(out.indexOf('no admin account yet')).toBeLessThan(out.indexOf('listening on'));
    expect(existsSync(join(data, 'taskreward.db'))).toBe(true);
  });

  it.each(COMBOS)(
    'the page refuses without the token or with a wrong one (%s, %s)',
    async (lang, label, size) => {
      for (const [path, name] of [
        ['/setup', 'no-token'],
        ['/setup?token=not-the-token', 'wrong-token'],
      ] as const) {
        const { context, page } = await open(lang, size, path);
        await expect.poll(() => heading(page).textContent()).toBe(TEXT[lang].invalid);
        expect(await page.locator('form').count()).toBe(0);
        if (name === 'no-token') await snap(page, `first-run-refused-${lang}-${label}`);
        await context.close();
      }
    },
  );

  it.each(COMBOS)('shows the form with the usual password rules (%s, %s)', async (lang, label, size) => {
    const { context, page } = await open(lang, size, new URL(link).pathname + new URL(link).search);
    await expect.poll(() => heading(page).textContent()).toBe(TEXT[lang].title);
    await page.locator('#name').fill(OWNER.name);
    await page.locator('#email').fill(OWNER.email);
    await page.locator('#password').fill('12345');
    await page.locator('#confirmPassword').fill('12346');
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.locator('#password-error').textContent()).toBe(TEXT[lang].short);
    await page.locator('#password').fill(OWNER.password);
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.locator('#confirmPassword-error').textContent()).toBe(TEXT[lang].mismatch);
    expect(await page.locator('form button[type=submit]').textContent()).toBe(TEXT[lang].submit);
    await snap(page, `first-run-form-${lang}-${label}`, { rawKeys: /\bsetup\.\w+/ });
    await context.close();
  });

  it('creates the first admin through the page, who lands on the admin dashboard signed in', async () => {
    const { context, page } = await open('tr', PHONE, new URL(link).pathname + new URL(link).search);
    await expect.poll(() => heading(page).textContent()).toBe(TEXT.tr.title);
    await page.locator('#name').fill(OWNER.name);
    await page.locator('#email').fill(OWNER.email);
    await page.locator('#password').fill(OWNER.password);
    await page.locator('#confirmPassword').fill(OWNER.password);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL('**/admin');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const me = await fetch(`${url}/api/users/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await me.json()).data).toMatchObject({ email: OWNER.email, role: 'admin', status: 'active' });
    await expect.poll(() => page.locator('.admin-shell').count()).toBeGreaterThan(0);
    await snap(page, 'first-run-created-tr-phone');
    await context.close();
  });

  it('signs the new admin in through the login form', async () => {
    const { context, page } = await open('en', DESKTOP, '/login');
    await page.locator('#email').fill(OWNER.email);
    await page.locator('#password').fill(OWNER.password);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL('**/admin');
    await context.close();
  });

  it.each(COMBOS)('refuses the same link after use (%s, %s)', async (lang, label, size) => {
    const { context, page } = await open(lang, size, new URL(link).pathname + new URL(link).search);
    await expect.poll(() => heading(page).textContent()).toBe(TEXT[lang].done);
    expect(await page.locator('form').count()).toBe(0);
    await snap(page, `first-run-used-${lang}-${label}`);
    await context.close();
  });

  it('refuses the used link on the API too, and creates no second admin', async () => {
    const token = new URL(link).searchParams.get('token') ?? '';
    const res = await fetch(`${url}/api/setup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Setup-Token': token },
      body: JSON.stringify({ name: 'Intruder', email: 'intruder@example.test', password: 'intruder-1' }),
    });
    expect([res.status, (await res.json()).error.code]).toEqual([409, 'setup_done']);
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'intruder@example.test', password: 'intruder-1' }),
    });
    expect(login.status).toBe(401);
  });

  it('prints no link on the next start, now that there is an admin', async () => {
    const server = Number(readFileSync(join(data, 'server.lock'), 'utf8'));
    npm.child.kill('SIGTERM');
    expect(await npm.exited).toBe(0);
    await until(() => !alive(server), 10_000, 'the first server to stop');
    npm = startWithNpm(['start'], { DATA_DIR: data, PORT: '0', HOST: '127.0.0.1' });
    url = await npm.listening;
    expect(npm.output()).not.toContain('no admin account yet');
    const { context, page } = await open('en', DESKTOP, new URL(link).pathname + new URL(link).search);
    await expect.poll(() => heading(page).textContent()).toBe(TEXT.en.done);
    await context.close();
  });
});
