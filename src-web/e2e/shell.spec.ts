import { describe, expect, it } from 'vitest';
import { ADMIN, apiRegister, DESKTOP, newPage, PHONE, shot, uiLogin, withServerAndBrowser } from './harness';

const suite = withServerAndBrowser();

describe('the app shell in a real browser', () => {
  it('shows the landing page to visitors in both languages, at phone and desktop width', async () => {
    for (const lang of ['tr', 'en'] as const) {
      for (const [label, size] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ] as const) {
        const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
        await page.goto('/');
        const hero = page.locator('.hero h1');
        await expect
          .poll(() => hero.textContent())
          .toBe(
            lang === 'tr'
              ? 'Basit görevleri tamamla, Türk lirası kazan'
              : 'Complete simple tasks, earn Turkish lira',
          );
        expect(await page.locator('.steps-grid > li').count()).toBe(4);
        // the tasks' section waits for the site's featured tasks; this site has none: the samples
        await page.locator('[data-testid=landing-samples]').waitFor();
        expect(await page.locator('.sample-task').count()).toBe(3);
        expect(await page.locator('.testimonial').count()).toBe(3);
        expect(await page.locator('.footer').textContent()).toContain('destek@taskreward.app');
        await shot(page, `shell-landing-${lang}-${label}`);
        await context.close();
      }
    }
  });

  it('registers a new user who lands on /tasks, and sends them from / to /tasks afterwards', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'en' });
    await page.goto('/register');
    await page.locator('form button[type=submit]').click();
    // the browser checks the form first, with the spec's messages
    await expect.poll(() => page.locator('.field-error').count()).toBeGreaterThanOrEqual(4);
    await page.locator('#name').fill('Deniz Yılmaz');
    await page.locator('#email').fill('deniz@example.test');
    await page.locator('#password').fill('secret123');
    await page.locator('#confirmPassword').fill('secret12');
    await page.locator('#terms').check();
    await page.locator('form button[type=submit]').click();
    await expect
      .poll(() => page.locator('#confirmPassword-error').textContent())
      .toBe('Passwords do not match');
    await page.locator('#confirmPassword').fill('secret123');
    await shot(page, 'shell-register-en-desktop');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL('**/tasks');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await page.goto('/');
    await page.waitForURL('**/tasks');
    await page.goto('/login');
    await page.waitForURL('**/tasks');
    await context.close();
  });

  it('refuses a second registration of the same email whatever its case', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'tr' });
    await page.goto('/register');
    await page.locator('#name').fill('Başka');
    await page.locator('#email').fill('DENIZ@example.test');
    await page.locator('#password').fill('secret123');
    await page.locator('#confirmPassword').fill('secret123');
    await page.locator('#terms').check();
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.locator('.notice-error').textContent()).toContain('zaten kullanılıyor');
    await shot(page, 'shell-register-duplicate-tr-desktop');
    await context.close();
  });

  it('logs an admin in to /admin and logs them out again', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'en' });
    await uiLogin(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/admin');
    await expect.poll(() => page.locator('[data-testid=admin-title]').textContent()).toBe('Dashboard');
    await shot(page, 'shell-admin-en-desktop');
    await page.goto('/tasks');
    await expect.poll(() => page.locator('.topnav').textContent()).toContain('Admin panel');
    await page.locator('[data-testid=user-menu]').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(`${suite.server.url}/`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect.poll(() => page.locator('.auth-links').isVisible()).toBe(true);
    await context.close();
  });

  it('shows a wrong password as an error and keeps the visitor on /login', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'tr' });
    await uiLogin(page, ADMIN.email, 'wrong-password');
    await expect.poll(() => page.locator('.notice-error').textContent()).toBe('E-posta veya şifre hatalı');
    expect(page.url()).toContain('/login');
    await shot(page, 'shell-login-error-tr-phone');
    await context.close();
  });

  it('keeps the chosen language across a reload', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'tr' });
    await page.goto('/login');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tekrar hoş geldin');
    await page.getByRole('button', { name: 'EN' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Welcome back');
    await page.reload();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Welcome back');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'TR' }).click();
    // the choice is stored as the page switches: reload only once it has
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tekrar hoş geldin');
    await page.reload();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tekrar hoş geldin');
    await context.close();
  });

  it('shows the 404 page for an unknown path, with a home link and a go-back button', async () => {
    for (const lang of ['tr', 'en'] as const) {
      const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size: PHONE });
      await page.goto('/login');
      await page.goto('/no/such/page');
      await expect.poll(() => page.locator('[data-testid=not-found]').isVisible()).toBe(true);
      await shot(page, `shell-404-${lang}-phone`);
      await page.getByRole('button', { name: lang === 'tr' ? 'Geri dön' : 'Go back' }).click();
      await page.waitForURL('**/login');
      await page.goto('/no/such/page');
      await page.getByRole('link', { name: lang === 'tr' ? 'Ana sayfaya git' : 'Go to home page' }).click();
      await page.waitForURL(`${suite.server.url}/`);
      await context.close();
    }
  });

  it('sends logged-out visitors from /profile and /my-submissions to /login, and non-admins away from /admin', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'en' });
    await page.goto('/profile');
    await page.waitForURL('**/login');
    await page.goto('/my-submissions');
    await page.waitForURL('**/login');
    await page.goto('/admin');
    await page.waitForURL(`${suite.server.url}/`);
    const user = await apiRegister(suite.server.url, {
      name: 'Plain User',
      email: 'plain@example.test',
      password: 'secret123',
    });
    await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    await page.goto('/admin');
    await page.waitForURL('**/tasks');
    await expect.poll(() => page.locator('.toast').first().textContent()).toContain('Access Denied');
    await context.close();
  });

  it('shows a banned user the ban modal with the reason, on the next load and on login', async () => {
    const user = await apiRegister(suite.server.url, {
      name: 'Soon Banned',
      email: 'banned@example.test',
      password: 'secret123',
    });
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'en', size: PHONE });
    await page.goto('/');
    await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    await page.goto('/tasks');
    await expect.poll(() => page.locator('[data-testid=bottom-bar]').isVisible()).toBe(true);
    const db = suite.server.db();
    db.prepare("UPDATE users SET status = 'banned', ban_reason = ? WHERE _id = ?").run(
      'Fake proofs',
      user.id,
    );
    await page.reload();
    await expect.poll(() => page.locator('[data-testid=ban-reason]').textContent()).toBe('Fake proofs');
    await shot(page, 'shell-ban-modal-en-phone');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.keyboard.press('Escape');
    await uiLogin(page, 'banned@example.test', 'secret123');
    await expect.poll(() => page.locator('[data-testid=ban-reason]').textContent()).toBe('Fake proofs');
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('shows a suspended user the limited-access notice while keeping them signed in', async () => {
    const user = await apiRegister(suite.server.url, {
      name: 'Suspended',
      email: 'susp@example.test',
      password: 'secret123',
    });
    suite.server.db().prepare("UPDATE users SET status = 'suspended' WHERE _id = ?").run(user.id);
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'tr' });
    await uiLogin(page, 'susp@example.test', 'secret123');
    await page.waitForURL('**/tasks');
    await expect
      .poll(() => page.locator('[data-testid=suspended-notice]').textContent())
      .toContain('askıya alındı');
    await shot(page, 'shell-suspended-tr-desktop');
    await context.close();
  });

  it('gives signed-in users the bottom bar at phone width and not at desktop width', async () => {
    const user = await apiRegister(suite.server.url, {
      name: 'Mobile',
      email: 'mobile@example.test',
      password: 'secret123',
    });
    for (const lang of ['tr', 'en'] as const) {
      const phone = await newPage(suite.browser, suite.server.url, { lang, size: PHONE });
      await phone.page.goto('/');
      await phone.page.evaluate((token) => localStorage.setItem('token', token), user.token);
      await phone.page.goto('/tasks');
      const bar = phone.page.locator('[data-testid=bottom-bar]');
      await expect.poll(() => bar.isVisible()).toBe(true);
      expect(await bar.locator('a').count()).toBe(3);
      await expect.poll(() => phone.page.locator('[data-testid=install-banner]').isVisible()).toBe(true);
      await shot(phone.page, `shell-bottom-bar-${lang}-phone`);
      await bar.locator('a').nth(2).click();
      await phone.page.waitForURL('**/profile');
      await phone.context.close();
    }
    const desk = await newPage(suite.browser, suite.server.url, { lang: 'en', size: DESKTOP });
    await desk.page.goto('/');
    await desk.page.evaluate((token) => localStorage.setItem('token', token), user.token);
    await desk.page.goto('/tasks');
    await expect.poll(() => desk.page.locator('.topnav').isVisible()).toBe(true);
    expect(await desk.page.locator('[data-testid=bottom-bar]').isVisible()).toBe(false);
    await shot(desk.page, 'shell-tasks-signed-in-en-desktop');
    await desk.context.close();
  });

  it('cuts a long site name in the top bar instead of widening the phone page', async () => {
    const db = suite.server.db();
    const name = 'Çok Uzun Bir Görev ve Ödül Platformu Adı '.repeat(3).slice(0, 100);
    const now = new Date().toISOString();
    db.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('site', ?, ?)").run(
      JSON.stringify({ name }),
      now,
    );
    for (const lang of ['tr', 'en'] as const) {
      const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size: PHONE });
      await page.goto('/login');
      await expect.poll(() => page.locator('.topbar .brand span').textContent()).toBe(name);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await shot(page, `shell-long-site-name-${lang}-phone`);
      await context.close();
    }
    db.prepare("DELETE FROM settings WHERE key = 'site'").run();
  });

  it('serves the web app manifest and the service worker so phones can install it', async () => {
    const manifest = await fetch(`${suite.server.url}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toContain('application/manifest+json');
    const body = (await manifest.json()) as { icons: { sizes: string }[]; display: string };
    expect(body.display).toBe('standalone');
    expect(body.icons.map((i) => i.sizes)).toContain('512x512');
    const sw = await fetch(`${suite.server.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toContain('javascript');
    const icon = await fetch(`${suite.server.url}/icon-192.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
  });
});
