import { beforeAll, describe, expect, it } from 'vitest';
import enCommon from '../locales/en/common.json';
import { apiClient, apiLogin, registrar } from './api';
import { localeKeys, snapWith } from './checks';
import { COMBOS, newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The in-app inbox: the bell shows the unread count, the list shows each event in
 * the reader's language (an approval, a rejected withdrawal with its reason, a message to
 * everyone sent with OneSignal unconfigured), one is marked read, then all. And the admin's
 * delete of an account that still holds money: refused, then done with the forfeit confirmed.
 * Both languages, phone and desktop.
 */

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.41', 'inbox');
const snap = snapWith({ rawKeys: localeKeys(enCommon.inbox, 'inbox') });
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
});

async function signedIn(token: string, lang: 'tr' | 'en', device: string) {
  const size = device === 'phone' ? PHONE : undefined;
  const opened = await newPage(suite.browser, suite.server.url, { lang, ...(size && { size }) });
  await opened.page.goto('/');
  await opened.page.evaluate((t) => {
    localStorage.setItem('token', t);
    localStorage.setItem('installBannerDismissed', '1');
  }, token);
  return opened;
}

describe('the inbox', () => {
  it.each(COMBOS)(
    'shows events in the reader’s language, marks one and then all read (%s, %s)',
    async (lang, device) => {
      const registered = await register(`Kutu ${lang} ${device}`);
      const { token } = registered;
      const user = { _id: registered.id };
      // an approved proof
      const taskId = await createTask(adminToken, {
        title: `Kutu görevi ${lang} ${device}`,
        description: 'Kodu gönder.',
        reward: 4,
        category: 'social_media',
        maxCompletions: 10,
        requiredProof: 'code',
      });
      await ok('POST', `/tasks/${taskId}/start`, token);
      const form = new FormData();
      form.set('task', taskId);
      form.set('proofText', 'KOD-1');
      const sent = await ok<{ _id: string }>('POST', '/submissions', token, form);
      await ok('PUT', `/submissions/${sent._id}/review`, adminToken, { status: 'approved', feedback: 'ok' });
      // a rejected withdrawal, with its reason
      await ok('PUT', `/admin/users/${user._id}`, adminToken, {
        name: `Kutu ${lang} ${device}`,
        email: registered.email,
        balance: 504,
      });
      const withdrawal = await ok<{ _id: string }>('POST', '/withdraws', token, {
        amount: 500,
        paymentMethod: 'papara',
        accountDetails: { fullName: 'Kutu Sahibi', accountNumber: '1234567890' },
      });
      await ok('PUT', `/admin/withdraws/${withdrawal._id}/reject`, adminToken, {
        reason: 'Papara numarası hatalı',
      });

      const { context, page } = await signedIn(token, lang, device);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto('/tasks');
      const bell = page.locator('[data-testid=inbox-bell]');
      await expect.poll(() => page.locator('[data-testid=inbox-bell-count]').textContent()).toBe('2');
      expect(await bell.getAttribute('aria-label')).toBe(
        lang === 'tr' ? 'Bildirimler, 2 okunmamış' : 'Notifications, 2 unread',
      );
      await bell.click();
      await page.waitForURL('**/notifications');
      const items = page.locator('[data-testid=inbox-item]');
      await expect.poll(() => items.count()).toBe(2);
      expect(await items.nth(0).getAttribute('data-type')).toBe('rejectedWithdraw');
      expect(await items.nth(0).locator('h2').textContent()).toContain(
        lang === 'tr' ? 'Para çekme reddedildi' : 'Withdrawal rejected',
      );
      expect(await items.nth(0).locator('[data-testid=inbox-item-note]').textContent()).toBe(
        'Papara numarası hatalı',
      );
      expect(await items.nth(1).locator('h2').textContent()).toContain(
        lang === 'tr' ? 'Görev onaylandı' : 'Task approved',
      );
      expect(await page.title()).toBe(`${lang === 'tr' ? 'Bildirimler' : 'Notifications'} · TaskReward`);

      // each names what it is about: the refunded amount, the approved task (linked) and its reward
      expect(await items.nth(0).locator('[data-testid=inbox-item-amount]').count()).toBe(1);
      expect(await items.nth(1).locator('[data-testid=inbox-item-context] a').count()).toBe(1);
      // opening the inbox read them: the bell is clear at once, the two keep their "new" mark
      await expect.poll(() => page.locator('[data-testid=inbox-bell-count]').count()).toBe(0);
      await expect.poll(() => items.nth(0).getAttribute('data-read')).toBe('true');
      expect(await page.locator('.inbox-item.is-unread').count()).toBe(2);
      expect(await page.locator('[data-testid=inbox-summary]').textContent()).toBe(
        lang === 'tr' ? 'Hepsi okundu.' : 'Everything is read.',
      );
      await snap(page, `inbox-read-${lang}-${device}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('shows a message sent to everyone with push unconfigured, and an empty inbox to a newcomer', async () => {
    const { token } = await register('Duyuru okuru');
    const sent = await ok<{ pushed: boolean; inbox: number }>('POST', '/auth/send-notification', adminToken, {
      notificationType: 'customMessage',
      target: 'all',
      title: 'Bakım duyurusu',
      message: 'Bu gece 02:00-03:00 arasında bakım yapılacaktır.',
    });
    expect(sent.inbox).toBe(1);
    const { context, page } = await signedIn(token, 'tr', 'phone');
    await page.goto('/notifications');
    const item = page.locator('[data-testid=inbox-item][data-type=customMessage]');
    await expect.poll(() => item.locator('h2').textContent()).toContain('Bakım duyurusu');
    expect(await item.locator('.inbox-item-body').textContent()).toBe(
      'Bu gece 02:00-03:00 arasında bakım yapılacaktır.',
    );
    await snap(page, 'inbox-broadcast-tr-phone');
    await context.close();

    // someone who signs up afterwards does not get it
    const later = await register('Yeni gelen');
    const fresh = await signedIn(later.token, 'en', 'desktop');
    await fresh.page.goto('/notifications');
    await fresh.page.locator('[data-testid=inbox-empty]').waitFor();
    expect(await fresh.page.locator('[data-testid=inbox-bell-count]').count()).toBe(0);
    await snap(fresh.page, 'inbox-empty-en-desktop');
    await fresh.context.close();
  });
});

describe('deleting an account that holds money', () => {
  it.each([
    ['en', 'desktop'],
    ['tr', 'phone'],
  ] as const)('is refused until the admin confirms the forfeit (%s, %s)', async (lang, device) => {
    const email = `forfeit-${lang}-${device}@example.test`;
    const res = await fetch(`${suite.server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.42.0.${lang === 'en' ? 1 : 2}` },
      body: JSON.stringify({ name: `Forfeit ${lang}`, email, password: 'secret123' }),
    });
    const { data: user } = (await res.json()) as { data: { _id: string } };
    await ok('PUT', `/admin/users/${user._id}`, adminToken, {
      name: `Forfeit ${lang}`,
      email,
      balance: 12.5,
    });

    const { context, page } = await signedIn(adminToken, lang, device);
    await page.goto('/admin/users');
    await page.locator('#user-search').fill(email);
    const row = page.locator('[data-testid=user-row]').filter({ hasText: email });
    await expect.poll(() => row.count()).toBe(1);
    await row.locator('[data-testid=user-delete]').click();
    const dialog = page.locator('dialog[open]');
    await dialog.locator('[data-testid=user-delete-confirm]').click();
    const held = dialog.locator('[data-testid=user-delete-held]');
    await held.waitFor();
    expect(await held.textContent()).toContain(lang === 'tr' ? '₺12,50 bakiye' : 'a balance of ₺12,50');
    // the forfeit must be ticked
    await dialog.locator('[data-testid=user-delete-confirm]').click();
    await expect
      .poll(() => dialog.locator('[role=alert]').textContent())
      .toBe(
        lang === 'tr'
          ? 'Bu hesabı silmek için el koyma onayını işaretle.'
          : 'Tick the forfeit confirmation to delete this account.',
      );
    await snap(page, `user-forfeit-${lang}-${device}`);
    await dialog.locator('[data-testid=user-delete-forfeit]').check();
    await dialog.locator('[data-testid=user-delete-confirm]').click();
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    await expect.poll(() => row.count()).toBe(0);
    const gone = await fetch(`${suite.server.url}/api/admin/users/${user._id}`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(gone.status).toBe(404);
    await context.close();
  });
});
