import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng } from './api';
import { snap } from './checks';
import { type Lang, newPage, PHONE, signedInPage, withServerAndBrowser } from './harness';

/**
 * The reviewer's tools on the laptops admins use (1280x800, 1366x768), in both languages: the
 * audit log in words with its targets by name, the dashboard's growth in words with a trend
 * line, a user's internal notes, the day's payout file, and the layout's long words (a site
 * name beside a logo on a phone, the sidebar title, dates and emails in tables); on a phone
 * (390 px), the site name beside the logo, the notes panel and the payout card.
 */

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok } = apiClient(() => suite.server.url);
let adminToken: string;
let userId: string;
const EMAIL = 'sule.gunes@example.com';

let registrations = 0;
async function register(name: string, email: string): Promise<{ id: string; token: string }> {
  registrations++;
  const res = await fetch(`${suite.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.37.0.${registrations}` },
    body: JSON.stringify({ name, email, password: 'secret123' }),
  });
  const body = (await res.json()) as { token: string; data: { _id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return { id: body.data._id, token: body.token };
}

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  const user = await register('Şule Güneş', EMAIL);
  userId = user.id;
  await ok('PUT', `/admin/users/${userId}`, adminToken, { name: 'Şule Güneş', email: EMAIL, balance: 500 });
  const w = await ok<{ _id: string }>('POST', '/withdraws', user.token, {
    amount: 120.5,
    paymentMethod: 'papara',
    accountDetails: { fullName: 'Şule Güneş', accountNumber: '1234567890' },
  });
  await ok('PUT', `/admin/withdraws/${w._id}/approve`, adminToken, {});
  await ok('PUT', `/admin/users/${userId}`, adminToken, {
    name: 'Şule Güneş',
    email: EMAIL,
    status: 'suspended',
  });
  await ok('POST', '/auth/send-notification', adminToken, {
    notificationType: 'customMessage',
    title: 'Duyuru',
    message: 'Yeni görevler eklendi',
    target: 'all',
  });
  // a wide logo beside the site name: the sidebar's title must still show whole
  await ok('PUT', '/settings', adminToken, { site: { name: 'TaskReward Pro' } });
  const form = new FormData();
  const logo = makePng(320, 80, (x) => [40, 90 + (x % 120), 200]);
  form.append('logo', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
  const up = await fetch(`${suite.server.url}/api/settings/logo`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  expect(up.status).toBe(200);
}, 120_000);

/** Whether an element's text is cut (ellipsis or hidden overflow). */
const clipped = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.scrollWidth > el.clientWidth + 1);

/** The most lines any of the elements takes. */
const mostLines = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) =>
    Math.max(
      0,
      ...els.map((el) => {
        const lh = Number.parseFloat(getComputedStyle(el).lineHeight) || 20;
        return Math.round(el.getBoundingClientRect().height / lh);
      }),
    ),
  );

const LAPTOPS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
] as const;
const CASES = (['tr', 'en'] as const).flatMap((lang) => LAPTOPS.map((size) => [lang, size] as const));

