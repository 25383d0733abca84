import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin } from './api';
import { snap } from './checks';
import { newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The audit log on screen: from a user's detail page to the actions on that user,
 * filtered by action, in both languages, at a laptop's size and on a phone.
 */

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask } = apiClient(() => suite.server.url);
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
  // a second admin features a task, then is deleted: their row keeps who they were
  const temp = { name: 'Geçici Yönetici', email: 'temp.admin@example.test', password: 'secret123' };
  const reg = await fetch(`${suite.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.43.0.2' },
    body: JSON.stringify(temp),
  });
  const tempId = ((await reg.json()) as { data: { _id: string } }).data._id;
  await ok('PUT', `/admin/users/${tempId}`, adminToken, {
    name: temp.name,
    email: temp.email,
    role: 'admin',
  });
  const tempToken = await apiLogin(suite.server.url, temp);
  const taskId = await createTask(tempToken, {
    title: 'Geçici görev',
    description: 'Denetim için bir görev.',
    reward: 2,
    maxCompletions: 3,
  });
  await ok('PUT', `/tasks/${taskId}/feature`, tempToken, { isFeatured: true });
  await ok('DELETE', `/admin/users/${tempId}`, adminToken);
});

describe('the audit log', () => {
  it.each([
    ['en', 'laptop', { width: 1280, height: 800 }],
    ['tr', 'laptop', { width: 1280, height: 800 }],
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
    // the field in the reader's language, not the API's name
    expect(await rows.first().locator('dt').first().textContent()).toBe(
      lang === 'tr' ? 'Site adı' : 'Site name',
    );
    // a deleted admin's row: their name and email as they were, marked as deleted
    await page.locator('#audit-action').selectOption('task.feature');
    await expect.poll(() => rows.first().getAttribute('data-action')).toBe('task.feature');
    expect(await rows.count()).toBe(1);
    const actor = rows.first().locator('[data-testid=audit-actor]');
    expect(await actor.textContent()).toBe(
      `Geçici Yönetici${lang === 'tr' ? 'silindi' : 'deleted'}temp.admin@example.test`,
    );
    const change = rows.first().locator('.audit-changes div').first();
    expect(await change.locator('dt').textContent()).toBe(lang === 'tr' ? 'Öne çıkan' : 'Featured');
    expect(await change.locator('dd').textContent()).toMatch(
      lang === 'tr' ? /^hayır →+ evet$/ : /^no →+ yes$/,
    );
    await snap(page, `audit-deleted-actor-${lang}-${device}`);
    // a reversed range says so and asks nothing
    await page.locator('#audit-from').fill('2026-12-10');
    await page.locator('#audit-to').fill('2026-12-01');
    await page.locator('#audit-to-error').waitFor();
    await snap(page, `audit-filtered-${lang}-${device}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
