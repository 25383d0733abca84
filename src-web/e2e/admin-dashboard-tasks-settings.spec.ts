import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushRecorder, startPushRecorder } from '../../src-server/features/notifications/push-recorder';
import { apiClient, apiLogin, makePng } from './api';
import { snapWith, text } from './checks';
import {
  apiRegister,
  COMBOS,
  DESKTOP,
  type Lang,
  newPage,
  PHONE,
  shot,
  signedInPage,
  startServer,
  withServerAndBrowser,
} from './harness';

type Size = typeof PHONE | typeof DESKTOP;

const FOLLOW_TITLE = 'Instagram hesabımızı takip et';
const NEW_TITLE = 'Uygulamamızı mağazada değerlendir';
const EDITED_TITLE = 'Uygulamamızı mağazada değerlendir ve yorum yaz';

let recorder: PushRecorder;
// the push service's stand-in starts first: the server is told its address
beforeAll(async () => {
  recorder = await startPushRecorder();
});
afterAll(async () => {
  await recorder?.close();
});
const suite = withServerAndBrowser(() => ({
  ONESIGNAL_APP_ID: 'app-admin-site',
  ONESIGNAL_API_KEY: 'key-admin-site',
  ONESIGNAL_BASE_URL: recorder.url,
}));
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
let adminToken: string;
let followTaskId = '';
let newTaskId = '';
const people = {
  ayse: { name: 'Ayşe Demir', email: 'ayse@example.test', password: 'secret123', token: '', id: '' },
  mehmet: { name: 'Mehmet Kaya', email: 'mehmet@example.test', password: 'secret123', token: '', id: '' },
  zeynep: { name: 'Zeynep Şahin', email: 'zeynep@example.test', password: 'secret123', token: '', id: '' },
};

/** A small real PNG of one colour. */
const png = () => makePng(48, 48, [79, 70, 229]);

/** A fresh page signed in as the admin, on the given path. */
async function adminPage(
  lang: Lang,
  size: Size,
  path: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await signedInPage(suite.browser, suite.server.url, adminToken, { lang, size });
  await opened.page.goto(path);
  return opened;
}

// a locale key shown instead of its text ("taskForm.fields.title")
const RAW_KEY = /\b(menu|notify|dashboard|tasks|taskForm|settings|statuses|methods|errors|common)\.[a-zA-Z]+/;

/** A screenshot from the top, after checking that nothing sticks out sideways and no key shows raw. */
const snap = snapWith({ rawKeys: RAW_KEY });

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);

  followTaskId = await createTask(adminToken, {
    title: FOLLOW_TITLE,
    description: 'Hesabımızı takip edin ve ekran görüntüsü alın.',
    reward: 30,
    maxCompletions: 100,
    category: 'social_media',
  });
  for (const person of Object.values(people)) {
    const { token, id } = await apiRegister(suite.server.url, person);
    person.token = token;
    person.id = id;
  }
  const subs: Record<string, string> = {};
  for (const [key, person] of Object.entries(people))
    subs[key] = await startAndSubmit(person.token, followTaskId, png());
  for (const key of ['ayse', 'mehmet']) {
    await ok('PUT', `/submissions/${subs[key]}/review`, adminToken, {
      status: 'approved',
      feedback: 'task completed successfully',
    });
  }
  await ok('POST', '/withdraws', people.ayse.token, {
    amount: 25,
    paymentMethod: 'papara',
    accountDetails: { fullName: 'Ayşe Demir', accountNumber: '1234567890' },
  });
  await ok('POST', '/withdraws', people.mehmet.token, {
    amount: 22.5,
    paymentMethod: 'papara',
    accountDetails: { fullName: 'Mehmet Kaya', accountNumber: '0987654321' },
  });
});

