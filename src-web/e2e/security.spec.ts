import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng } from './api';
import { snapWith, text } from './checks';
import {
  ADMIN,
  apiRegister,
  COMBOS,
  DESKTOP,
  type Lang,
  signedInPage,
  withServerAndBrowser,
} from './harness';

/**
 * Security hardening as users meet it: a password change asks for the current
 * password and ends the other sessions, and an admin is offered no buttons on their own
 * submissions and withdrawals. Both languages, phone and desktop.
 */

const TEXT = {
  en: {
    edit: 'Edit profile',
    current: 'Current password',
    save: 'Save changes',
    required: 'Enter your current password',
    wrong: 'Your current password is not correct',
    saved: 'Your profile has been updated.',
    expired: 'Your session has expired, please sign in again.',
    ownItem: 'Your own item: another admin must decide on it.',
  },
  tr: {
    edit: 'Profili düzenle',
    current: 'Mevcut şifre',
    save: 'Değişiklikleri kaydet',
    required: 'Mevcut şifreni gir',
    wrong: 'Mevcut şifreniz doğru değil',
    saved: 'Profilin güncellendi.',
    expired: 'Oturumunun süresi doldu, lütfen tekrar giriş yap.',
    ownItem: 'Bu senin kaydın: başka bir yönetici karar vermeli.',
  },
} as const;

const suite = withServerAndBrowser();
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const snap = snapWith({});
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
});

