import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enAdminLists from '../locales/en/adminLists.json';
import { apiClient, apiLogin, makePng } from './api';
import { localeKeys, snapWith } from './checks';
import { ADMIN, COMBOS, DESKTOP, type Lang, newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The admin lists in a real browser: users, user detail,
 * submissions and withdrawals, and the operator's whole journey. Both languages, phone and desktop.
 */

type Size = { width: number; height: number };

const TEXT = {
  en: {
    range: (from: number, to: number, total: number) => `Showing ${from}–${to} of ${total}`,
    nameRequired: 'Name and email fields are required',
    banReasonRequired: 'Ban reason must be specified',
    lastAdmin: 'The last active admin cannot be demoted or banned',
    userUpdated: 'The user was updated.',
    userDeleted: 'The account was deleted.',
    banned: 'Banned',
    userNotFound: 'User not found.',
    approvalSuccess: 'The submission was approved and the reward was paid.',
    rejectionSuccess: 'The submission was rejected.',
    feedbackRequired: 'Write some feedback',
    selectReason: 'Choose a rejection reason',
    userLowQuality: 'The image quality is too low',
    userNoShare: 'No share was made',
    approved: 'Approved',
    rejected: 'Rejected',
    total: (n: number) => `${n} ${n === 1 ? 'withdrawal' : 'withdrawals'}`,
    rejectReasonRequired: 'You must enter a rejection reason',
    withdrawApproved: 'The withdrawal was approved.',
    withdrawRejected: 'The withdrawal was rejected and the amount refunded.',
    noWithdrawals: 'No withdrawals match these filters.',
  },
  tr: {
    range: (from: number, to: number, total: number) => `${total} kayıttan ${from}–${to} arası gösteriliyor`,
    nameRequired: 'Ad ve e-posta alanları zorunludur',
    banReasonRequired: 'Yasaklama sebebi belirtilmelidir',
    lastAdmin: 'Son aktif yönetici yetkisinden alınamaz veya yasaklanamaz',
    userUpdated: 'Kullanıcı güncellendi.',
    userDeleted: 'Hesap silindi.',
    banned: 'Yasaklı',
    userNotFound: 'Kullanıcı bulunamadı.',
    approvalSuccess: 'Gönderim onaylandı ve ödül ödendi.',
    rejectionSuccess: 'Gönderim reddedildi.',
    feedbackRequired: 'Bir geri bildirim yaz',
    selectReason: 'Bir ret sebebi seç',
    userLowQuality: 'Görsel kalitesi düşük',
    userNoShare: 'Paylaşım yapılmamış',
    approved: 'Onaylandı',
    rejected: 'Reddedildi',
    total: (n: number) => `${n} talep`,
    rejectReasonRequired: 'Bir ret sebebi girmelisin',
    withdrawApproved: 'Para çekme talebi onaylandı.',
    withdrawRejected: 'Para çekme talebi reddedildi ve tutar iade edildi.',
    noWithdrawals: 'Bu filtrelere uyan para çekme talebi yok.',
  },
} as const;

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask: createTaskAs, startAndSubmit } = apiClient(() => suite.server.url);
let adminToken: string;
let proofPng: Buffer;
let proofDir: string;
let proofFile: string;

interface TestUser {
  id: string;
  token: string;
  name: string;
  email: string;
}

let registrations = 0;

/**
 * Registers through the API. Registration is throttled per address (30 an hour), so each one
 * comes from its own address, as real sign-ups do (the server trusts X-Forwarded-For here).
 */
