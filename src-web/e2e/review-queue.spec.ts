import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import enAdminLists from '../locales/en/adminLists.json';
import trAdminLists from '../locales/tr/adminLists.json';
import { apiClient, apiLogin, makePng, registrar } from './api';
import { localeKeys, snapWith } from './checks';
import { type Lang, newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The review queue at volume: an admin clears 20 submissions with the keyboard alone
 * (j/k, Enter, a, r, the reason picker, Escape, the `?` help), and decides many at once with the
 * tick boxes and the bulk bar. Both languages, on the laptops admins use and a phone.
 */

const LAPTOP = { width: 1280, height: 800 };
const SMALL_LAPTOP = { width: 1366, height: 768 };
const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.30', 'queue');
const snap = snapWith({ rawKeys: localeKeys(enAdminLists) });
let adminToken: string;
let proof: Buffer;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  proof = makePng(24, 40, (x, y) => [x * 10, y * 6, 180]);
});

interface Worker {
  id: string;
  token: string;
}

/** `tasks` tasks of 2.50 TL and `workers` workers who each send a proof for every task. */
async function seed(prefix: string, tasks: number, workers: number): Promise<Worker[]> {
  const taskIds: string[] = [];
  for (let i = 1; i <= tasks; i++) {
    taskIds.push(
      await createTask(adminToken, {
        title: `${prefix} görev ${i}`,
        description: 'Adımları izleyin ve ekran görüntüsü yükleyin.',
        reward: 2.5,
        category: 'social_media',
        maxCompletions: 100,
      }),
    );
  }
  const people: Worker[] = [];
  for (let w = 1; w <= workers; w++) {
    const worker = await register(`${prefix} Çalışan ${w}`);
    for (const taskId of taskIds) await startAndSubmit(worker.token, taskId, proof);
    people.push(worker);
  }
  return people;
}

async function balanceOf(worker: Worker): Promise<number> {
  return (await ok<{ balance: number }>('GET', '/users/me', worker.token)).balance;
}

async function adminPage(lang: Lang, size: { width: number; height: number }) {
  const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('token', t), adminToken);
  return { context, page, errors };
}

const shownId = (page: Page) => page.locator('[data-testid=evidence-modal]').getAttribute('data-id');
const pendingCount = async (q: string) =>
  (
    await ok<{ total: number }>(
      'GET',
      `/admin/submissions?status=pending&q=${encodeURIComponent(q)}&limit=1`,
      adminToken,
    )
  ).total;

