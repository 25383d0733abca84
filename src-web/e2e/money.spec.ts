import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng, type Rgb } from './api';
import { snapWith, text } from './checks';
import { apiRegister, DESKTOP, newPage, PHONE, signedInPage, uiLogin, withServerAndBrowser } from './harness';

const suite = withServerAndBrowser();
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
let adminToken: string;

const USER = { name: 'Deniz Yılmaz', email: 'deniz.money@example.test', password: 'secret123' };
const REJECT_REASON = 'Papara hesabı bu isimle eşleşmiyor';

/** A small real PNG of one colour. */
const png = (rgb: Rgb = [79, 70, 229]) => makePng(16, 16, rgb);

/** The admin creates a task; returns its id. */
const newTask = (title: string, reward: number) =>
  createTask(adminToken, { title, description: `${title}: adımları izleyin.`, reward, maxCompletions: 100 });

/** The user starts the task and sends a PNG proof; returns the submission id. */
const submit = (token: string, taskId: string) => startAndSubmit(token, taskId, png());

function review(submissionId: string, status: 'approved' | 'rejected') {
  return ok(
    'PUT',
    `/submissions/${submissionId}/review`,
    adminToken,
    status === 'approved'
      ? { status, feedback: 'task completed successfully' }
      : { status, feedback: 'Paylaşım görünmüyor', rejectionReason: 'no_share' },
  );
}

/** A browser page signed in with a token, already on /profile. */
async function profilePage(
  token: string,
  lang: 'tr' | 'en',
  size: typeof PHONE | typeof DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await signedInPage(suite.browser, suite.server.url, token, { lang, size });
  await opened.page.goto('/profile');
  await expect.poll(() => opened.page.locator('[data-testid=profile-card]').isVisible()).toBe(true);
  return opened;
}

/** A screenshot from the top; this spec checks the page width itself, where it matters. */
const snap = snapWith({ overflow: false });

/** No element pushes the page sideways (the 390 px check). */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

let userToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  const user = await apiRegister(suite.server.url, USER);
  userToken = user.token;
  // approved (50 TL), rejected, pending (3 TL), and one started last: in progress
  const approved = await newTask('Uygulamayı mağazada değerlendir', 50);
  const rejected = await newTask('Videoyu izle ve yorum yap', 12.25);
  const pending = await newTask('Kısa ankete katıl', 3);
  const started = await newTask('Instagram hesabını takip et', 7.5);
  await review(await submit(userToken, approved), 'approved');
  await review(await submit(userToken, rejected), 'rejected');
  await submit(userToken, pending);
  await ok('POST', `/tasks/${started}/start`, userToken);
});