describe('the dashboard, the tasks, the settings and push notifications, in a real browser', () => {
  it('shows the dashboard with totals, today, pending withdrawals and recent submissions', async () => {
    const label = {
      tr: { title: 'Gösterge paneli', growth: 'Son 30 günde', today: 'Bugünkü etkinlik' },
      en: { title: 'Dashboard', growth: 'in the last 30 days', today: "Today's activity" },
    };
    for (const [lang, size, dims] of COMBOS) {
      const { context, page, errors } = await adminPage(lang, dims, '/admin');
      await expect.poll(() => page.locator('[data-testid=stat-cards]').isVisible()).toBe(true);
      expect(await text(page, '[data-testid=admin-title]')).toBe(label[lang].title);
      expect(await text(page, '[data-testid=stat-totalUsers] .admin-stat-value')).toBe('4');
      expect(await text(page, '[data-testid=stat-totalTasks] .admin-stat-value')).toBe('1');
      expect(await text(page, '[data-testid=stat-pendingSubmissions] .admin-stat-value')).toBe('1');
      expect(await text(page, '[data-testid=stat-totalRewards] .admin-stat-value')).toBe('₺60,00');
      expect(await text(page, '[data-testid=stat-totalUsers] .admin-stat-growth')).toContain(
        label[lang].growth,
      );
      expect(await text(page, '#today-title')).toBe(label[lang].today);
      expect(await text(page, '[data-testid=todaySubmissions] dd')).toBe('3');
      expect(await text(page, '[data-testid=todayApproved] dd')).toBe('2');
      expect(await page.locator('[data-testid=pending-withdrawals] tbody tr').count()).toBe(2);
      expect(await page.locator('[data-testid=recent-submissions] tbody tr').count()).toBe(3);
      expect(await page.locator('a[href="/admin/withdrawals"]').count()).toBeGreaterThan(0);
      expect(await page.locator('a[href="/admin/submissions"]').count()).toBeGreaterThan(0);
      await snap(page, `admin-site-dashboard-${lang}-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('opens the menu as a drawer at phone width and shows the side menu on a desktop', async () => {
    const phone = await adminPage('tr', PHONE, '/admin');
    const { page } = phone;
    expect(await page.locator('.admin-side').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menüyü aç' }).click();
    await expect.poll(() => page.locator('[data-testid=admin-drawer]').isVisible()).toBe(true);
    // the slide-in animation has ended
    await page
      .locator('[data-testid=admin-drawer]')
      .evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    await snap(page, 'admin-site-drawer-tr-phone');
    await page.locator('[data-testid=admin-drawer]').getByRole('link', { name: 'Ayarlar' }).click();
    await page.waitForURL('**/admin/settings');
    await expect.poll(() => page.locator('[data-testid=admin-drawer]').isVisible()).toBe(false);
    // Escape closes it too
    await page.getByRole('button', { name: 'Menüyü aç' }).click();
    await expect.poll(() => page.locator('[data-testid=admin-drawer]').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid=admin-drawer]').isVisible()).toBe(false);
    await phone.context.close();

    const desktop = await adminPage('en', DESKTOP, '/admin');
    await expect.poll(() => desktop.page.locator('.admin-side').isVisible()).toBe(true);
    expect(await desktop.page.locator('.admin-menu-button').isVisible()).toBe(false);
    await desktop.page.locator('.admin-side').getByRole('link', { name: 'Tasks' }).click();
    await desktop.page.waitForURL('**/admin/tasks');
    // the menu marks the page after the route has rendered, a moment after the URL changes
    await expect.poll(() => desktop.page.locator('.admin-side a.active').textContent()).toBe('Tasks');
    await desktop.context.close();
  });

  it('approves one pending withdrawal and rejects another with a reason from the dashboard', async () => {
    // the dashboard's decisions go through the same client as the withdrawals page's: keyed
    const decisions: { action: string; key: string | undefined }[] = [];
    const recordDecisions = (page: Page) =>
      page.on('request', (request) => {
        const action = /\/api\/admin\/withdraws\/[^/]+\/(approve|reject)$/.exec(request.url())?.[1];
        if (action) decisions.push({ action, key: request.headers()['idempotency-key'] });
      });
    const en = await adminPage('en', DESKTOP, '/admin');
    recordDecisions(en.page);
    const rows = en.page.locator('[data-testid=pending-withdrawals] tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.filter({ hasText: people.ayse.name }).getByRole('button', { name: 'Approve' }).click();
    // a payout is confirmed first, with what will be paid to whom
    const approval = en.page.getByRole('dialog', { name: 'Approve this withdrawal?' });
    await expect.poll(() => approval.isVisible()).toBe(true);
    expect(await text(en.page, '[data-testid=approve-summary]')).toContain(people.ayse.name);
    await snap(en.page, 'admin-site-dashboard-approve-confirm-en-desktop');
    await approval.locator('[data-testid=confirm-approve]').click();
    await expect.poll(() => text(en.page, '.toast-success span')).toBe('The withdrawal was approved.');
    await expect.poll(() => rows.count()).toBe(1);
    await en.context.close();

    const tr = await adminPage('tr', PHONE, '/admin');
    recordDecisions(tr.page);
    const trRows = tr.page.locator('[data-testid=pending-withdrawals] tbody tr');
    await expect.poll(() => trRows.count()).toBe(1);
    await trRows.getByRole('button', { name: 'Reddet' }).click();
    const dialog = tr.page.getByRole('dialog', { name: 'Para çekme talebini reddet' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const confirm = dialog.locator('button[type=submit]');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('textarea').fill('   ');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('textarea').fill('IBAN bilgisi hesap sahibiyle eşleşmiyor');
    expect(await confirm.isDisabled()).toBe(false);
    await snap(tr.page, 'admin-site-reject-withdrawal-tr-phone');
    await confirm.click();
    await expect
      .poll(() => text(tr.page, '.toast-success span'))
      .toBe('Para çekme talebi reddedildi ve tutar iade edildi.');
    await expect.poll(() => tr.page.locator('[data-testid=no-pending-withdrawals]').isVisible()).toBe(true);
    expect(await tr.page.locator('[data-testid=pending-withdrawals]').count()).toBe(0);
    await snap(tr.page, 'admin-site-dashboard-settled-tr-phone');
    // each decision carried an Idempotency-Key of its own
    expect(decisions.map((d) => d.action)).toEqual(['approve', 'reject']);
    for (const d of decisions) expect(d.key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(decisions[0].key).not.toBe(decisions[1].key);
    // the withdrawals page shows it rejected, with the reason
    await tr.page.locator('[aria-labelledby=pending-withdrawals-title] a[href="/admin/withdrawals"]').click();
    await tr.page.waitForURL('**/admin/withdrawals');
    const mehmetRow = tr.page.locator('[data-testid=withdrawal-row]').filter({ hasText: people.mehmet.name });
    await expect.poll(() => mehmetRow.getAttribute('data-status')).toBe('rejected');
    expect(await mehmetRow.locator('[data-testid=withdrawal-note]').textContent()).toBe(
      'IBAN bilgisi hesap sahibiyle eşleşmiyor',
    );
    await tr.context.close();

    const list = await ok<{
      items: { user: { _id: string }; status: string; rejectionReason: string | null }[];
    }>('GET', '/admin/withdraws', adminToken);
    const byUser = new Map(list.items.map((w) => [w.user._id, w]));
    expect(byUser.get(people.ayse.id)?.status).toBe('approved');
    expect(byUser.get(people.mehmet.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'IBAN bilgisi hesap sahibiyle eşleşmiyor',
    });
    // the rejected amount went back to Mehmet's balance
    expect((await ok<{ balance: number }>('GET', '/users/me', people.mehmet.token)).balance).toBe(30);
  });

  it('checks the task form in order and creates a task, announcing removed duplicate comment lines', async () => {
    const en = await adminPage('en', PHONE, '/admin/tasks/new');
    const { page } = en;
    await expect.poll(() => page.locator('[data-testid=task-form]').isVisible()).toBe(true);
    expect(await page.locator('#category').inputValue()).toBe('social_media');
    expect(await page.locator('#difficulty').inputValue()).toBe('easy');
    expect(await page.locator('#requiredProof').inputValue()).toBe('screenshot');
    expect(await page.locator('#description').getAttribute('rows')).toBe('8');
    await page.locator('#taskLink').fill('www.example.com');
    await page.locator('[data-testid=task-form] button[type=submit]').click();
    await expect.poll(() => text(page, '#title-error')).toBe('Title is required');
    expect(await text(page, '#description-error')).toBe('Description is required');
    expect(await text(page, '#reward-error')).toBe('Reward is required');
    expect(await text(page, '#taskLink-error')).toBe('The task link must start with http:// or https://');
    // the first failing field has the focus
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('title');
    await snap(page, 'admin-site-task-form-errors-en-phone');
    await en.context.close();

    const tr = await adminPage('tr', DESKTOP, '/admin/tasks/new');
    const form = tr.page;
    await expect.poll(() => form.locator('[data-testid=task-form]').isVisible()).toBe(true);
    await form.locator('#title').fill(NEW_TITLE);
    await form.locator('#category').selectOption('review');
    await form
      .locator('#description')
      .fill('Uygulamayı indirin.\nMağazada beş yıldız verin ve kısa bir yorum yazın.');
    await form
      .locator('#automaticComments')
      .fill(
        'Harika bir uygulama\nHarika bir uygulama\n\nÇok beğendim, tavsiye ederim\n  Çok beğendim, tavsiye ederim  \nKullanımı çok kolay',
      );
    await expect
      .poll(() => text(form, '[data-testid=comments-hint]'))
      .toContain('3 tekrarlanan veya boş satır kaldırılacak.');
    await form.locator('#reward').fill('0');
    await form.locator('[data-testid=task-form] button[type=submit]').click();
    await expect
      .poll(() => text(form, '#reward-error'))
      .toBe('Ödül en az 0,01 olmalı ve en fazla iki ondalık basamak içermelidir');
    await form.locator('#reward').fill('15.5');
    await form.locator('#maxCompletions').fill('50');
    await form.locator('#deadline').fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    await form.locator('#difficulty').selectOption('medium');
    await form.locator('#requiredProof').selectOption('link');
    await form.locator('#taskLink').fill('https://example.com/uygulama');
    await snap(form, 'admin-site-task-form-new-tr-desktop');
    await form.locator('[data-testid=task-form] button[type=submit]').click();
    await form.waitForURL('**/admin/tasks');
    await expect
      .poll(() => form.locator('.toast span').allTextContents())
      .toContain('3 tekrarlanan veya boş satır kaldırıldı');
    const row = form.locator('[data-testid=admin-task-row]').filter({ hasText: NEW_TITLE });
    await expect.poll(() => row.count()).toBe(1);
    newTaskId = (await row.getAttribute('data-id')) ?? '';
    await snap(form, 'admin-site-tasks-after-create-tr-desktop');
    // the notice goes away after 3 seconds
    await expect
      .poll(() => form.locator('.toast', { hasText: 'tekrarlanan' }).count(), { timeout: 6000 })
      .toBe(0);
    await tr.context.close();

    const task = await ok<{
      automaticComments: string[];
      reward: number;
      deadline: string | null;
      category: string;
    }>('GET', `/tasks/${newTaskId}`, adminToken);
    expect(task.automaticComments).toEqual([
      'Harika bir uygulama',
      'Çok beğendim, tavsiye ederim',
      'Kullanımı çok kolay',
    ]);
    expect(task).toMatchObject({ reward: 15.5, category: 'review' });
    expect(task.deadline).not.toBeNull();
  });

  it('edits the task, listing its comments as used or available with the counts', async () => {
    // a user starts the task and is given one of the three comments
    await ok('POST', `/tasks/${newTaskId}/start`, people.zeynep.token);
    for (const [lang, size, dims] of [COMBOS[1], COMBOS[2]] as const) {
      const { context, page } = await adminPage(lang, dims, `/admin/tasks/edit/${newTaskId}`);
      await expect.poll(() => page.locator('[data-testid=comment-pool]').isVisible()).toBe(true);
      expect(await text(page, '[data-testid=pool-total]')).toBe('3');
      expect(await text(page, '[data-testid=pool-used]')).toBe('1');
      expect(await text(page, '[data-testid=pool-remaining]')).toBe('2');
      const used = page.locator('[data-testid=pool-comment].is-used');
      expect(await used.count()).toBe(1);
      expect(await used.locator('.badge').textContent()).toBe(lang === 'tr' ? 'Kullanıldı' : 'Used');
      expect(await page.locator('#title').inputValue()).toBe(NEW_TITLE);
      expect(await page.locator('#reward').inputValue()).toBe('15.5');
      await snap(page, `admin-site-task-edit-${lang}-${size}`);
      await context.close();
    }

    const { context, page } = await adminPage('en', DESKTOP, `/admin/tasks/edit/${newTaskId}`);
    await expect.poll(() => page.locator('#title').inputValue()).toBe(NEW_TITLE);
    await page.locator('#title').fill(EDITED_TITLE);
    await page.locator('#reward').fill('17.25');
    await page.locator('#status').selectOption('inactive');
    await page.locator('[data-testid=task-form] button[type=submit]').click();
    await page.waitForURL('**/admin/tasks');
    await expect.poll(() => text(page, '.toast-success span')).toBe(`“${EDITED_TITLE}” was saved.`);
    const row = page.locator('[data-testid=admin-task-row]').filter({ hasText: EDITED_TITLE });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('.badge-inactive').textContent()).toBe('Inactive');
    await context.close();
    const task = await ok<{ reward: number; usedComments: string[]; commentStats: { used: number } }>(
      'GET',
      `/tasks/${newTaskId}`,
      adminToken,
    );
    expect(task.reward).toBe(17.25);
    // made inactive, the task ended zeynep's record in progress and took its comment back
    expect(task.commentStats.used).toBe(0);
  });

  it('shows the task-not-found message with the id and a way back to the list', async () => {
    for (const [lang, size, dims] of [COMBOS[0], COMBOS[3]] as const) {
      const { context, page } = await adminPage(lang, dims, '/admin/tasks/edit/no-such-task');
      await expect.poll(() => page.locator('[data-testid=task-not-found]').isVisible()).toBe(true);
      expect(await text(page, '[data-testid=task-not-found] h2')).toBe(
        lang === 'tr' ? "Bu ID'ye sahip görev bulunamadı." : 'Task with this ID was not found.',
      );
      expect(await text(page, '[data-testid=task-not-found] .mono')).toBe('ID: no-such-task');
      await snap(page, `admin-site-task-not-found-${lang}-${size}`);
      await page.locator('[data-testid=task-not-found] a').click();
      await page.waitForURL('**/admin/tasks');
      await context.close();
    }
  });

  it('searches, filters, features a task with the star and deletes one after confirming', async () => {
    await ok('POST', '/tasks', adminToken, {
      title: 'Silinecek eski görev',
      description: 'Artık gerekli değil.',
      reward: 1,
      maxCompletions: 5,
      status: 'inactive',
    });
    for (let i = 1; i <= 10; i++) {
      await ok('POST', '/tasks', adminToken, {
        title: `Anket ${i}`,
        description: 'Kısa anket.',
        reward: 2 + i,
        maxCompletions: 10,
        category: 'survey',
      });
    }
    const { context, page } = await adminPage('en', DESKTOP, '/admin/tasks');
    const rows = page.locator('[data-testid=admin-task-row]');
    await expect.poll(() => text(page, '[data-testid=task-total]')).toBe('13 tasks');
    expect(await rows.count()).toBe(10);
    expect(await page.locator('.pagination [aria-current=page]').textContent()).toBe('1');
    await page.locator('.pagination').getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(page.url()).toContain('page=2');
    await snap(page, 'admin-site-tasks-page2-en-desktop');

    // the featured star
    await page.locator('#admin-task-search').fill('Instagram');
    await expect.poll(() => rows.count()).toBe(1);
    expect(page.url()).toContain('q=Instagram');
    const star = rows.first().locator('[data-testid=feature-toggle]');
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    expect((await ok<{ isFeatured: boolean }>('GET', `/tasks/${followTaskId}`, adminToken)).isFeatured).toBe(
      true,
    );
    // confirmed with a toast, and the focus stays on the star of the task that moved
    await expect.poll(() => text(page, '.toast-success span')).toContain('is featured');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-task-id')))
      .toBe(followTaskId);
    expect(await text(page, '[data-testid=completions]')).toBe('2 / 100');

    // a category named in the other language, and the status filter
    await page.locator('#admin-task-search').fill('Anket');
    await expect.poll(() => text(page, '[data-testid=task-total]')).toBe('10 tasks');
    await page.locator('#admin-task-search').fill('');
    await page.locator('#admin-task-status').selectOption('inactive');
    await expect.poll(() => text(page, '[data-testid=task-total]')).toBe('2 tasks');

    // delete, after a cancelled first try
    const doomed = rows.filter({ hasText: 'Silinecek eski görev' });
    await doomed.getByRole('button', { name: 'Delete “Silinecek eski görev”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete task' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await doomed.count()).toBe(1);
    await doomed.getByRole('button', { name: 'Delete “Silinecek eski görev”' }).click();
    await snap(page, 'admin-site-task-delete-en-desktop');
    await dialog.locator('[data-testid=confirm-delete]').click();
    // the star's toast may still be shown above it
    await expect
      .poll(() => page.locator('.toast-success span').allTextContents())
      .toContain('“Silinecek eski görev” was deleted.');
    await expect.poll(() => text(page, '[data-testid=task-total]')).toBe('1 task');
    await context.close();

    for (const [lang, size, dims] of COMBOS) {
      const opened = await adminPage(lang, dims, '/admin/tasks');
      await expect.poll(() => opened.page.locator('[data-testid=admin-task-row]').count()).toBe(10);
      // the featured task is pinned first
      expect(await opened.page.locator('[data-testid=admin-task-row] .star-toggle.is-on').count()).toBe(1);
      expect(await text(opened.page, '[data-testid=admin-task-row] .cell-title a')).toBe(FOLLOW_TITLE);
      await snap(opened.page, `admin-site-tasks-${lang}-${size}`);
      await opened.context.close();
    }
  });

  it('changes each settings tab, and the public footer and top bar follow', async () => {
    const tr = await adminPage('tr', DESKTOP, '/admin/settings');
    const { page } = tr;
    await expect.poll(() => page.locator('#settings-name').inputValue()).toBe('TaskReward');
    await page.locator('#settings-name').fill(' ');
    await page.locator('[data-testid=general-save]').click();
    await expect.poll(() => text(page, '#settings-name-error')).toBe('Site adı zorunludur');
    await page.locator('#settings-name').fill('GörevKazan');
    await page.locator('#settings-descriptionTr').fill('Görev yap, kanıtını yükle, TL kazan.');
    await page.locator('#settings-descriptionEn').fill('Do tasks, upload proof, earn lira.');
    await page.locator('[data-testid=general-save]').click();
    await expect.poll(() => text(page, '[data-testid=settings-success]')).toBe('Ayarlar kaydedildi.');
    // logo and favicon, with a preview before the upload
    const logo = page.locator('[data-testid=upload-logo]');
    await logo
      .locator('input[type=file]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png() });
    await expect.poll(() => logo.locator('img').getAttribute('src')).toMatch(/^blob:/);
    await logo.getByRole('button', { name: 'Yükle' }).click();
    await expect
      .poll(() => text(page, '[data-testid=upload-logo] .notice-success'))
      .toBe('Logo güncellendi.');
    const favicon = page.locator('[data-testid=upload-favicon]');
    await favicon
      .locator('input[type=file]')
      .setInputFiles({ name: 'fav.png', mimeType: 'image/png', buffer: png() });
    await favicon.getByRole('button', { name: 'Yükle' }).click();
    await expect
      .poll(() => text(page, '[data-testid=upload-favicon] .notice-success'))
      .toBe('Favicon güncellendi.');
    await snap(page, 'admin-site-settings-general-tr-desktop');
    // the success banner clears itself after 3 seconds
    await expect
      .poll(() => page.locator('[data-testid=settings-success]').count(), { timeout: 6000 })
      .toBe(0);

    await page.getByRole('tab', { name: 'İletişim' }).click();
    await expect.poll(() => page.locator('#settings-email').inputValue()).toBe('destek@taskreward.app');
    await page.locator('#settings-email').fill('iletisim@gorevkazan.test');
    await page.locator('#settings-phone').fill('+90 212 555 00 11');
    await page.locator('#settings-address').fill('Kadıköy, İstanbul');
    await page.locator('#settings-instagram').fill('instagram.com/gorevkazan');
    await page.locator('[data-testid=contact-save]').click();
    await expect
      .poll(() => text(page, '#settings-instagram-error'))
      .toBe('Bağlantılar http:// veya https:// ile başlamalıdır');
    await page.locator('#settings-instagram').fill('https://instagram.com/gorevkazan');
    await page.locator('#settings-linkedin').fill('');
    await page.locator('[data-testid=contact-save]').click();
    await expect.poll(() => text(page, '[data-testid=settings-success]')).toBe('Ayarlar kaydedildi.');
    await snap(page, 'admin-site-settings-contact-tr-desktop');

    await page.getByRole('tab', { name: 'Ödeme' }).click();
    const payout = page.locator('#settings-minimumPayout');
    await expect.poll(() => payout.inputValue()).toBe('20');
    expect(await payout.getAttribute('step')).toBe('5');
    expect(await payout.getAttribute('min')).toBe('0');
    await payout.fill('50');
    await page.getByRole('checkbox', { name: 'IBAN' }).uncheck();
    await page.locator('[data-testid=payment-save]').click();
    await expect.poll(() => text(page, '[data-testid=settings-success]')).toBe('Ayarlar kaydedildi.');
    await tr.context.close();

    const settings = await ok<{
      site: { name: string; logo: string | null; favicon: string | null };
      contact: { email: string };
      socialMedia: { linkedin: string; instagram: string };
      payment: { minimumPayout: number; methods: string[]; requireVerifiedEmail: boolean };
    }>('GET', '/settings', null);
    expect(settings.site.name).toBe('GörevKazan');
    expect(settings.site.logo).toMatch(/^\/api\/files\/images\//);
    expect(settings.site.favicon).toMatch(/^\/api\/files\/images\//);
    expect(settings.contact.email).toBe('iletisim@gorevkazan.test');
    expect(settings.socialMedia).toMatchObject({
      instagram: 'https://instagram.com/gorevkazan',
      linkedin: '',
    });
    expect(settings.payment).toEqual({ minimumPayout: 50, methods: ['papara'], requireVerifiedEmail: false });

    for (const [lang, size, dims] of COMBOS) {
      const opened = await adminPage(lang, dims, '/admin/settings');
      await expect.poll(() => opened.page.locator('#settings-name').inputValue()).toBe('GörevKazan');
      await snap(opened.page, `admin-site-settings-general-${lang}-${size}`);
      await opened.page.getByRole('tab', { name: lang === 'tr' ? 'İletişim' : 'Contact' }).click();
      await expect.poll(() => opened.page.locator('#settings-email').isVisible()).toBe(true);
      await snap(opened.page, `admin-site-settings-contact-${lang}-${size}`);
      // the arrow key moves to the next tab
      await opened.page.keyboard.press('ArrowRight');
      await expect.poll(() => opened.page.locator('#settings-minimumPayout').isVisible()).toBe(true);
      expect(opened.page.url()).toContain('tab=payment');
      await snap(opened.page, `admin-site-settings-payment-${lang}-${size}`);

      // the public site: footer texts in this language, contact and social links, the new logo
      await opened.page.goto('/tasks');
      const footer = opened.page.locator('.footer');
      await expect.poll(() => footer.textContent()).toContain('GörevKazan');
      const footerText = (await footer.textContent()) ?? '';
      expect(footerText).toContain(
        lang === 'tr' ? 'Görev yap, kanıtını yükle, TL kazan.' : 'Do tasks, upload proof, earn lira.',
      );
      expect(footerText).toContain('iletisim@gorevkazan.test');
      expect(footerText).toContain('Kadıköy, İstanbul');
      expect(await footer.locator('a[href="https://instagram.com/gorevkazan"]').count()).toBe(1);
      expect(await footer.locator('a', { hasText: 'LinkedIn' }).count()).toBe(0);
      expect(await opened.page.locator('.topbar .brand img').getAttribute('src')).toBe(settings.site.logo);
      // the tab shows the page and the site's name, and its uploaded favicon
      await expect
        .poll(() => opened.page.title())
        .toBe(`${lang === 'tr' ? 'Görevler' : 'Tasks'} · GörevKazan`);
      expect(await opened.page.locator('link[rel="icon"]').getAttribute('href')).toBe(settings.site.favicon);
      if (size === 'desktop') await shot(opened.page, `admin-site-public-footer-${lang}-${size}`);
      await opened.context.close();
    }
  });

  it('sends a custom notification to all after confirming, and a fixed one to a player id', async () => {
    const before = recorder.requests.length;
    const en = await adminPage('en', DESKTOP, '/admin');
    const { page } = en;
    await page.locator('[data-testid=open-notify]').click();
    const dialog = page.getByRole('dialog', { name: 'Send notification' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => text(page, '.modal .field-error')).toBe('Choose a notification type');
    await dialog.getByLabel('Notification type').selectOption('customMessage');
    expect(await dialog.getByLabel('Title').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => text(page, '.modal .field-error')).toBe('Enter a notification title');
    await dialog.getByLabel('Title').fill('Yeni görevler eklendi');
    await dialog.getByLabel('Message').fill('Bugün 10 yeni anket görevi var.');
    await dialog.getByLabel('All users').check();
    expect(await dialog.getByLabel("User's device id", { exact: true }).count()).toBe(0);
    await snap(page, 'admin-site-notify-custom-en-desktop');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => dialog.getByRole('button', { name: 'Yes, send to all' }).isVisible()).toBe(true);
    expect(recorder.requests.length).toBe(before);
    await snap(page, 'admin-site-notify-confirm-en-desktop');
    await dialog.getByRole('button', { name: 'Yes, send to all' }).click();
    await expect
      .poll(() => text(page, '[data-testid=notify-sent]'))
      .toBe('The notification was sent to all users.');
    await expect.poll(() => dialog.isVisible(), { timeout: 5000 }).toBe(false);
    await en.context.close();
    const all = recorder.requests.slice(before);
    expect(all).toHaveLength(1);
    expect(all[0]?.body).toMatchObject({
      app_id: 'app-admin-site',
      included_segments: ['Total Subscriptions'],
      headings: { en: 'Yeni görevler eklendi', tr: 'Yeni görevler eklendi' },
      contents: { en: 'Bugün 10 yeni anket görevi var.' },
      data: { type: 'customMessage' },
    });

    const tr = await adminPage('tr', PHONE, '/admin');
    const trDialog = tr.page.getByRole('dialog', { name: 'Bildirim gönder' });
    await tr.page.getByRole('button', { name: 'Menüyü aç' }).click();
    await tr.page
      .locator('[data-testid=admin-drawer]')
      .getByRole('button', { name: 'Bildirim gönder' })
      .click();
    await expect.poll(() => trDialog.isVisible()).toBe(true);
    await trDialog.getByLabel('Bildirim türü').selectOption('newTask');
    expect(await trDialog.getByLabel('Başlık').count()).toBe(0);
    await trDialog.getByRole('button', { name: 'Gönder' }).click();
    await expect
      .poll(() => text(tr.page, '.modal .field-error'))
      .toBe('Tek bir kullanıcıya bildirim için kullanıcının cihaz kimliği gereklidir');
    await trDialog.getByLabel('Kullanıcının cihaz kimliği').fill('player-abc-123');
    // a refusing push service first: the failure shows translated and the dialog stays
    recorder.reply({ status: 400, body: JSON.stringify({ errors: ['invalid player'] }) });
    await trDialog.getByRole('button', { name: 'Gönder' }).click();
    await expect
      .poll(() => text(tr.page, '.modal .notice-error'))
      .toBe('Bildirim servisi bildirimi reddetti');
    await snap(tr.page, 'admin-site-notify-failed-tr-phone');
    recorder.reply({ status: 200, body: JSON.stringify({ id: 'notification-2' }) });
    const sentBefore = recorder.requests.length;
    await trDialog.getByRole('button', { name: 'Gönder' }).click();
    await expect.poll(() => text(tr.page, '[data-testid=notify-sent]')).toBe('Bildirim gönderildi.');
    await snap(tr.page, 'admin-site-notify-sent-tr-phone');
    await expect.poll(() => trDialog.isVisible(), { timeout: 5000 }).toBe(false);
    await tr.context.close();
    const one = recorder.requests.slice(sentBefore);
    expect(one).toHaveLength(1);
    expect(one[0]?.body).toMatchObject({
      include_subscription_ids: ['player-abc-123'],
      data: { type: 'newTask' },
    });
  });

  it('says push is not configured as soon as the dialog opens', async () => {
    const bare = await startServer();
    try {
      const token = await apiLogin(bare.url);
      const { context, page } = await newPage(suite.browser, bare.url, { lang: 'en', size: PHONE });
      await page.goto('/');
      await page.evaluate((t) => localStorage.setItem('token', t), token);
      await page.goto('/admin');
      await page.locator('[data-testid=open-notify]').click();
      const dialog = page.getByRole('dialog', { name: 'Send notification' });
      // before anything is written
      await expect
        .poll(() => text(page, '[data-testid=notify-unconfigured]'))
        .toBe(
          'Push notifications are not configured on this server (OneSignal app id and key): a custom message still reaches the in-app inbox; the other types cannot be sent.',
        );
      expect(await dialog.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
      // a custom message can still go to the inbox
      await dialog.locator('select').first().selectOption('customMessage');
      expect(await dialog.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
      await snap(page, 'admin-site-notify-unconfigured-en-phone');
      await context.close();
    } finally {
      await bare.stop();
    }
  });

  it('shows the dashboard load error when the stats cannot be read', async () => {
    const { context, page } = await adminPage('en', PHONE, '/admin/tasks');
    await page.route('**/api/admin/stats', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"success":false,"error":{"code":"internal","message":"boom"}}',
      }),
    );
    await page.locator('.admin-menu-button').click();
    await page.locator('[data-testid=admin-drawer]').getByRole('link', { name: 'Dashboard' }).click();
    await expect
      .poll(() => text(page, '.admin-load-error p'), { timeout: 10_000 })
      .toBe('An error occurred while loading the dashboard data.');
    await snap(page, 'admin-site-dashboard-error-en-phone');
    await context.close();
  });
});