describe("the reviewer's tools", () => {
  it.each(CASES)('in %s at %o', async (lang: Lang, size) => {
    const { context, page, errors } = await signedInPage(suite.browser, suite.server.url, adminToken, {
      lang,
      size,
    });
    const tag = `${lang}-${size.width}`;
    const tr = lang === 'tr';

    // the dashboard: growth in words and a trend line, no bare percent
    await page.goto('/admin');
    const users = page.locator('[data-testid=growth-users]');
    await users.waitFor();
    expect(await users.textContent()).toContain(
      tr ? 'Son 30 günde 2 yeni kullanıcı' : '2 new users in the last 30 days',
    );
    expect(await users.textContent()).toContain(
      tr ? 'önceki 30 günde hiç yoktu' : 'none in the 30 days before',
    );
    expect(await page.locator('[data-testid=growth-tasks]').textContent()).toContain(
      tr ? 'Son 30 günde henüz yok' : 'None yet in the last 30 days',
    );
    expect(await page.locator('[data-testid=stat-cards]').textContent()).not.toMatch(/%0|0%/);
    expect(await page.locator('[data-testid=growth-spark]').count()).toBe(3);
    // the sidebar's title whole
    expect(await clipped(page, '.admin-side .admin-brand span')).toBe(false);
    await snap(page, `reviewer-dashboard-${tag}`);

    // the audit log in words, its target by name with a link
    await page.goto('/admin/audit');
    const status = page.locator('[data-testid=audit-row][data-action="user.status"]').first();
    await status.waitFor();
    expect(await status.locator('dd').first().textContent()).toMatch(
      tr ? /aktif →+ askıda/ : /active →+ suspended/,
    );
    const target = status.locator('[data-testid=audit-target] a');
    expect(await target.textContent()).toBe('Şule Güneş');
    expect(await target.getAttribute('href')).toBe(`/admin/users/${userId}`);
    const sent = page.locator('[data-testid=audit-row][data-action="notification.send"]').first();
    expect(await sent.textContent()).toContain(tr ? 'Özel mesaj' : 'Custom message');
    expect(await sent.textContent()).not.toContain('customMessage');
    const payout = page.locator('[data-testid=audit-row][data-action="withdrawal.approve"]').first();
    expect(await payout.locator('[data-testid=audit-target]').textContent()).toContain('Şule Güneş');
    // dates on at most two lines, emails not broken inside a word
    expect(await mostLines(page, '[data-testid=audit-row] time')).toBeLessThanOrEqual(2);
    await snap(page, `reviewer-audit-${tag}`);

    // a note on the user, then its row in the log
    await page.goto(`/admin/users/${userId}`);
    const note = `Telefonla aradı, ödemesini sordu (${tag})`;
    await page.locator('[data-testid=user-note-text]').fill(note);
    await page.locator('[data-testid=user-note-add]').click();
    await expect.poll(() => page.locator('[data-testid=user-note]').first().textContent()).toContain(note);
    await snap(page, `reviewer-user-notes-${tag}`);

    // the day's payout file for Papara
    await page.goto('/admin/withdrawals');
    await page.locator('[data-testid=payout-file]').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid=payout-file-papara]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^taskreward-payouts-papara-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(csv).toString('utf8');
    expect(text).toContain('Sıra No;Papara No;Alıcı Adı Soyadı;Tutar;Açıklama;Referans No');
    expect(text).toContain('1;1234567890;Şule Güneş;120,50;');
    // emails in the withdrawals table stay whole words
    const cells = page.locator('td', { hasText: EMAIL });
    if ((await cells.count()) > 0) {
      expect(await cells.first().evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(80);
    }
    expect(await mostLines(page, 'table time')).toBeLessThanOrEqual(2);
    await snap(page, `reviewer-payouts-${tag}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Whether an element's text is cut, across or down (an ellipsis, or a line hidden under the next). */
const cut = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);

describe("the reviewer's tools on a phone", () => {
  it.each(['tr', 'en'] as const)('in %s at 390 px', async (lang: Lang) => {
    // a visitor's top bar: the logo, the site name whole, the language switch and the sign-in
    const visitor = await newPage(suite.browser, suite.server.url, { lang, size: PHONE });
    await visitor.context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
    await visitor.page.goto('/');
    await visitor.page.locator('.topbar .brand-logo:not([src="/icon.svg"])').waitFor();
    await visitor.page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.topbar .brand-logo')].every((i) => i.complete),
    );
    expect(await visitor.page.locator('.topbar .brand span').textContent()).toBe('TaskReward Pro');
    await snap(visitor.page, `reviewer-phone-brand-${lang}`);
    expect(await cut(visitor.page, '.topbar .brand span')).toBe(false);
    await visitor.context.close();

    const { context, page, errors } = await signedInPage(suite.browser, suite.server.url, adminToken, {
      lang,
      size: PHONE,
    });
    // a signed-in worker's top bar has the inbox bell and the account menu beside it too
    await page.goto('/tasks');
    await page.locator('.topbar .brand span').waitFor();
    await snap(page, `reviewer-phone-worker-top-${lang}`);
    expect(await cut(page, '.topbar .brand span')).toBe(false);
    // the admin screens' own top bar (the menu button, the brand, the notify button)
    await page.goto(`/admin/users/${userId}`);
    const notes = page.locator('[data-testid=user-notes]');
    await notes.waitFor();
    expect(await cut(page, '.admin-top-brand .brand span')).toBe(false);
    const note = `Telefonla aradı, ödemesini sordu (${lang}-390)`;
    await page.locator('[data-testid=user-note-text]').fill(note);
    await page.locator('[data-testid=user-note-add]').click();
    await expect.poll(() => page.locator('[data-testid=user-note]').first().textContent()).toContain(note);
    await snap(page, `reviewer-phone-user-notes-${lang}`);

    await page.goto('/admin/withdrawals');
    const payout = page.locator('[data-testid=payout-file]');
    await payout.waitFor();
    // the card's download buttons within the screen
    for (const button of await payout.locator('a:visible, button:visible').all()) {
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width + 1).toBe(true);
    }
    await snap(page, `reviewer-phone-payouts-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