describe('the profile screen and its money', () => {
  let main: { context: BrowserContext; page: Page };

  it('shows the approved reward, the statistics, the status boxes and the recent activity (tr, desktop)', async () => {
    main = await newPage(suite.browser, suite.server.url, { lang: 'tr', size: DESKTOP });
    const { page } = main;
    await uiLogin(page, USER.email, USER.password);
    await page.waitForURL('**/tasks');
    await page.goto('/profile');
    await expect.poll(() => text(page, '[data-testid=balance-current] dd')).toBe('₺50,00');
    expect(await text(page, '[data-testid=balance-totalEarnings] dd')).toBe('₺50,00');
    expect(await text(page, '[data-testid=balance-pending] dd')).toBe('₺3,00');
    expect(await text(page, '[data-testid=profile-name]')).toBe(USER.name);
    expect(await text(page, '[data-testid=profile-card]')).toContain(USER.email);
    expect(await text(page, '[data-testid=stat-completed] .stat-value')).toBe('1');
    expect(await text(page, '[data-testid=stat-pending] .stat-value')).toBe('1');
    await expect.poll(() => text(page, '[data-testid=stat-week]')).toContain('₺50,00');
    expect(await text(page, '[data-testid=stat-week]')).toContain('1 görev');
    expect(await text(page, '[data-testid=stat-month]')).toContain('₺50,00');
    await expect.poll(() => text(page, '[data-testid=status-inProgress] .status-count')).toBe('1');
    expect(await text(page, '[data-testid=status-waiting] .status-count')).toBe('1');
    expect(await text(page, '[data-testid=status-rejected] .status-count')).toBe('1');
    // each count opens its section of my tasks
    expect(await page.locator('[data-testid=status-inProgress] a').getAttribute('href')).toBe(
      '/my-tasks?section=in_progress',
    );
    // newest first: the task started last, the rejection, the approval (+reward); the pending proof is no event
    const activity = page.locator('[data-testid=activity]');
    await expect.poll(() => activity.count()).toBe(3);
    expect(await activity.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual([
      'task_started',
      'task_rejected',
      'task_completed',
    ]);
    expect(await activity.nth(2).textContent()).toContain('+₺50,00');
    expect(
      await activity.nth(1).getByRole('link', { name: 'Görevi yeniden başlat' }).getAttribute('href'),
    ).toMatch(/^\/tasks\/.+/);
    expect(await activity.nth(0).getByRole('link', { name: 'Kanıtı gönder' }).getAttribute('href')).toMatch(
      /^\/tasks\/.+/,
    );
    expect(await text(page, '.profile-history')).toContain('Henüz para çekme talebinde bulunmadın.');
    await snap(page, 'money-profile-tr-desktop');
  });

  it('checks the withdraw form in the spec order, then takes one request for a double click', async () => {
    const { page } = main;
    await page.locator('[data-testid=withdraw-button]').click();
    const modal = page.locator('dialog.modal[open]');
    await expect.poll(() => modal.isVisible()).toBe(true);
    // the amount field has the spec's attributes and the focus
    const amount = page.locator('#withdraw-amount');
    expect(await amount.getAttribute('min')).toBe('20');
    expect(await amount.getAttribute('max')).toBe('50');
    expect(await amount.getAttribute('step')).toBe('0.01');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('withdraw-amount');
    expect(await page.locator('#withdraw-paymentMethod').inputValue()).toBe('papara');
    expect(await text(page, 'label[for=withdraw-accountNumber]')).toBe('Papara numarası');
    await snap(page, 'money-withdraw-modal-tr-desktop');

    const submit = page.locator('[data-testid=withdraw-submit]');
    const amountError = page.locator('#withdraw-amount-error');
    await submit.click();
    await expect.poll(() => amountError.textContent()).toBe('Geçerli bir tutar gir');
    await amount.fill('5');
    await submit.click();
    await expect.poll(() => amountError.textContent()).toBe('En düşük ödeme tutarı ₺20,00');
    await snap(page, 'money-withdraw-below-minimum-tr-desktop');
    await amount.fill('80');
    await submit.click();
    await expect.poll(() => amountError.textContent()).toBe('Yetersiz bakiye');
    await snap(page, 'money-withdraw-insufficient-tr-desktop');
    await amount.fill('30');
    await submit.click();
    await expect
      .poll(() => page.locator('#withdraw-fullName-error').textContent())
      .toBe('Lütfen hesap bilgilerini eksiksiz doldurun');
    await page.locator('#withdraw-fullName').fill(USER.name);
    await page.locator('#withdraw-paymentMethod').selectOption('iban');
    expect(await text(page, 'label[for=withdraw-accountNumber]')).toBe('IBAN');
    await page.locator('#withdraw-accountNumber').fill('TR12 3456');
    await submit.click();
    await expect
      .poll(() => page.locator('#withdraw-accountNumber-error').textContent())
      .toBe('Geçerli bir TR IBAN gir');
    await page.locator('#withdraw-paymentMethod').selectOption('papara');
    await page.locator('#withdraw-accountNumber').fill('1234567890');
    await submit.dblclick();
    await expect.poll(() => text(page, '.toast')).toContain('Para çekme talebin alındı');
    await expect.poll(() => modal.count()).toBe(0);
    await expect.poll(() => text(page, '[data-testid=balance-current] dd')).toBe('₺20,00');
    await expect.poll(() => page.locator('[data-testid=withdrawal-row]').count()).toBe(1);
    const row = await text(page, '[data-testid=withdrawal-row]');
    expect(row).toContain('₺30,00');
    expect(row).toContain('Papara');
    expect(row).toContain('•••• 7890');
    expect(row).toContain('İnceleniyor');
    const count = suite.server.db().prepare('SELECT COUNT(*) AS n FROM withdrawals').get() as { n: number };
    expect(count.n).toBe(1);
    await snap(page, 'money-withdraw-done-tr-desktop');
  });

  it('shows the rejection reason and the refunded balance after the admin rejects the request', async () => {
    const { page } = main;
    const list = await ok<{ items: { _id: string }[] }>('GET', '/admin/withdraws?status=pending', adminToken);
    expect(list.items).toHaveLength(1);
    await ok('PUT', `/admin/withdraws/${list.items[0]._id}/reject`, adminToken, { reason: REJECT_REASON });
    await page.reload();
    await expect.poll(() => text(page, '[data-testid=balance-current] dd')).toBe('₺50,00');
    await expect.poll(() => text(page, '[data-testid=withdrawal-row]')).toContain('Reddedildi');
    expect(await text(page, '[data-testid=rejection-reason]')).toBe(`Sebep: ${REJECT_REASON}`);
    // a payout shows in the withdrawal history: the activity list tells only what happened to tasks
    expect(await page.locator('[data-testid=activity][data-type=payout]').count()).toBe(0);
    await snap(page, 'money-withdraw-rejected-tr-desktop');
  });

  it("shows a suspended user's withdraw attempt refused by the server", async () => {
    const { page } = main;
    const db = suite.server.db();
    db.prepare("UPDATE users SET status = 'suspended' WHERE email = ?").run(USER.email);
    await page.reload();
    await expect.poll(() => page.locator('[data-testid=suspended-notice]').isVisible()).toBe(true);
    await page.locator('[data-testid=withdraw-button]').click();
    // the account of the earlier withdrawal is remembered: the request goes to it
    await page.locator('[data-testid=saved-account]').waitFor();
    await page.locator('#withdraw-amount').fill('25');
    await page.locator('[data-testid=withdraw-submit]').click();
    await expect
      .poll(() => page.locator('[data-testid=withdraw-failure]').textContent())
      .toBe('Hesabın askıya alındı: erişimin sınırlı');
    await snap(page, 'money-withdraw-suspended-tr-desktop');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog.modal[open]').count()).toBe(0);
    expect(await text(page, '[data-testid=balance-current] dd')).toBe('₺50,00');
    db.prepare("UPDATE users SET status = 'active' WHERE email = ?").run(USER.email);
  });

  it('saves the name, phone, bio and a photo from the edit form', async () => {
    const { page } = main;
    await page.reload();
    const toggle = page.getByRole('button', { name: 'Profili düzenle' });
    await toggle.click();
    expect(await page.locator('#profile-name').inputValue()).toBe(USER.name);
    // a password under 6 characters and a file that is not an image are refused in the browser
    await page.locator('#profile-password').fill('123');
    await page.locator('#profile-photo').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expect
      .poll(() => page.locator('#profile-photo-error').textContent())
      .toBe('Yalnızca görsel dosyaları yükleyebilirsin.');
    await page.getByRole('button', { name: 'Değişiklikleri kaydet' }).click();
    await expect
      .poll(() => page.locator('#profile-password-error').textContent())
      .toBe('Şifre en az 6 karakter olmalı');
    await page.locator('#profile-password').fill('');
    await page.locator('#profile-name').fill('Deniz Yılmaz Kaya');
    await page.locator('#profile-phone').fill('+90 555 123 45 67');
    await page.locator('#profile-bio').fill('Görevleri hafta sonu yapıyorum.');
    await page.locator('#profile-photo').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: png([16, 185, 129]),
    });
    const preview = page.locator('.photo-picker img');
    await expect
      .poll(async () => (await preview.getAttribute('src')) ?? '')
      .toMatch(/^data:image\/png;base64,/);
    await snap(page, 'money-profile-edit-tr-desktop');
    await page.getByRole('button', { name: 'Değişiklikleri kaydet' }).click();
    await expect.poll(() => text(page, '[data-testid=profile-message]')).toBe('Profilin güncellendi.');
    expect(await text(page, '[data-testid=profile-name]')).toBe('Deniz Yılmaz Kaya');
    const card = await text(page, '[data-testid=profile-card]');
    expect(card).toContain('+90 555 123 45 67');
    expect(card).toContain('Görevleri hafta sonu yapıyorum.');
    expect(await page.locator('.profile-head img.avatar').getAttribute('src')).toMatch(
      /^\/api\/files\/images\//,
    );
    // the top bar reads the same cached user
    await expect.poll(() => text(page, '[data-testid=user-menu]')).toContain('Deniz Yılmaz Kaya');
    await snap(page, 'money-profile-saved-tr-desktop');
    const row = suite.server
      .db()
      .prepare('SELECT name, phone, bio, profile_image FROM users WHERE email = ?')
      .get(USER.email) as { name: string; phone: string; bio: string; profile_image: string };
    expect(row).toMatchObject({ name: 'Deniz Yılmaz Kaya', phone: '+90 555 123 45 67' });
    expect(row.profile_image).toMatch(/^\/api\/files\/images\//);
    const img = await fetch(`${suite.server.url}${row.profile_image}`);
    expect(img.headers.get('content-type')).toBe('image/png');
    // the success banner clears after 3 seconds
    await expect.poll(() => page.locator('[data-testid=profile-message]').count(), { timeout: 6000 }).toBe(0);
    await main.context.close();
  });

  it('shows the same screen in English at phone width without sideways scrolling', async () => {
    for (const lang of ['en', 'tr'] as const) {
      const { context, page } = await profilePage(userToken, lang, PHONE);
      await expect
        .poll(() => text(page, '[data-testid=withdrawal-row]'))
        .toContain(lang === 'en' ? 'Rejected' : 'Reddedildi');
      expect(await text(page, '[data-testid=rejection-reason]')).toBe(
        `${lang === 'en' ? 'Reason' : 'Sebep'}: ${REJECT_REASON}`,
      );
      // one date format per language
      expect(await text(page, '.profile-head p')).toMatch(
        lang === 'en'
          ? /^Joined on \d{1,2} [A-Z][a-z]{2,3} \d{4}$/
          : /^Katılım tarihi: \d{1,2} \p{L}{3} \d{4}$/u,
      );
      expect(await text(page, '[data-testid=balance-current] dt')).toBe(
        lang === 'en' ? 'Current balance' : 'Mevcut bakiye',
      );
      await expect.poll(() => page.locator('[data-testid=activity]').count()).toBe(3);
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, `money-profile-${lang}-phone`);
      await page.locator('[data-testid=withdraw-button]').click();
      // a saved account is offered first; the typed fields are one click away
      await page.locator('[data-testid=saved-account-change]').click();
      await page.locator('#withdraw-paymentMethod').selectOption('iban');
      expect(await text(page, 'label[for=withdraw-accountNumber]')).toBe('IBAN');
      await page.locator('#withdraw-amount').fill('19.99');
      await page.locator('[data-testid=withdraw-submit]').click();
      await expect
        .poll(() => page.locator('#withdraw-amount-error').textContent())
        .toBe(lang === 'en' ? 'The minimum payout amount is ₺20,00' : 'En düşük ödeme tutarı ₺20,00');
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, `money-withdraw-modal-${lang}-phone`);
      await context.close();
    }
    const desk = await profilePage(userToken, 'en', DESKTOP);
    await expect.poll(() => text(desk.page, '[data-testid=withdrawal-row]')).toContain('Rejected');
    await expect.poll(() => text(desk.page, '[data-testid=stat-week]')).toContain('1 task');
    await snap(desk.page, 'money-profile-en-desktop');
    await desk.context.close();
  });

  it('disables the withdraw button below the minimum and shows the minimum and the balance', async () => {
    const fresh = await apiRegister(suite.server.url, {
      name: 'ayşe Boş',
      email: 'empty.money@example.test',
      password: 'secret123',
    });
    for (const [lang, size, label] of [
      ['en', DESKTOP, 'desktop'],
      ['tr', PHONE, 'phone'],
    ] as const) {
      const { context, page } = await profilePage(fresh.token, lang, size);
      expect(await page.locator('[data-testid=withdraw-button]').isDisabled()).toBe(true);
      expect(await text(page, '[data-testid=below-minimum]')).toBe(
        lang === 'en'
          ? 'The minimum payout is ₺20,00. Your current balance is ₺0,00.'
          : 'En düşük ödeme tutarı ₺20,00. Mevcut bakiyeniz ₺0,00.',
      );
      // the avatar falls back to the first letter of the name
      expect(await text(page, '.profile-head .avatar-initial')).toBe('A');
      await expect.poll(() => page.locator('.profile-activity p.muted').count()).toBe(1);
      expect(await pageWidth(page)).toBeLessThanOrEqual(size.width);
      await snap(page, `money-profile-empty-${lang}-${label}`);
      await context.close();
    }
  });

  it('pages the withdrawal history five at a time', async () => {
    const pager = await apiRegister(suite.server.url, {
      name: 'Sayfa Kullanıcısı',
      email: 'pager.money@example.test',
      password: 'secret123',
    });
    const task = await newTask('Büyük ödüllü görev', 200);
    await review(await submit(pager.token, task), 'approved');
    for (let i = 0; i < 7; i++) {
      await fetch(`${suite.server.url}/api/withdraws`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${pager.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          amount: 20 + i,
          paymentMethod: 'iban',
          accountDetails: { fullName: 'Sayfa Kullanıcısı', accountNumber: 'TR330006100519786457841326' },
        }),
      });
    }
    const { context, page } = await profilePage(pager.token, 'tr', DESKTOP);
    const rows = page.locator('[data-testid=withdrawal-row]');
    await expect.poll(() => rows.count()).toBe(5);
    // newest first: 26, 25, ... on page 1; 21 and 20 on page 2
    expect(await rows.first().textContent()).toContain('₺26,00');
    expect(await rows.first().textContent()).toContain('IBAN');
    const pager2 = page.locator('.profile-history .pagination');
    await pager2.getByRole('button', { name: 'Sayfa 2' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.last().textContent()).toContain('₺20,00');
    await snap(page, 'money-history-page-2-tr-desktop');
    await pager2.getByRole('button', { name: 'Önceki' }).click();
    await expect.poll(() => rows.count()).toBe(5);
    // 200 - (20 + ... + 26) = 200 - 161
    expect(await text(page, '[data-testid=balance-current] dd')).toBe('₺39,00');
    await context.close();
  });
});
