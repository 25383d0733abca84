import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin } from './api';
import { snap } from './checks';
import { newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The audit log on screen (issue 16): from a user's detail page to the actions on that user,
 * filtered by action, in both languages, at a laptop's size and on a phone.
 */

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok } = apiClient(() => suite.server.url);
let adminToken: string;
let userId: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  const res = await fetch(`${suite.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.43.0.1' },
    body: JSON.stringify({ name: 'Denetlenen Kişi', email: 'audited@example.test', password: 'secret123' }),
  });
  userId = ((await res.json()) as { data: { _id: string } }).data._id;
  const edit = { name: 'Denetlenen Kişi', email: 'audited@example.test' };
  await ok('PUT', `/admin/users/${userId}`, adminToken, { ...edit, balance: 25 });
  await ok('PUT', `/admin/users/${userId}`, adminToken, { ...edit, status: 'suspended' });
  await ok('PUT', '/settings', adminToken, { site: { name: 'Denetim Sitesi' } });
});

describe('the audit log', () => {
  it.each([
    ['en', 'laptop', { width: 1366, height: 768 }],
    ['tr', 'phone', PHONE],
  ] as const)('shows the actions on a user and filters them (%s, %s)', async (lang, device, size) => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto('/');
    await page.evaluate((t) => {
      localStorage.setItem('token', t);
      localStorage.setItem('installBannerDismissed', '1');
    }, adminToken);
    await page.goto(`/admin/users/${userId}`);
    await page.locator('[data-testid=user-detail-name]').waitFor();
    await snap(page, `audit-user-detail-${lang}-${device}`);
    // the worker's proofs: the review screen for them alone (none yet)
    await page.locator('[data-testid=user-proofs-link]').click();
    await page.waitForURL(new RegExp(`/admin/submissions\\?status=all&user=${userId}`));
    await page.locator('[data-testid=submissions-scope]').waitFor();
    await page.locator('[data-testid=submissions-empty]').waitFor();
    await page.goBack();
    await page.locator('[data-testid=user-audit-link]').click();
    await page.waitForURL(/\/admin\/audit\?targetType=user/);
    const rows = page.locator('[data-testid=audit-row]');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-action')).toBe('user.status');
    expect(await rows.nth(1).getAttribute('data-action')).toBe('user.balance');
    expect(await rows.nth(1).textContent()).toContain('₺0,00');
    expect(await rows.nth(1).textContent()).toContain('₺25,00');
    expect(await rows.nth(0).locator('.badge').textContent()).toBe(
      lang === 'tr' ? 'Kullanıcı durumu veya rolü' : 'User status or role',
    );
    expect(await page.locator('[data-testid=audit-scope]').isVisible()).toBe(true);
    expect(await page.title()).toContain(lang === 'tr' ? 'Denetim kaydı' : 'Audit log');
    await snap(page, `audit-user-${lang}-${device}`);

    // everything, then one action
    await page.locator('[data-testid=audit-scope] button').click();
    await page.locator('#audit-action').selectOption('settings.update');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Denetim Sitesi');
    // a reversed range says so and asks nothing
    await page.locator('#audit-from').fill('2026-12-10');
    await page.locator('#audit-to').fill('2026-12-01');
    await page.locator('#audit-to-error').waitFor();
    await snap(page, `audit-filtered-${lang}-${device}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