async function login(email: string, password: string, rememberMe = false): Promise<string> {
  const res = await fetch(`${suite.server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, rememberMe }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function profile(token: string, lang: Lang, size: { width: number; height: number }) {
  const opened = await signedInPage(suite.browser, suite.server.url, token, { lang, size });
  await opened.page.goto('/profile');
  await expect.poll(() => opened.page.locator('[data-testid=profile-card]').isVisible()).toBe(true);
  return opened;
}

describe('changing the password', () => {
  it.each(COMBOS)(
    'asks for the current one and ends the other sessions (%s, %s)',
    async (lang, label, size) => {
      const T = TEXT[lang];
      const email = `pw-${lang}-${label}@example.test`;
      await apiRegister(suite.server.url, { name: 'Şifre Değiştiren', email, password: 'old-secret-1' });
      const here = await profile(await login(email, 'old-secret-1'), lang, size);
      const elsewhere = await profile(await login(email, 'old-secret-1', true), lang, DESKTOP);
      const { page } = here;
      try {
        await page.locator('.profile-edit-toggle').click();
        // the current password is asked for only once a new one is typed
        expect(await page.locator('#profile-current-password').count()).toBe(0);
        await page.locator('#profile-password').fill('new-secret-2');
        // the profile form's own field, found by its label (the two-factor panel asks for the password too)
        await expect
          .poll(() => page.getByLabel(T.current).and(page.locator('#profile-current-password')).isVisible())
          .toBe(true);
        await page.getByRole('button', { name: T.save }).click();
        await expect.poll(() => text(page, '#profile-current-password-error')).toBe(T.required);
        await page.locator('#profile-current-password').fill('not-the-password');
        await page.getByRole('button', { name: T.save }).click();
        await expect.poll(() => text(page, '#profile-current-password-error')).toBe(T.wrong);
        await snap(page, `security-password-wrong-${lang}-${label}`);
        await page.locator('#profile-current-password').fill('old-secret-1');
        await page.getByRole('button', { name: T.save }).click();
        await expect.poll(() => text(page, '[data-testid=profile-message]')).toBe(T.saved);
        // this session goes on with its fresh token, also after a reload
        await page.reload();
        await expect.poll(() => page.locator('[data-testid=profile-card]').isVisible()).toBe(true);
        // the other one (remember-me) is over at its next request
        await elsewhere.page.reload();
        await expect.poll(() => elsewhere.page.getByText(T.expired).isVisible()).toBe(true);
        expect(await elsewhere.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
        await snap(elsewhere.page, `security-session-ended-${lang}-${label}`);
        // the new password signs in, the old one does not
        await login(email, 'new-secret-2');
      } finally {
        await here.context.close();
        await elsewhere.context.close();
      }
    },
  );
});

describe('four eyes on money', () => {
  let adminId: string;
  let workerName: string;

  beforeAll(async () => {
    const me = await ok<{ _id: string }>('GET', '/users/me', adminToken);
    adminId = me._id;
    // a second admin funds the first one (an admin never sets their own balance)
    const second = await apiRegister(suite.server.url, {
      name: 'İkinci Yönetici',
      email: 'second.admin@example.test',
      password: 'second-pass-1',
    });
    await ok('PUT', `/admin/users/${second.id}`, adminToken, {
      name: 'İkinci Yönetici',
      email: 'second.admin@example.test',
      role: 'admin',
      status: 'active',
    });
    const secondToken = await login('second.admin@example.test', 'second-pass-1');
    await ok('PUT', `/admin/users/${adminId}`, secondToken, {
      name: ADMIN.name,
      email: ADMIN.email,
      role: 'admin',
      status: 'active',
      balance: 100,
    });
    const task = await createTask(adminToken, {
      title: 'Kendi görevini yapan yönetici',
      description: 'Yönetici de görev yapabilir.',
      reward: 5,
      maxCompletions: 10,
    });
    await startAndSubmit(adminToken, task, makePng(16, 16, [200, 40, 40]));
    await ok('POST', '/withdraws', adminToken, {
      amount: 40,
      paymentMethod: 'papara',
      accountDetails: { fullName: 'Admin', accountNumber: '1234567890' },
    });
    // a worker's items beside them, which the admin may decide on
    workerName = 'Çalışan Kullanıcı';
    const worker = await apiRegister(suite.server.url, {
      name: workerName,
      email: 'worker.four-eyes@example.test',
      password: 'worker-pass-1',
    });
    await startAndSubmit(worker.token, task, makePng(16, 16, [40, 200, 40]));
  });

  async function adminPage(lang: Lang, path: string): Promise<Page> {
    const { page } = await signedInPage(suite.browser, suite.server.url, adminToken, { lang, size: DESKTOP });
    await page.goto(path);
    return page;
  }

  it.each(['tr', 'en'] as const)(
    'offers no review or payout buttons on the admin’s own items (%s)',
    async (lang) => {
      const T = TEXT[lang];
      const subs = await adminPage(lang, '/admin/submissions');
      const rows = subs.locator('[data-testid=submission-row]');
      await expect.poll(() => rows.count()).toBe(2);
      const own = rows.filter({ hasText: ADMIN.name });
      const theirs = rows.filter({ hasText: workerName });
      expect(await own.locator('[data-testid=view-evidence]').getAttribute('data-action')).toBe('view');
      expect(await theirs.locator('[data-testid=view-evidence]').getAttribute('data-action')).toBe('review');
      await own.locator('[data-testid=view-evidence]').click();
      await expect.poll(() => text(subs, '[data-testid=own-item]')).toBe(T.ownItem);
      expect(await subs.locator('[data-testid=quick-approve]').count()).toBe(0);
      await snap(subs, `security-own-submission-${lang}-desktop`);
      await subs.keyboard.press('Escape');
      await theirs.locator('[data-testid=view-evidence]').click();
      await expect.poll(() => subs.locator('[data-testid=quick-approve]').isVisible()).toBe(true);
      await subs.context().close();

      const withdrawals = await adminPage(lang, '/admin/withdrawals');
      const wrows = withdrawals.locator('[data-testid=withdrawal-row]');
      await expect.poll(() => wrows.count()).toBe(1);
      expect(await wrows.first().locator('[data-testid=withdrawal-approve]').count()).toBe(0);
      expect(await text(withdrawals, '[data-testid=withdrawal-row] [data-testid=own-item]')).toBe(T.ownItem);
      await snap(withdrawals, `security-own-withdrawal-${lang}-desktop`);
      await withdrawals.context().close();

      const dashboard = await adminPage(lang, '/admin');
      await expect.poll(() => dashboard.locator('[data-testid=pending-withdrawals]').isVisible()).toBe(true);
      expect(
        await dashboard.locator('[data-testid=pending-withdrawals] [data-testid=own-item]').count(),
      ).toBe(1);
      expect(await dashboard.locator('[data-testid=pending-withdrawals] button').count()).toBe(0);
      await dashboard.context().close();
    },
  );
});
