import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { apiLogin } from './api';
import {
  apiRegister,
  DESKTOP,
  type Lang,
  PHONE,
  shot,
  signedInPage,
  uiLogin,
  withServerAndBrowser,
} from './harness';

/**
 * Two-factor sign-in and sessions in the browser, once per language (English at laptop width,
 * Turkish on a phone): a worker turns it on from the profile (QR code, recovery codes), sees their
 * sessions, and signs in again with the code step; an admin sees a user's sessions and
 * two-factor on the user's screen; an admin without two-factor, while the setting requires it,
 * sees only the enrolment. Every screen passes the axe gate (shot).
 */
const suite = withServerAndBrowser();

/** The code an authenticator shows `steps` steps from now (a later step than any used before). */
const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${suite.server.url}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

describe('two-factor sign-in and sessions', () => {
  it('enrols from the profile, signs in with the code, and shows admins the sessions, in both languages', async () => {
    const url = suite.server.url;
    const adminToken = await apiLogin(url);
    // the admin turns two-factor on first (through the API), so the setting cannot hold them
    const adminSetup = await api('POST', '/users/me/two-factor/setup', adminToken, {
      currentPassword: 'admin-pass-1',
    });
    await api('POST', '/users/me/two-factor/enable', adminToken, { code: codeOf(String(adminSetup.secret)) });

    for (const [lang, size] of [
      ['en', DESKTOP],
      ['tr', PHONE],
    ] as [Lang, typeof DESKTOP][]) {
      const email = `two.factor.${lang}@example.test`;
      const password = 'worker-pass-1';
      const worker = await apiRegister(url, { name: `İki Adım ${lang}`, email, password });

      const { context, page, errors } = await signedInPage(suite.browser, url, worker.token, { lang, size });
      await page.goto('/profile');
      const panel = page.getByTestId('two-factor-panel');
      await panel.locator('#two-factor-password').fill(password);
      await panel.locator('button[type=submit]').click();
      await expect.poll(() => panel.locator('img.qr-code').count()).toBe(1);
      await shot(page, `two-factor-setup-${lang}`);
      const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
      await panel.locator('#two-factor-code').fill(codeOf(secret));
      await panel.locator('button[type=submit]').click();
      await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
      await shot(page, `two-factor-recovery-${lang}`);
      await page.getByTestId('recovery-codes').locator('button').click();
      // the registration's session, this page's
      await expect.poll(() => page.getByTestId('session-list').locator('li').count()).toBe(1);
      await page.getByTestId('my-sessions').scrollIntoViewIfNeeded();
      await shot(page, `two-factor-sessions-${lang}`);

      // signed out, then in again: the code step after the password
      await page.evaluate(() => localStorage.removeItem('token'));
      await uiLogin(page, email, password);
      await expect.poll(() => page.locator('#code').count()).toBe(1);
      await shot(page, `two-factor-login-code-${lang}`);
      await page.locator('#code').fill(codeOf(secret, 1));
      await page.locator('form button[type=submit]').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));

      // the admin's view of the worker: two-factor on, two sessions (registration, sign-in)
      const admin = await signedInPage(suite.browser, url, adminToken, { lang, size });
      await admin.page.goto(`/admin/users/${worker.id}`);
      const security = admin.page.getByTestId('user-security');
      await expect.poll(() => security.locator('.session-item').count()).toBe(2);
      await security.scrollIntoViewIfNeeded();
      await shot(admin.page, `two-factor-admin-user-${lang}`);
      await admin.context.close();
      expect(errors).toEqual([]);
      await context.close();
    }

    // an admin without two-factor while the setting requires it: only the enrolment
    const second = await apiRegister(url, {
      name: 'Yeni Yönetici',
      email: 'second.admin@example.test',
      password: 'second-pass-1',
    });
    await api('PUT', `/admin/users/${second.id}`, adminToken, {
      name: 'Yeni Yönetici',
      email: 'second.admin@example.test',
      role: 'admin',
      status: 'active',
    });
    await api('PUT', '/settings', adminToken, { security: { requireAdminTwoFactor: true } });
    try {
      for (const [lang, size] of [
        ['en', DESKTOP],
        ['tr', PHONE],
      ] as [Lang, typeof DESKTOP][]) {
        const { context, page } = await signedInPage(suite.browser, url, second.token, { lang, size });
        await page.goto('/admin');
        await expect.poll(() => page.getByTestId('two-factor-enrolment').count()).toBe(1);
        await shot(page, `two-factor-enrolment-${lang}`);
        await context.close();
      }
    } finally {
      await api('PUT', '/settings', adminToken, { security: { requireAdminTwoFactor: false } });
    }
  });
});