async function register(name: string, email: string, extra: Record<string, string> = {}): Promise<TestUser> {
  registrations++;
  const res = await fetch(`${suite.server.url}/api/auth/register`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.20.${registrations >> 8}.${registrations & 255}`,
    },
    body: JSON.stringify({ name, email, password: 'secret123', ...extra }),
  });
  const body = (await res.json()) as { token: string; data: { _id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return { id: body.data._id, token: body.token, name, email };
}

function createTask(title: string, reward: number): Promise<string> {
  return createTaskAs(adminToken, {
    title,
    description: 'Adımları izleyin ve ekran görüntüsü yükleyin.',
    reward,
    category: 'social_media',
    maxCompletions: 500,
  });
}

function submitProof(user: TestUser, taskId: string, description = ''): Promise<string> {
  return startAndSubmit(user.token, taskId, proofPng, description);
}

async function setBalance(user: TestUser, tl: number): Promise<void> {
  await ok('PUT', `/admin/users/${user.id}`, adminToken, { name: user.name, email: user.email, balance: tl });
}

async function requestWithdrawal(user: TestUser, amount: number, fullName: string, papara: string) {
  return ok<{ _id: string }>('POST', '/withdraws', user.token, {
    amount,
    paymentMethod: 'papara',
    accountDetails: { fullName, accountNumber: papara },
  });
}

/** A signed-in page (admin or user) in the given language and size. */
async function signedInPage(lang: Lang, size: Size, token: string) {
  const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return { context, page, errors };
}

/** Every key of the screens' namespace: a missing translation shows its key instead of a text. */
const KEYS = localeKeys(enAdminLists);

/** A screenshot, after checking that nothing sticks out sideways and no key shows untranslated. */
const snap = snapWith({ rawKeys: KEYS, scrollTop: false });

const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text });
/** The id of the submission the evidence modal shows, or null when it is closed. */
const shownItem = (page: Page) =>
  page.locator('[data-testid=evidence-modal]').evaluateAll((els) => els[0]?.getAttribute('data-id') ?? null);
const openDialog = (page: Page) => page.locator('dialog[open]');

function today(offsetDays = 0): string {
  // the server cuts calendar days in Turkey's time (UTC+3)
  return new Date(Date.now() + 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  // a gradient, so the evidence modal shows something
  proofPng = makePng(160, 120, (x, y) => [(x / 160) * 255, 120, (y / 120) * 255]);
  proofDir = mkdtempSync(join(tmpdir(), 'admin-lists-'));
  proofFile = join(proofDir, 'kanit.png');
  writeFileSync(proofFile, proofPng);
}, 120_000);

afterAll(async () => {
  if (proofDir) rmSync(proofDir, { recursive: true, force: true });
});

describe('the admin user list', () => {
  it.each(COMBOS)(
    'searches, filters, pages, edits, bans, notifies and deletes (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const tag = `${lang}${label}`;
      const name = (screen: string) => `admin-lists-${screen}-${lang}-${label}`;
      const users: TestUser[] = [];
      for (let i = 1; i <= 12; i++) {
        const nn = String(i).padStart(2, '0');
        const extra: Record<string, string> = i === 1 ? { device_id: `device-${tag}` } : {};
        users.push(await register(`Liste ${tag} ${nn}`, `list-${tag}-${nn}@example.test`, extra));
      }
      const [withPush, toEdit, toBan, toDelete] = users;

      // the user who will be banned has the site open
      const victim = await signedInPage(lang, size, toBan.token);
      await victim.page.goto('/tasks');
      await expect.poll(() => victim.page.locator('[data-testid=ban-modal]').count()).toBe(0);

      const { context, page, errors } = await signedInPage(lang, size, adminToken);
      await page.goto('/admin/users');
      const rows = page.locator('[data-testid=user-row]');
      await expect.poll(() => rows.count()).toBe(10);

      // search on the name or the email, 10 a page, the range text
      await page.locator('#user-search').fill(`list-${tag}`);
      await page.waitForURL(/q=list-/);
      await expect
        .poll(() => page.locator('[data-testid=users-range]').textContent())
        .toBe(text.range(1, 10, 12));
      expect(await rows.count()).toBe(10);
      expect(await rows.first().textContent()).toContain(`Liste ${tag} 12`);
      await snap(page, name('users'));
      await page.locator('.pagination button[aria-label]', { hasText: '2' }).click();
      await expect
        .poll(() => page.locator('[data-testid=users-range]').textContent())
        .toBe(text.range(11, 12, 12));
      expect(await rows.count()).toBe(2);
      expect(page.url()).toContain('page=2');
      await page.locator('#user-search').fill(`Liste ${tag} 0`);
      await expect
        .poll(() => page.locator('[data-testid=users-range]').textContent())
        .toBe(text.range(1, 9, 9));
      expect(page.url()).not.toContain('page=');

      // the push filter, and the notification dialog prefilled with the user's device id
      await page.locator('#user-filter').selectOption('push');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain(withPush.name);
      expect(await page.locator('[data-testid=user-notify]').count()).toBe(1);
      await rows.first().locator('[data-testid=user-notify]').click();
      await expect
        .poll(() =>
          openDialog(page)
            .locator('input')
            .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
        )
        .toContain(`device-${tag}`);
      await snap(page, name('users-notify'));
      await page.keyboard.press('Escape');
      await expect.poll(() => openDialog(page).count()).toBe(0);
      await page.locator('#user-filter').selectOption('all');
      await expect.poll(() => rows.count()).toBe(9);
      expect(await rows.filter({ hasText: toEdit.name }).locator('[data-testid=user-notify]').count()).toBe(
        0,
      );

      // edit: the name is required, then a new balance shows in the row
      const editRow = rows.filter({ hasText: toEdit.name });
      await editRow.locator('[data-testid=user-edit]').click();
      const form = page.locator('[data-testid=user-edit-form]');
      await expect.poll(() => form.isVisible()).toBe(true);
      expect(await page.locator('#user-edit-email').inputValue()).toBe(toEdit.email);
      await page.locator('#user-edit-name').fill('  ');
      await page.locator('[data-testid=user-edit-save]').click();
      await expect.poll(() => page.locator('#user-edit-name-error').textContent()).toBe(text.nameRequired);
      await snap(page, name('users-edit-error'));
      await page.locator('#user-edit-name').fill(toEdit.name);
      await page.locator('#user-edit-balance').fill('42.5');
      await page.locator('[data-testid=user-edit-save]').click();
      await expect.poll(() => toast(page, text.userUpdated).count()).toBe(1);
      await expect.poll(() => openDialog(page).count()).toBe(0);
      await expect.poll(() => editRow.locator('[data-testid=user-balance]').textContent()).toBe('₺42,50');

      // ban: a reason is required, then the badge says banned and the filter finds the user
      const banRow = rows.filter({ hasText: toBan.name });
      await banRow.locator('[data-testid=user-edit]').click();
      await page.locator('#user-edit-status').selectOption('banned');
      await page.locator('[data-testid=user-edit-save]').click();
      await expect
        .poll(() => page.locator('#user-edit-banReason-error').textContent())
        .toBe(text.banReasonRequired);
      await snap(page, name('users-ban-error'));
      const reason = `Sahte kanıt gönderdi (${tag})`;
      await page.locator('#user-edit-banReason').fill(reason);
      await page.locator('[data-testid=user-edit-save]').click();
      await expect.poll(() => openDialog(page).count()).toBe(0);
      await expect.poll(() => banRow.locator('[data-testid=user-status]').textContent()).toBe(text.banned);
      await page.locator('#user-filter').selectOption('banned');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain(toBan.name);
      await snap(page, name('users-banned'));

      // the banned user's next load shows the ban modal with the reason
      await victim.page.reload();
      await expect.poll(() => victim.page.locator('[data-testid=ban-reason]').textContent()).toBe(reason);
      await snap(victim.page, name('banned-user'));
      await victim.context.close();

      // the server's last-admin refusal, translated
      await page.locator('#user-filter').selectOption('admin');
      await page.locator('#user-search').fill(ADMIN.email);
      await expect.poll(() => rows.first().textContent()).toContain(ADMIN.email);
      expect(await rows.count()).toBe(1);
      expect(await rows.first().locator('[data-testid=user-delete]').count()).toBe(0);
      await rows.first().locator('[data-testid=user-edit]').click();
      await page.locator('#user-edit-role').selectOption('user');
      await page.locator('[data-testid=user-edit-save]').click();
      await expect
        .poll(() => page.locator('[data-testid=user-edit-failure]').textContent())
        .toBe(text.lastAdmin);
      await snap(page, name('users-last-admin'));
      await page.keyboard.press('Escape');
      await expect.poll(() => openDialog(page).count()).toBe(0);

      // delete after a confirmation: the account leaves the list
      await page.locator('#user-filter').selectOption('all');
      await page.locator('#user-search').fill(`list-${tag}`);
      await expect
        .poll(() => page.locator('[data-testid=users-range]').textContent())
        .toBe(text.range(1, 10, 12));
      await page.locator('#user-search').fill(toDelete.email);
      await expect
        .poll(() => page.locator('[data-testid=users-range]').textContent())
        .toBe(text.range(1, 1, 1));
      await rows.first().locator('[data-testid=user-delete]').click();
      await expect.poll(() => openDialog(page).textContent()).toContain(toDelete.email);
      await snap(page, name('users-delete'));
      await page.locator('[data-testid=user-delete-confirm]').click();
      await expect.poll(() => toast(page, text.userDeleted).count()).toBe(1);
      await expect.poll(() => page.locator('[data-testid=users-empty]').isVisible()).toBe(true);
      await page.locator('#user-search').fill(`list-${tag}`);
      await expect
        .poll(() => page.locator('[data-testid=users-range]').textContent())
        .toBe(text.range(1, 10, 11));

      // the name links to the detail
      await rows.filter({ hasText: toEdit.name }).locator('a').first().click();
      await page.waitForURL(`**/admin/users/${toEdit.id}`);
      await expect.poll(() => page.locator('[data-testid=user-detail-name]').textContent()).toBe(toEdit.name);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the admin user detail', () => {
  let taskA: string;
  let taskB: string;
  beforeAll(async () => {
    taskA = await createTask('Detay görevi A', 25);
    taskB = await createTask('Detay görevi B', 7.5);
  });

  it.each(COMBOS)(
    'shows the account, its submissions and withdrawals, and edits it (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const tag = `${lang}${label}`;
      const name = (screen: string) => `admin-lists-${screen}-${lang}-${label}`;
      const user = await register(`Detay ${tag}`, `detail-${tag}@example.test`);
      const approvedId = await submitProof(user, taskA, 'Tamamladım.');
      await ok('PUT', `/submissions/${approvedId}/review`, adminToken, {
        status: 'approved',
        feedback: 'Harika',
        rejectionReason: null,
      });
      await submitProof(user, taskB);
      await setBalance(user, 100);
      await requestWithdrawal(user, 20, `Detay Sahibi ${tag}`, '5550001111');
      const refused = await requestWithdrawal(user, 22, `Detay Sahibi ${tag}`, '5550001111');
      const refusal = `IBAN sahibi farklı (${tag})`;
      await ok('PUT', `/admin/withdraws/${refused._id}/reject`, adminToken, { reason: refusal });

      const { context, page, errors } = await signedInPage(lang, size, adminToken);
      await page.goto(`/admin/users/${user.id}`);
      await expect.poll(() => page.locator('[data-testid=user-detail-name]').textContent()).toBe(user.name);
      expect(await page.locator('[data-testid=info-email] dd').textContent()).toBe(user.email);
      // 100 set by the admin, 20 held by the pending request (the rejected one was refunded)
      expect(await page.locator('[data-testid=info-balance] dd').textContent()).toBe('₺80,00');
      expect(await page.locator('[data-testid=info-totalEarned] dd').textContent()).toBe('₺25,00');
      expect(await page.locator('[data-testid=info-registered] dd').textContent()).toMatch(
        /^\d{1,2} \S+ \d{4}$/, // "25 Kas 2026", "25 Nov 2026"
      );
      expect(await page.locator('[data-testid=admin-badge]').count()).toBe(0);

      const subs = page.locator('[data-testid=user-submission-row]');
      await expect.poll(() => subs.count()).toBe(2);
      const rowA = subs.filter({ hasText: 'Detay görevi A' });
      expect(await rowA.getByRole('link', { name: 'Detay görevi A', exact: true }).getAttribute('href')).toBe(
        `/admin/tasks/edit/${taskA}`,
      );
      // the proof's thumbnail beside it opens the full proof in a new tab
      const thumb = rowA.locator('[data-testid=proof-thumb]');
      expect(await thumb.getAttribute('target')).toBe('_blank');
      expect(await thumb.locator('img').getAttribute('src')).toMatch(
        /^\/api\/files\/proofs\/[0-9a-f]{32}\.webp\?/,
      );
      expect(await rowA.textContent()).toContain('₺25,00');
      expect(await rowA.locator('[data-testid=review-status]').textContent()).toBe(text.approved);
      expect(await subs.filter({ hasText: 'Detay görevi B' }).textContent()).toContain('₺7,50');

      const withdrawals = page.locator('[data-testid=user-withdrawal-row]');
      await expect.poll(() => withdrawals.count()).toBe(2);
      const rejectedRow = withdrawals.filter({ hasText: '₺22,00' });
      expect(await rejectedRow.locator('[data-testid=user-withdrawal-notes]').textContent()).toBe(refusal);
      expect(await rejectedRow.locator('[data-testid=review-status]').textContent()).toBe(text.rejected);
      expect(await rejectedRow.textContent()).toContain('5550001111');
      await snap(page, name('user-detail'));

      // the edit form: only active and banned, a new balance
      await page.locator('[data-testid=user-detail-edit]').click();
      const options = await page
        .locator('#detail-edit-status option')
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
      expect(options).toEqual(['active', 'banned']);
      expect(await page.locator('#detail-edit-role').count()).toBe(0);
      await page.locator('#detail-edit-email').fill('');
      await page.locator('[data-testid=user-detail-save]').click();
      await expect.poll(() => page.locator('#detail-edit-email-error').textContent()).toBe(text.nameRequired);
      await page.locator('#detail-edit-email').fill(user.email);
      await page.locator('#detail-edit-balance').fill('-1');
      await page.locator('[data-testid=user-detail-save]').click();
      await expect.poll(() => page.locator('#detail-edit-balance-error').isVisible()).toBe(true);
      await snap(page, name('user-detail-edit'));
      await page.locator('#detail-edit-balance').fill('60');
      await page.locator('[data-testid=user-detail-save]').click();
      await expect.poll(() => toast(page, text.userUpdated).count()).toBe(1);
      await expect.poll(() => page.locator('[data-testid=info-balance] dd').textContent()).toBe('₺60,00');

      // an unknown id
      await page.goto('/admin/users/no-such-user');
      await expect
        .poll(() => page.locator('[data-testid=user-not-found]').textContent())
        .toBe(text.userNotFound);
      await snap(page, name('user-not-found'));
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the submission review', () => {
  it.each(COMBOS)(
    'quick-approves, rejects with a preset reason, and the user sees both (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const tag = `${lang}${label}`;
      const name = (screen: string) => `admin-lists-${screen}-${lang}-${label}`;
      const titleA = `Yorum görevi ${tag}`;
      const titleB = `Paylaşım görevi ${tag}`;
      const taskA = await createTask(titleA, 15);
      const taskB = await createTask(titleB, 10);
      const user = await register(`Kanıt ${tag}`, `proof-${tag}@example.test`);
      await submitProof(user, taskA, 'Yorumu yazdım,\nekran görüntüsü ekte.');
      await submitProof(user, taskB);

      const { context, page, errors } = await signedInPage(lang, size, adminToken);
      const keys: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().includes('/review'))
          keys.push(r.headers()['idempotency-key'] ?? '');
      });
      await page.goto('/admin/submissions');
      expect(
        await page.locator('[data-testid=submissions-filter-pending]').getAttribute('aria-pressed'),
      ).toBe('true');
      const rowA = page.locator('[data-testid=submission-row]', { hasText: titleA });
      const rowB = page.locator('[data-testid=submission-row]', { hasText: titleB });
      await expect.poll(() => rowA.count()).toBe(1);
      expect(await rowA.textContent()).toContain(user.name);
      expect(await rowA.textContent()).toContain(user.email);
      await snap(page, name('submissions'));

      // the evidence modal: the image; Escape and a backdrop click close it
      await rowA.locator('[data-testid=view-evidence]').click();
      const image = page.locator('[data-testid=evidence-image]');
      await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(160);
      expect(await openDialog(page).textContent()).toContain('Yorumu yazdım,');
      await snap(page, name('evidence'));
      await page.keyboard.press('Escape');
      await expect.poll(() => openDialog(page).count()).toBe(0);
      await rowA.locator('[data-testid=view-evidence]').click();
      await expect.poll(() => openDialog(page).count()).toBe(1);
      await page.mouse.click(3, 3);
      await expect.poll(() => openDialog(page).count()).toBe(0);

      // quick reject needs a reason; quick approve sends the fixed feedback
      await rowA.locator('[data-testid=view-evidence]').click();
      await page.locator('[data-testid=quick-reject]').click();
      await expect.poll(() => page.locator('#quick-reason-error').textContent()).toBe(text.selectReason);
      const approvedId = await shownItem(page);
      await page.locator('[data-testid=quick-approve]').click();
      // sent once its undo seconds are over
      await expect.poll(() => toast(page, text.approvalSuccess).count(), { timeout: 15_000 }).toBe(1);
      // the queue moves on: the next pending item opens in the modal (it closes when none is left)
      await expect.poll(() => shownItem(page)).not.toBe(approvedId);
      if ((await openDialog(page).count()) > 0) await page.keyboard.press('Escape');
      await expect.poll(() => openDialog(page).count()).toBe(0);
      await expect.poll(() => rowA.count()).toBe(0);

      // the review modal: feedback first, then a rejection needs a preset reason
      // one way into a proof: the evidence, and the full review from there
      await rowB.locator('[data-testid=view-evidence]').click();
      await page.locator('[data-testid=full-review]').click();
      await page.locator('[data-testid=review-submit]').click();
      await expect
        .poll(() => page.locator('#review-feedback-error').textContent())
        .toBe(text.feedbackRequired);
      await page.locator('[data-testid=review-result-rejected]').check({ force: true });
      await page.locator('#review-feedback').fill('Paylaşımınızı göremedik, lütfen tekrar deneyin.');
      await page.locator('[data-testid=review-submit]').click();
      await expect
        .poll(() => page.locator('#review-rejectionReason-error').textContent())
        .toBe(text.selectReason);
      await snap(page, name('review-errors'));
      await page.locator('#review-rejectionReason').selectOption('no_share');
      await page.locator('[data-testid=review-submit]').click();
      await expect.poll(() => toast(page, text.rejectionSuccess).count()).toBe(1);
      await expect.poll(() => rowB.count()).toBe(0);
      expect(keys).toHaveLength(2);
      expect(keys.every((k) => k.length >= 16)).toBe(true);
      expect(new Set(keys).size).toBe(2);

      // the other filters show the results
      await page.locator('[data-testid=submissions-filter-approved]').click();
      await page.waitForURL(/status=approved/);
      await expect.poll(() => rowA.locator('[data-testid=review-status]').textContent()).toBe(text.approved);
      await page.locator('[data-testid=submissions-filter-rejected]').click();
      await expect.poll(() => rowB.locator('[data-testid=review-status]').textContent()).toBe(text.rejected);
      await rowB.locator('[data-testid=view-evidence]').click();
      await expect.poll(() => openDialog(page).textContent()).toContain('Paylaşımınızı göremedik');
      expect(await page.locator('[data-testid=quick-actions]').count()).toBe(0);
      await snap(page, name('evidence-reviewed'));
      await page.keyboard.press('Escape');
      await snap(page, name('submissions-rejected'));
      expect(errors).toEqual([]);
      await context.close();

      // the user: the reward in the balance, the reason on the rejected card
      const own = await signedInPage(lang, size, user.token);
      await own.page.goto('/profile');
      await expect
        .poll(() => own.page.locator('[data-testid=balance-current] dd').textContent())
        .toBe('₺15,00');
      await snap(own.page, name('user-profile-after-review'));
      await own.page.goto('/my-submissions?status=rejected');
      const card = own.page.locator('[data-testid=submission-card]', { hasText: titleB });
      await expect
        .poll(() => card.locator('[data-testid=submission-feedback]').textContent())
        .toContain(text.userNoShare);
      await snap(own.page, name('user-rejected-submission'));
      expect(own.errors).toEqual([]);
      await own.context.close();
    },
  );
});

describe('the withdrawal management', () => {
  it.each(COMBOS)(
    'filters, approves one, rejects one with a reason; the user sees both (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const tag = `${lang}${label}`;
      const name = (screen: string) => `admin-lists-${screen}-${lang}-${label}`;
      const user = await register(`Çekim ${tag}`, `withdraw-${tag}@example.test`);
      await setBalance(user, 100);
      const holder = `Hesap Sahibi ${tag}`;
      const papara = `77${String(COMBOS.findIndex(([l, s]) => l === lang && s === label)).padStart(8, '0')}`;
      await requestWithdrawal(user, 30, holder, papara);
      await requestWithdrawal(user, 25, holder, papara);

      const { context, page, errors } = await signedInPage(lang, size, adminToken);
      await page.goto('/admin/withdrawals');
      const rows = page.locator('[data-testid=withdrawal-row]');
      await expect.poll(() => rows.count()).toBeGreaterThan(1);

      // search on the user name, the holder or the number; the total
      await page.locator('#withdrawal-search').fill(user.name);
      await page.waitForURL(/q=/);
      await expect
        .poll(() => page.locator('[data-testid=withdrawals-total]').textContent())
        .toBe(text.total(2));
      await page.locator('#withdrawal-search').fill(papara);
      await expect
        .poll(() => page.locator('[data-testid=withdrawals-total]').textContent())
        .toBe(text.total(2));
      await page.locator('#withdrawal-search').fill(holder);
      await expect
        .poll(() => page.locator('[data-testid=withdrawals-total]').textContent())
        .toBe(text.total(2));
      await page.locator('#withdrawal-status').selectOption('pending');
      await page.locator('#withdrawal-from').fill(today());
      await page.locator('#withdrawal-to').fill(today());
      await expect.poll(() => page.url()).toContain(`to=${today()}`);
      await expect.poll(() => rows.count()).toBe(2);
      const first = rows.first();
      expect(await first.locator('a').getAttribute('href')).toBe(`/admin/users/${user.id}`);
      expect(await first.textContent()).toContain(papara);
      await snap(page, name('withdrawals'));
      await page.locator('#withdrawal-to').fill(today(-1));
      await page.locator('#withdrawal-from').fill(today(-3));
      await expect
        .poll(() => page.locator('[data-testid=withdrawals-empty]').textContent())
        .toBe(text.noWithdrawals);
      await snap(page, name('withdrawals-empty'));
      await page.locator('[data-testid=withdrawals-reset]').click();
      await expect.poll(() => new URL(page.url()).search).toBe('');
      expect(await page.locator('#withdrawal-search').inputValue()).toBe('');
      await page.locator('#withdrawal-search').fill(holder);
      await expect.poll(() => rows.count()).toBe(2);

      // approve the 30
      const row30 = rows.filter({ hasText: '₺30,00' });
      const row25 = rows.filter({ hasText: '₺25,00' });
      await row30.locator('[data-testid=withdrawal-approve]').click();
      // asked first: the summary names the amount
      await expect
        .poll(() => page.locator('[data-testid=approve-summary]').textContent())
        .toContain('₺30,00');
      await snap(page, name('withdrawal-approve-confirm'));
      await page.locator('[data-testid=confirm-approve]').click();
      await expect.poll(() => toast(page, text.withdrawApproved).count()).toBe(1);
      await expect.poll(() => row30.locator('[data-testid=review-status]').textContent()).toBe(text.approved);
      expect(await row30.locator('[data-testid=withdrawal-approve]').count()).toBe(0);

      // reject the 25: the reason is required
      await row25.locator('[data-testid=withdrawal-reject]').click();
      const submit = page.locator('[data-testid=withdrawal-reject-submit]');
      expect(await submit.isDisabled()).toBe(true);
      expect(await page.locator('[data-testid=reject-reason-note]').textContent()).toBe(
        text.rejectReasonRequired,
      );
      await page.locator('#reject-reason').fill('   ');
      expect(await submit.isDisabled()).toBe(true);
      await snap(page, name('withdrawal-reject'));
      const reason = `Papara hesabı bu isimle eşleşmiyor (${tag})`;
      await page.locator('#reject-reason').fill(reason);
      await submit.click();
      await expect.poll(() => toast(page, text.withdrawRejected).count()).toBe(1);
      await expect.poll(() => row25.locator('[data-testid=review-status]').textContent()).toBe(text.rejected);
      expect(await row25.locator('[data-testid=withdrawal-note]').textContent()).toBe(reason);
      // from the top: scrolled to the row, the phone's sticky top bar lies over the export buttons
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, name('withdrawals-settled'));
      expect(errors).toEqual([]);
      await context.close();

      // the user: 100 - 30 - 25 + 25 refunded, and the reason in the history
      const own = await signedInPage(lang, size, user.token);
      await own.page.goto('/profile');
      await expect
        .poll(() => own.page.locator('[data-testid=balance-current] dd').textContent())
        .toBe('₺70,00');
      await expect
        .poll(() => own.page.locator('[data-testid=rejection-reason]').textContent())
        .toContain(reason);
      await own.page.locator('[data-testid=rejection-reason]').scrollIntoViewIfNeeded();
      await snap(own.page, name('user-profile-withdrawals'));
      expect(own.errors).toEqual([]);
      await own.context.close();
    },
  );

  it('shows the load error with a retry', async () => {
    const { context, page } = await signedInPage('en', PHONE, adminToken);
    let failing = true;
    await page.route('**/api/admin/withdraws?*', (route) =>
      failing
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' })
        : route.continue(),
    );
    await page.goto('/admin/withdrawals');
    const error = page.locator('[data-testid=withdrawals-error]');
    await expect
      .poll(() => error.textContent(), { timeout: 10_000 })
      .toContain('The withdrawals could not be loaded.');
    await snap(page, 'admin-lists-withdrawals-error-en-phone');
    failing = false;
    await error.locator('button').click();
    await expect.poll(() => page.locator('[data-testid=withdrawals-total]').count()).toBe(1);
    await context.close();
  });
});

const JOURNEY = {
  en: {
    ...TEXT.en,
    paid: 'Paid',
    settingsSaved: 'Settings saved.',
  },
  tr: {
    ...TEXT.tr,
    paid: 'Ödendi',
    settingsSaved: 'Ayarlar kaydedildi.',
  },
} as const;

describe("the operator's journey", () => {
  it.each([
    ['tr', 'desktop', DESKTOP, 50],
    ['en', 'phone', PHONE, 55],
  ] as const)(
    'creates a task, reviews its proofs, pays, settles withdrawals, bans and changes the settings; the users see each effect (%s, %s)',
    async (lang, label, size, minimumPayout) => {
      const text = JOURNEY[lang];
      const tag = `${lang}${label}`;
      const name = (screen: string) => `admin-lists-journey-${screen}-${lang}-${label}`;
      const title = `Operatör görevi ${tag}`;
      // the other run of this journey raised the minimum payout: start from the default
      await ok('PUT', '/settings', adminToken, { payment: { minimumPayout: 20 } });
      const u1 = await register(`Ayşe Operatör ${tag}`, `journey-1-${tag}@example.test`);
      const u2 = await register(`Mehmet Operatör ${tag}`, `journey-2-${tag}@example.test`);
      const admin = await signedInPage(lang, size, adminToken);
      const op = admin.page;
      const one = await signedInPage(lang, size, u1.token);
      const two = await signedInPage(lang, size, u2.token);

      // 1. the operator creates a task in the task form
      await op.goto('/admin/tasks/new');
      await expect.poll(() => op.locator('[data-testid=task-form]').isVisible()).toBe(true);
      await op.locator('#title').fill(title);
      await op
        .locator('#description')
        .fill('Hesabımızı takip edin.\nTakip ettiğinizi gösteren ekran görüntüsünü yükleyin.');
      await op.locator('#reward').fill('40');
      await op.locator('#maxCompletions').fill('10');
      await snap(op, name('task-form'));
      await op.locator('[data-testid=task-form] button[type=submit]').click();
      await op.waitForURL('**/admin/tasks');

      // the users find it
      await one.page.goto(`/tasks?q=${encodeURIComponent(title)}`);
      const card = one.page.locator('[data-testid=task-card]', { hasText: title });
      await expect.poll(() => card.count()).toBe(1);
      await snap(one.page, name('user-sees-task'));
      const taskId = (
        await ok<{ items: { _id: string; title: string }[] }>(
          'GET',
          `/tasks?q=${encodeURIComponent(title)}`,
          u2.token,
        )
      ).items.find((t) => t.title === title)?._id;
      expect(taskId).toBeTruthy();

      // 2. they do it: the first in the browser, the second through the API
      await card.locator('a').first().click();
      await one.page.locator('[data-testid=start-task]').click();
      await one.page.locator('#proof-file').setInputFiles(proofFile);
      await one.page.locator('[data-testid=proof-submit]').click();
      await expect
        .poll(() => one.page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('waiting');
      await submitProof(u2, taskId!, 'Takip ettim.');

      // 3. the operator reviews both proofs: approve the first (the reward is paid), reject the second
      await op.goto('/admin/submissions');
      const row1 = op.locator('[data-testid=submission-row]', { hasText: u1.name });
      const row2 = op.locator('[data-testid=submission-row]', { hasText: u2.name });
      await expect.poll(() => row1.count()).toBe(1);
      expect(await row1.textContent()).toContain(title);
      await snap(op, name('submissions'));
      await row1.locator('[data-testid=view-evidence]').click();
      await expect
        .poll(() =>
          op
            .locator('[data-testid=evidence-image]')
            .evaluate((img) => (img as HTMLImageElement).naturalWidth),
        )
        .toBe(160);
      const approvedId = await shownItem(op);
      await op.locator('[data-testid=quick-approve]').click();
      // sent once its undo seconds are over
      await expect.poll(() => toast(op, text.approvalSuccess).count(), { timeout: 15_000 }).toBe(1);
      // the next pending item opened by itself: back to the list for the full review
      await expect.poll(() => shownItem(op)).not.toBe(approvedId);
      if ((await openDialog(op).count()) > 0) await op.keyboard.press('Escape');
      await row2.locator('[data-testid=view-evidence]').click();
      await op.locator('[data-testid=full-review]').click();
      await op.locator('[data-testid=review-result-rejected]').check({ force: true });
      await op.locator('#review-rejectionReason').selectOption('low_quality_image');
      await op.locator('#review-feedback').fill('Ekran görüntüsü okunmuyor.');
      await snap(op, name('review'));
      await op.locator('[data-testid=review-submit]').click();
      await expect.poll(() => toast(op, text.rejectionSuccess).count()).toBe(1);
      await expect.poll(() => row2.count()).toBe(0);

      // the users see the results
      await one.page.goto('/profile');
      await expect
        .poll(() => one.page.locator('[data-testid=balance-current] dd').textContent())
        .toBe('₺40,00');
      await expect
        .poll(() => one.page.locator('[data-testid=balance-totalEarnings] dd').textContent())
        .toBe('₺40,00');
      await snap(one.page, name('user1-paid'));
      await two.page.goto('/my-submissions?status=rejected');
      await expect
        .poll(() => two.page.locator('[data-testid=submission-feedback]').textContent())
        .toContain(text.userLowQuality);
      await snap(two.page, name('user2-rejected'));

      // 4. withdrawals: the operator credits the second user by hand, both ask for a payout
      await op.goto(`/admin/users?q=${encodeURIComponent(u2.email)}`);
      const userRow = op.locator('[data-testid=user-row]', { hasText: u2.name });
      await userRow.locator('[data-testid=user-edit]').click();
      await op.locator('#user-edit-balance').fill('30');
      await op.locator('[data-testid=user-edit-save]').click();
      await expect.poll(() => userRow.locator('[data-testid=user-balance]').textContent()).toBe('₺30,00');
      await requestWithdrawal(u1, 30, u1.name, '5301234567');
      await requestWithdrawal(u2, 25, u2.name, '5307654321');

      await op.goto(`/admin/withdrawals?status=pending&q=${encodeURIComponent(`Operatör ${tag}`)}`);
      const w1 = op.locator('[data-testid=withdrawal-row]', { hasText: u1.name });
      const w2 = op.locator('[data-testid=withdrawal-row]', { hasText: u2.name });
      await expect
        .poll(() => op.locator('[data-testid=withdrawals-total]').textContent())
        .toBe(text.total(2));
      await snap(op, name('withdrawals'));
      await w1.locator('[data-testid=withdrawal-approve]').click();
      await op.locator('[data-testid=confirm-approve]').click();
      await expect.poll(() => toast(op, text.withdrawApproved).count()).toBe(1);
      await w2.locator('[data-testid=withdrawal-reject]').click();
      const reason = 'Hesap sahibi adı kullanıcı adıyla eşleşmiyor';
      await op.locator('#reject-reason').fill(reason);
      await op.locator('[data-testid=withdrawal-reject-submit]').click();
      await expect.poll(() => toast(op, text.withdrawRejected).count()).toBe(1);
      // settled rows leave the pending filter
      await expect.poll(() => op.locator('[data-testid=withdrawals-empty]').isVisible()).toBe(true);

      await one.page.goto('/profile');
      await expect
        .poll(() => one.page.locator('[data-testid=balance-current] dd').textContent())
        .toBe('₺10,00');
      await expect
        .poll(() => one.page.locator('[data-testid=withdrawal-row]').first().textContent())
        .toContain(text.paid);
      await two.page.goto('/profile');
      await expect
        .poll(() => two.page.locator('[data-testid=balance-current] dd').textContent())
        .toBe('₺30,00');
      await expect
        .poll(() => two.page.locator('[data-testid=rejection-reason]').textContent())
        .toContain(reason);
      await snap(two.page, name('user2-refunded'));

      // 5. the operator bans the second user; their next load shows the reason
      await op.goto(`/admin/users?q=${encodeURIComponent(u2.email)}`);
      await userRow.locator('[data-testid=user-edit]').click();
      await op.locator('#user-edit-status').selectOption('banned');
      const banReason = 'Birden fazla hesapla sahte kanıt gönderdi';
      await op.locator('#user-edit-banReason').fill(banReason);
      await op.locator('[data-testid=user-edit-save]').click();
      await expect.poll(() => userRow.locator('[data-testid=user-status]').textContent()).toBe(text.banned);
      await snap(op, name('user-banned'));
      await two.page.reload();
      await expect.poll(() => two.page.locator('[data-testid=ban-reason]').textContent()).toBe(banReason);
      await snap(two.page, name('user2-ban-modal'));

      // 6. the operator changes the settings: the site name and the minimum payout
      // short, as a brand is: a long site name does not fit the phone top bar (see the report)
      const siteName = lang === 'tr' ? 'GörevPara' : 'TaskCoin';
      await op.goto('/admin/settings');
      await expect.poll(() => op.locator('#settings-name').isVisible()).toBe(true);
      await op.locator('#settings-name').fill(siteName);
      await op.locator('[data-testid=general-save]').click();
      await expect
        .poll(() => op.locator('[data-testid=settings-success]').textContent())
        .toBe(text.settingsSaved);
      await op.goto('/admin/settings?tab=payment');
      await op.locator('#settings-minimumPayout').fill(String(minimumPayout));
      await op.locator('[data-testid=payment-save]').click();
      await expect
        .poll(() => op.locator('[data-testid=settings-success]').textContent())
        .toBe(text.settingsSaved);
      await snap(op, name('settings'));

      await one.page.goto('/profile');
      await expect.poll(() => one.page.locator('.topbar .brand').textContent()).toContain(siteName);
      await expect
        .poll(() => one.page.locator('[data-testid=below-minimum]').textContent())
        .toContain(`₺${minimumPayout},00`);
      await snap(one.page, name('user1-settings'));

      for (const p of [admin, one, two]) {
        expect(p.errors).toEqual([]);
        await p.context.close();
      }
    },
  );
});
