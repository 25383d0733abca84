import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, type ReceivedMail, SmtpSink } from '../../src-server/testing/smtp-sink';
import { formatMoney } from '../lib/format';
import { apiClient, apiLogin } from './api';
import {
  apiRegister,
  type Lang,
  newPage,
  PHONE,
  type RunningServer,
  shot,
  startServer,
  withServerAndBrowser,
} from './harness';

/**
 * The account mails in the browser, with a real SMTP server (smtp-server) receiving them: a
 * registration's verification link opened and shown verified on the profile; the profile's mail
 * language and notification switches; a forgotten password reset through its mailed link, which
 * signs in and ends the old session; the "send the link" offer of an unverified address; the
 * admin's account switches; and, on a second server without SMTP, the screens that say mail is
 * not set up. One browser context walks it all, switching language and width for the screenshots
 * (each behind the axe gate).
 */
const LAPTOP = { width: 1280, height: 800 };
const sink = new SmtpSink();
beforeAll(async () => {
  await sink.start();
});
afterAll(() => sink.stop());
// TRUST_PROXY lets the timing check below come from many addresses, each within its throttle
const suite = withServerAndBrowser(() => ({
  SMTP_URL: sink.url,
  MAIL_FROM: '"TaskReward" <no-reply@taskreward.test>',
  TRUST_PROXY: '1',
}));
const client = apiClient(() => suite.server.url);

/** The next mail to `address` after the `seen` ones already read. */
async function nextMail(address: string, seen: number): Promise<ReceivedMail> {
  await expect.poll(() => sink.to(address).length, { timeout: 15_000 }).toBeGreaterThan(seen);
  return sink.to(address)[seen] as ReceivedMail;
}

/**
 * The page at a width, in a language: the language is set where the app keeps it before the
 * page loads (a mailed link's token leaves the address bar once read, so no reload after).
 */