describe('the review queue by keyboard', () => {
  it.each(['en', 'tr'] as const)('clears 20 submissions without the mouse (%s)', async (lang) => {
    const prefix = lang === 'en' ? 'Klavye' : 'Tuş';
    const workers = await seed(prefix, 5, 4);
    expect(await pendingCount(prefix)).toBe(20);
    const { context, page, errors } = await adminPage(lang, LAPTOP);
    // the twenty on one page: each decision is held a few seconds before it is sent, so a page
    // boundary would wait for the first to leave the list
    await page.goto(`/admin/submissions?q=${encodeURIComponent(prefix)}&size=25`);
    await page.locator('[data-testid=submission-row]').first().waitFor();

    // the help overlay lists the keys, and Escape closes it
    await page.keyboard.press('?');
    await page.locator('[data-testid=keyboard-help]').waitFor();
    await snap(page, `review-queue-help-${lang}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid=keyboard-help]').count()).toBe(0);

    // j moves the current row down and k back up; Enter opens its evidence
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    const rows = page.locator('[data-testid=submission-row]');
    const firstId = await rows.nth(0).getAttribute('data-row-id');
    expect(await rows.nth(0).getAttribute('data-current')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-row-id'))).toBe(firstId);
    await page.keyboard.press('Enter');
    await expect.poll(() => shownId(page)).toBe(firstId);

    const decided = new Set<string>();
    let rejected = 0;
    for (let n = 0; n < 20; n++) {
      await page.locator('[data-testid=quick-approve]').waitFor();
      const id = (await shownId(page)) as string;
      expect(decided.has(id)).toBe(false);
      if (n === 2) await snap(page, `review-queue-evidence-${lang}`);
      if (n % 7 === 3) {
        // r goes to the reason picker; a reason is picked with the arrows, Tab reaches Reject
        await page.keyboard.press('r');
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quick-reason');
        await page.keyboard.press('ArrowDown');
        expect(await page.locator('#quick-reason').inputValue()).not.toBe('');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        rejected++;
      } else {
        await page.keyboard.press('a');
      }
      decided.add(id);
      // the next item opens by itself (after the page's last one, the first of the next list)
      if (n < 19) await expect.poll(() => shownId(page), { timeout: 10_000 }).not.toBe(id);
    }
    await expect.poll(() => pendingCount(prefix), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    await page.locator('[data-testid=submissions-empty]').waitFor();
    await snap(page, `review-queue-cleared-${lang}`);
    expect(rejected).toBe(3);

    // every approval paid its 2.50 TL once
    const balances = await Promise.all(workers.map(balanceOf));
    expect(balances.reduce((a, b) => a + b, 0)).toBeCloseTo(17 * 2.5, 2);
    const approved = await ok<{ total: number }>(
      'GET',
      `/admin/submissions?status=approved&q=${encodeURIComponent(prefix)}&limit=1`,
      adminToken,
    );
    expect(approved.total).toBe(17);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("a banned worker's proof", () => {
  it.each(['en', 'tr'] as const)(
    'shows the ban and its reason, cannot be approved by button or key, and can be rejected (%s)',
    async (lang) => {
      const prefix = lang === 'en' ? 'Yasak' : 'Ban';
      const [banned, other] = await seed(prefix, 1, 2);
      const me = await ok<{ name: string; email: string }>('GET', '/users/me', banned.token);
      const reason = 'Sahte hesaplarla ödül toplama';
      await ok('PUT', `/admin/users/${banned.id}`, adminToken, {
        name: me.name,
        email: me.email,
        status: 'banned',
        banReason: reason,
      });
      const texts = lang === 'en' ? enAdminLists.standing : trAdminLists.standing;
      const { context, page, errors } = await adminPage(lang, LAPTOP);
      await page.goto(`/admin/submissions?q=${encodeURIComponent(`${prefix} Çalışan 1`)}`);
      await expect.poll(() => page.locator('[data-testid=submission-row]').count()).toBe(1);
      const standing = page.locator('[data-testid=submission-row] [data-testid=account-standing]');
      expect(await standing.getAttribute('data-status')).toBe('banned');
      expect(await standing.textContent()).toContain(reason);
      await snap(page, `review-queue-banned-${lang}`);

      // the evidence: the ban and why approving is off; `a` does nothing, rejecting works
      await page.locator('[data-testid=view-evidence]').click();
      const modal = page.locator('dialog[open]');
      await modal.locator('[data-testid=quick-approve]').waitFor();
      expect(await modal.locator('[data-testid=account-standing]').textContent()).toContain(reason);
      expect(await modal.locator('[data-testid=standing-note]').textContent()).toBe(texts.bannedNoApprove);
      expect(await modal.locator('[data-testid=quick-approve]').isDisabled()).toBe(true);
      await snap(page, `review-evidence-banned-${lang}`);
      await page.keyboard.press('a');
      await new Promise((r) => setTimeout(r, 300));
      expect(await pendingCount(`${prefix} Çalışan 1`)).toBe(1);
      await modal.locator('#quick-reason').selectOption('no_share');
      await modal.locator('[data-testid=quick-reject]').click();
      await expect.poll(() => pendingCount(`${prefix} Çalışan 1`), { timeout: 15_000 }).toBe(0);
      // the other worker's proof is approved as usual; the banned one's balance never moved
      expect(
        await ok<{ items: { _id: string }[] }>(
          'GET',
          `/admin/submissions?status=pending&q=${encodeURIComponent(`${prefix} Çalışan 2`)}`,
          adminToken,
        ).then((r) => r.items.length),
      ).toBe(1);
      const account = await ok<{ balance: number; status: string }>(
        'GET',
        `/admin/users/${banned.id}`,
        adminToken,
      );
      expect(account).toMatchObject({ balance: 0, status: 'banned' });
      expect(await balanceOf(other)).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('bulk review', () => {
  it.each([
    ['en', SMALL_LAPTOP],
    ['tr', PHONE],
  ] as const)(
    'rejects a page and approves everything matching from the bulk bar (%s)',
    async (lang, size) => {
      const prefix = lang === 'en' ? 'Toplu' : 'Yığın';
      const workers = await seed(prefix, 4, 3); // 12 pending: more than a page of 10
      const { context, page, errors } = await adminPage(lang, size);
      await page.goto(`/admin/submissions?q=${encodeURIComponent(`${prefix} Çalışan 1`)}`);
      await expect.poll(() => page.locator('[data-testid=submission-row]').count()).toBe(4);

      // tick the page, reject with one reason: the reason is asked for first
      await page.locator('[data-testid=select-page]').check();
      const bar = page.locator('[data-testid=submissions-bulk]');
      await bar.waitFor();
      await page.locator('[data-testid=bulk-reject]').click();
      await bar.locator('[role=alert]').waitFor();
      await page.locator('[data-testid=bulk-reason]').selectOption('low_quality_image');
      await snap(page, `bulk-reject-${lang}`);
      await page.locator('[data-testid=bulk-reject]').click();
      const rejectedText = lang === 'en' ? '4 rejected' : '4 reddedildi';
      await page.locator('.toast', { hasText: rejectedText }).waitFor();
      await expect.poll(() => balanceOf(workers[0])).toBe(0);

      // the rest: all matching the search, beyond the page, approved after a confirmation
      await page.locator('[data-testid=submission-search]').fill(prefix);
      await expect.poll(() => page.locator('[data-testid=submission-row]').count()).toBe(8);
      await page.locator('[data-testid=select-row]').first().check();
      await page.locator('[data-testid=bulk-select-matching]').click();
      await expect.poll(() => bar.locator('strong').textContent()).toMatch(/^8 /);
      await page.locator('[data-testid=bulk-approve]').click();
      await page.locator('[data-testid=bulk-approve-confirm]').waitFor();
      await snap(page, `bulk-approve-confirm-${lang}`);
      await page.locator('[data-testid=bulk-approve-confirm]').click();
      await page.locator('.toast', { hasText: lang === 'en' ? '8 approved' : '8 onaylandı' }).waitFor();
      await page.locator('[data-testid=submissions-empty]').waitFor();
      expect(await Promise.all(workers.map(balanceOf))).toEqual([0, 10, 10]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the payout run', () => {
  it.each([
    ['tr', LAPTOP],
    ['en', PHONE],
  ] as const)(
    'approves the ticked withdrawals after showing their total, and rejects others with one reason (%s)',
    async (lang, size) => {
      const tag = `${lang}${size.width}`;
      const people: { worker: Worker; id: string }[] = [];
      for (let i = 1; i <= 3; i++) {
        const worker = await register(`Ödeme ${tag} ${i}`);
        const me = await ok<{ name: string; email: string }>('GET', '/users/me', worker.token);
        await ok('PUT', `/admin/users/${worker.id}`, adminToken, {
          name: me.name,
          email: me.email,
          balance: 100,
        });
        const w = await ok<{ _id: string }>('POST', '/withdraws', worker.token, {
          amount: 20 * i,
          paymentMethod: 'papara',
          accountDetails: { fullName: `Ödeme Sahibi ${i}`, accountNumber: `555000${i}111` },
        });
        people.push({ worker, id: w._id });
      }
      const { context, page, errors } = await adminPage(lang, size);
      await page.goto(`/admin/withdrawals?status=pending&q=${encodeURIComponent(`Ödeme ${tag}`)}`);
      await expect.poll(() => page.locator('[data-testid=withdrawal-row]').count()).toBe(3);

      // the first two: approved together, the confirmation adds up what is paid (20 + 40 TL)
      const boxes = page.locator('[data-testid=select-row]');
      await boxes.nth(1).check();
      await boxes.nth(2).check();
      await page.locator('[data-testid=bulk-approve]').click();
      const confirm = page.locator('dialog[open]');
      await confirm.locator('[data-testid=bulk-approve-confirm]').waitFor();
      // lira amounts are written the Turkish way in both languages (docs/decisions.md, "Money on screen")
      expect(await confirm.textContent()).toContain('₺60,00');
      await snap(page, `payout-run-confirm-${lang}`);
      await confirm.locator('[data-testid=bulk-approve-confirm]').click();
      await page.locator('.toast', { hasText: lang === 'en' ? '2 approved' : '2 onaylandı' }).waitFor();
      await expect.poll(() => page.locator('[data-testid=withdrawal-row]').count()).toBe(1);

      // the last one: rejected with a written reason, refunded
      await page.locator('[data-testid=select-page]').check();
      await page.locator('[data-testid=bulk-reject]').click();
      await page.locator('[data-testid=withdrawals-bulk] [role=alert]').waitFor();
      await page.locator('[data-testid=bulk-reason]').fill('Hesap adı eşleşmiyor');
      await page.locator('[data-testid=bulk-reject]').click();
      await page.locator('.toast', { hasText: lang === 'en' ? '1 rejected' : '1 reddedildi' }).waitFor();
      await expect.poll(() => page.locator('[data-testid=withdrawal-row]').count()).toBe(0);
      // newest first: the rows were 60, 40, 20 TL; 40 and 20 were paid, 60 refunded
      expect(await Promise.all(people.map((p) => balanceOf(p.worker)))).toEqual([80, 60, 100]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