async function view(page: Page, lang: Lang, size: { width: number; height: number }, path: string) {
  await page.setViewportSize(size);
  if (!page.url().startsWith('http')) await page.goto('/');
  await page.evaluate((lng) => localStorage.setItem('language', lng), lang);
  await page.goto(path);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

const COMBOS: [Lang, { width: number; height: number }, string][] = [
  ['en', LAPTOP, 'laptop'],
  ['tr', PHONE, 'phone'],
  ['tr', LAPTOP, 'laptop'],
  ['en', PHONE, 'phone'],
];

describe('account mails in the browser', () => {
  // one context walks every step; each step is a test of its own (its own time limit)
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const email = 'mail.walker@example.test';
  let firstToken: string | null = null;
  beforeAll(async () => {
    ({ context, page } = await newPage(suite.browser, suite.server.url, { size: LAPTOP, lang: 'en' }));
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('installBannerDismissed', '1'));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('verifies a registration by its mailed link and keeps the profile mail switches', async () => {
    // registering in English: the verification mail is English, its link verifies the address
    await page.goto('/register');
    await page.locator('#name').fill('Mail Walker');
    await page.locator('#email').fill(email);
    await page.locator('#password').fill('walker-pass-1');
    await page.locator('#confirmPassword').fill('walker-pass-1');
    await page.locator('#terms').check();
    await page.locator('form button[type=submit]').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/register'));
    firstToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(firstToken).toBeTruthy();
    const verification = await nextMail(email, 0);
    expect(verification.parsed.subject).toBe('Confirm your email address for TaskReward');
    expect(verification.parsed.html).toContain('/verify-email?token=');
    await page.goto('/profile');
    await expect.poll(() => page.getByTestId('email-state').getAttribute('data-verified')).toBe('no');
    const link = linkIn(verification, '/verify-email');
    await page.goto(`${link.url.pathname}${link.url.search}`);
    await expect.poll(() => page.locator('.notice-success').count()).toBe(1);
    // the token left the address bar once taken
    expect(page.url()).not.toContain('token=');
    await shot(page, 'account-mail-verified-en-laptop');
    await page.goto('/profile');
    await expect.poll(() => page.getByTestId('email-state').getAttribute('data-verified')).toBe('yes');
    expect(page.getByTestId('verify-offer')).toBeDefined();
    expect(await page.getByTestId('verify-offer').count()).toBe(0);

    // the profile's switches: mails in Turkish from now on; notifications off and on again
    const prefs = page.getByTestId('mail-preferences');
    await prefs.locator('#mail-language').selectOption('tr');
    await expect
      .poll(async () => (await client.ok<{ language: string }>('GET', '/users/me', firstToken)).language)
      .toBe('tr');
    await prefs.locator('#mail-notifications').uncheck();
    await expect
      .poll(
        async () =>
          (await client.ok<{ emailNotifications: boolean }>('GET', '/users/me', firstToken))
            .emailNotifications,
      )
      .toBe(false);
    await prefs.locator('#mail-notifications').check();
    await expect
      .poll(
        async () =>
          (await client.ok<{ emailNotifications: boolean }>('GET', '/users/me', firstToken))
            .emailNotifications,
      )
      .toBe(true);
    for (const [lang, size, width] of COMBOS) {
      await view(page, lang, size, '/profile');
      await page.getByTestId('mail-preferences').scrollIntoViewIfNeeded();
      await shot(page, `account-mail-profile-${lang}-${width}`);
    }
  });

  it('resets a forgotten password through the mailed link: signed in, the old session refused', async () => {
    // signed out, the password forgotten: the reset mail comes in the account's language (Turkish)
    await page.evaluate(() => localStorage.removeItem('token'));
    for (const [lang, size, width] of COMBOS.slice(0, 2)) {
      await view(page, lang, size, '/forgot-password');
      await shot(page, `account-mail-forgot-${lang}-${width}`);
    }
    await page.locator('#email').fill(email);
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.locator('.notice-success').count()).toBe(1);
    await shot(page, 'account-mail-forgot-sent-tr-phone');
    const resetMail = await nextMail(email, 1);
    expect(resetMail.parsed.subject).toBe('TaskReward şifreni sıfırla');
    const reset = linkIn(resetMail, '/reset-password');
    await view(page, 'en', LAPTOP, `${reset.url.pathname}${reset.url.search}`);
    await shot(page, 'account-mail-reset-en-laptop');
    await page.locator('#password').fill('walker-pass-2');
    await page.locator('#confirm').fill('walker-pass-2');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL((u) => u.pathname.startsWith('/tasks'));
    const newToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(firstToken);
    // the session from before the reset is over; the new one works, with the new password only
    expect((await client.api('GET', '/users/me', firstToken)).status).toBe(401);
    expect((await client.api('GET', '/users/me', newToken)).status).toBe(200);
    expect((await client.api('POST', '/auth/login', null, { email, password: 'walker-pass-1' })).status).toBe(
      401,
    );
    // the link is spent: opened again, the page says so
    await view(page, 'tr', PHONE, `${reset.url.pathname}${reset.url.search}`);
    await page.locator('#password').fill('walker-pass-3');
    await page.locator('#confirm').fill('walker-pass-3');
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.locator('.notice-error').count()).toBe(1);
    await shot(page, 'account-mail-reset-used-tr-phone');
  });

  it("offers an unverified address a new link, and saves the admin's account switches", async () => {
    const url = suite.server.url;
    // an unverified account (registered through the API) is offered a new link on its profile
    const other = 'unverified.walker@example.test';
    const unverified = await apiRegister(url, {
      name: 'Doğrulanmamış',
      email: other,
      password: 'other-pass-1',
    });
    await nextMail(other, 0);
    await page.evaluate((t) => localStorage.setItem('token', t), unverified.token);
    for (const [lang, size, width] of COMBOS.slice(0, 2)) {
      await view(page, lang, size, '/profile');
      await page.getByTestId('verify-offer').scrollIntoViewIfNeeded();
      await shot(page, `account-mail-verify-offer-${lang}-${width}`);
    }
    await page.getByTestId('verify-offer').locator('button').click();
    await expect.poll(() => page.getByTestId('verify-offer').getByRole('status').count()).toBe(1);
    const again = await nextMail(other, 1);
    // registered on a Turkish screen (the API's default), so the link comes in Turkish
    expect(again.parsed.subject).toBe('TaskReward için e-posta adresini doğrula');
    await page.goto(
      `${linkIn(again, '/verify-email').url.pathname}${linkIn(again, '/verify-email').url.search}`,
    );
    await expect.poll(() => page.locator('.notice-success').count()).toBe(1);
    expect(
      (await client.ok<{ emailVerified: boolean }>('GET', '/users/me', unverified.token)).emailVerified,
    ).toBe(true);

    // the admin's account switches, saved through the settings screen
    const adminToken = await apiLogin(url);
    await page.evaluate((t) => localStorage.setItem('token', t), adminToken);
    for (const [lang, size, width] of COMBOS.slice(0, 2)) {
      await view(page, lang, size, '/admin/settings?tab=payment');
      await page.locator('#settings-requireVerifiedEmail').scrollIntoViewIfNeeded();
      await shot(page, `account-mail-admin-settings-${lang}-${width}`);
    }
    await page.locator('#settings-requireVerifiedEmail').check();
    const accounts = page.locator('form[aria-labelledby="accounts-title"]');
    await accounts.locator('button[type=submit]').click();
    await expect.poll(() => accounts.getByTestId('settings-success').count()).toBe(1);
    const saved = await client.ok<{
      payment: { requireVerifiedEmail: boolean };
      security: { requireAdminTwoFactor: boolean };
    }>('GET', '/settings', null);
    expect(saved.payment.requireVerifiedEmail).toBe(true);
    expect(saved.security.requireAdminTwoFactor).toBe(false);

    // the switch holds: an unverified account's withdrawal is refused, a verified one's goes through
    const payout = {
      amount: 50,
      paymentMethod: 'papara',
      accountDetails: { fullName: 'Mail Walker', accountNumber: '1234567890' },
    };
    const stranger = await apiRegister(url, {
      name: 'Stranger',
      email: 'stranger@example.test',
      password: 'stranger-pass-1',
    });
    await client.ok('PUT', `/admin/users/${stranger.id}`, adminToken, {
      name: 'Stranger',
      email: 'stranger@example.test',
      balance: 100,
    });
    const refused = await client.api('POST', '/withdraws', stranger.token, payout);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('email_not_verified');
    // a money mail: the admin pays the walker's withdrawal from the dashboard, the mail is Turkish
    const walkerToken = await apiLogin(url, { email, password: 'walker-pass-2' });
    const walker = await client.ok<{ _id: string }>('GET', '/users/me', walkerToken);
    await client.ok('PUT', `/admin/users/${walker._id}`, adminToken, {
      name: 'Mail Walker',
      email,
      balance: 100,
    });
    await client.ok('POST', '/withdraws', walkerToken, payout);
    const seen = sink.to(email).length;
    await view(page, 'en', LAPTOP, '/admin');
    const rows = page.locator('[data-testid=pending-withdrawals] tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.getByRole('button', { name: 'Approve' }).click();
    await page.locator('[data-testid=confirm-approve]').click();
    const paid = await nextMail(email, seen);
    expect(paid.parsed.subject).toBe(`${formatMoney(50)} tutarındaki çekim talebin ödendi`);
    expect(errors).toEqual([]);
  });

  it('answers forgot-password in the same time over HTTP for an address with and without an account', async () => {
    const url = suite.server.url;
    const known: string[] = [];
    for (let i = 0; i < 5; i++) {
      const address = `timed.${i}@example.test`;
      await apiRegister(url, { name: `Timed ${i}`, email: address, password: 'timed-pass-1' });
      known.push(address);
    }
    const time = async (address: string, ip: string) => {
      const started = performance.now();
      const res = await fetch(`${url}/api/auth/forgot-password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ email: address }),
      });
      const elapsed = performance.now() - started;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, message: expect.any(String) });
      return elapsed;
    };
    const withAccount: number[] = [];
    const without: number[] = [];
    // interleaved, so a slow moment of the machine falls on both sides alike
    for (let i = 0; i < 5; i++) {
      withAccount.push(await time(known[i] as string, `10.20.0.${i}`));
      without.push(await time(`nobody.${i}@example.test`, `10.21.0.${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2] as number;
    for (const ms of [...withAccount, ...without]) expect(ms).toBeGreaterThanOrEqual(395);
    expect(Math.abs(median(withAccount) - median(without))).toBeLessThan(80);
  });
});

describe('without SMTP', () => {
  let bare: RunningServer;
  beforeAll(async () => {
    bare = await startServer();
  });
  afterAll(() => bare?.stop());

  it('says mail is not set up on the forgot-password page and the profile, naming support', async () => {
    const { context, page } = await newPage(suite.browser, bare.url, { size: LAPTOP, lang: 'en' });
    const settings = await apiClient(() => bare.url).ok<{ contact: { email: string } }>(
      'GET',
      '/settings',
      null,
    );
    for (const [lang, size, width] of COMBOS.slice(0, 2)) {
      await view(page, lang, size, '/forgot-password');
      await expect
        .poll(() => page.locator(`.auth-card a[href^="mailto:${settings.contact.email}"]`).count(), {
          timeout: 15_000,
        })
        .toBe(1);
      await shot(page, `account-mail-forgot-no-smtp-${lang}-${width}`);
    }
    const reply = await apiClient(() => bare.url).api('POST', '/auth/forgot-password', null, {
      email: 'someone@example.test',
    });
    expect(reply.status).toBe(503);
    expect(reply.body.error?.code).toBe('email_not_configured');
    const user = await apiRegister(bare.url, {
      name: 'No Mail',
      email: 'no.mail@example.test',
      password: 'no-mail-pass-1',
    });
    await page.evaluate((t) => localStorage.setItem('token', t), user.token);
    await view(page, 'en', LAPTOP, '/profile');
    const notice = page.getByTestId('mail-not-set-up');
    await expect.poll(() => notice.count(), { timeout: 15_000 }).toBe(1);
    expect(await notice.locator(`a[href="mailto:${settings.contact.email}"]`).count()).toBe(1);
    expect(await page.getByTestId('verify-offer').count()).toBe(0);
    await page.getByTestId('mail-preferences').scrollIntoViewIfNeeded();
    await shot(page, 'account-mail-profile-no-smtp-en-laptop');
    await context.close();
  });
});
