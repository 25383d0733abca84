import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import enAdminLists from '../locales/en/adminLists.json';
import trAdminLists from '../locales/tr/adminLists.json';
import { apiClient, apiLogin, makePng, registrar } from './api';
import { checkAccessibility } from './axe';
import { localeKeys, snapWith } from './checks';
import { type Lang, newPage, SCREENSHOT_DIR, withServerAndBrowser } from './harness';

/**
 * The review queue at volume, on the laptops reviewers use: the bulk bar in view from a ticked
 * ninth row, the orders and page sizes, the reward column and one button into a proof, a quick
 * decision undone within its seconds (no money moved) or left to go (paid once, checked in the
 * worker's ledger), and the appeal with its rejection before the flags and the proof.
 */

const LAPTOP = { width: 1280, height: 800 };
const SMALL_LAPTOP = { width: 1366, height: 768 };
const SIZES = [
  ['1280', LAPTOP],
  ['1366', SMALL_LAPTOP],
] as const;
const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.37', 'volume');
const snap = snapWith({ rawKeys: localeKeys(enAdminLists) });
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
});

/** A screenshot of the window as the reviewer sees it (not the full page), through the axe gate. */
async function viewShot(page: Page, name: string): Promise<void> {
  expect(await checkAccessibility(page, name)).toEqual([]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

interface Seeded {
  prefix: string;
  worker: { id: string; token: string };
  appealText: string;
}

/**
 * Twelve pending proofs of one worker, 1.00 to 6.50 TL, sent in that order (the last one too fast
 * for its task: flagged), and another worker's rejected proof with an appeal.
 */
async function seed(lang: Lang): Promise<Seeded> {
  const prefix = lang === 'en' ? 'Hacim' : 'Kuyruk';
  const worker = await register(`${prefix} Çalışan`);
  for (let i = 0; i < 12; i++) {
    const taskId = await createTask(adminToken, {
      title: `${prefix} iş ${String(i).padStart(2, '0')}`,
      description: 'Adımları izleyin ve ekran görüntüsü yükleyin.',
      reward: 1 + i * 0.5,
      category: 'social_media',
      maxCompletions: 100,
      ...(i === 11 && { minSeconds: 3600 }),
    });
    const shade = (lang === 'en' ? 17 : 91) + i * 19;
    const image = makePng(24 + i, 40, (x, y) => [
      (x * (i + 3) * 11 + shade) % 256,
      (y * (i + 5) * 7) % 256,
      (x * y * (i + 1)) % 256,
    ]);
    await startAndSubmit(worker.token, taskId, image);
  }
  const appealer = await register(`${prefix} İtirazcı`);
  const appealTask = await createTask(adminToken, {
    title: `${prefix} itiraz işi`,
    description: 'Hesabı takip edin ve ekran görüntüsü yükleyin.',
    reward: 3,
    category: 'social_media',
    maxCompletions: 100,
  });
  const rejectedId = await startAndSubmit(
    appealer.token,
    appealTask,
    makePng(30, 30, (x, y) => [(x * 40) % 256, 220, (y * 30) % 256]),
  );
  await ok('PUT', `/submissions/${rejectedId}/review`, adminToken, {
    status: 'rejected',
    feedback: 'Takip görünmüyor.',
    rejectionReason: 'no_share',
  });
  const appealText =
    lang === 'en'
      ? 'I did follow; the screenshot shows my name at the top.'
      : 'Takip ettim, ekran görüntüsünün üstünde adım görünüyor.';
  await ok('POST', `/submissions/${rejectedId}/appeal`, appealer.token, { message: appealText });
  return { prefix, worker, appealText };
}

const rewardRows = async (token: string) =>
  (
    await ok<{ items: { kind: string; amount: number }[] }>('GET', '/users/me/statement?limit=100', token)
  ).items.filter((r) => r.kind === 'reward');
const pendingCount = async (q: string) =>
  (
    await ok<{ total: number }>(
      'GET',
      `/admin/submissions?status=pending&q=${encodeURIComponent(q)}&limit=1`,
      adminToken,
    )
  ).total;
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the review queue at volume', () => {
  it.each(['tr', 'en'] as const)(
    'keeps the bulk bar in view, sorts, pages, undoes and shows appeals first (%s)',
    async (lang) => {
      const words = lang === 'en' ? enAdminLists : trAdminLists;
      const { prefix, worker, appealText } = await seed(lang);
      const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size: LAPTOP });
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
      await page.goto('/');
      await page.evaluate((t) => localStorage.setItem('token', t), adminToken);
      await page.goto(`/admin/submissions?q=${encodeURIComponent(`${prefix} iş`)}`);
      const rows = page.locator('[data-testid=submission-row]');
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(10);

      // oldest first by default (the worker who waited longest), the reward in its column, one button
      expect(await page.locator('[data-testid=submission-sort]').inputValue()).toBe('oldest');
      expect(await rows.first().textContent()).toContain(`${prefix} iş 00`);
      expect(await rows.first().locator('[data-testid=submission-reward]').textContent()).toBe('₺1,00');
      expect(await rows.first().locator('[data-testid=view-evidence]').allTextContents()).toEqual([
        words.submissions.review,
      ]);
      expect(await page.locator('[data-testid=open-review]').count()).toBe(0);

      // the ninth row ticked: the bulk bar is in the window with it, on both laptops
      for (const [label, size] of SIZES) {
        await page.setViewportSize(size);
        await rows.nth(8).locator('[data-testid=select-row]').check();
        await rows.nth(8).scrollIntoViewIfNeeded();
        expect(await inView(page, '[data-testid=submissions-bulk] [data-testid=bulk-approve]')).toBe(true);
        expect(await inView(page, '[data-testid=submission-row]:nth-child(9)')).toBe(true);
        await viewShot(page, `review-volume-sticky-${lang}-${label}`);
        await page.locator('[data-testid=bulk-clear]').click();
      }

      // the orders and a page size of 25: all twelve on one page
      await page.locator('[data-testid=submission-sort]').selectOption('reward');
      await page.waitForURL(/sort=reward/);
      await expect
        .poll(() => rows.first().locator('[data-testid=submission-reward]').textContent())
        .toBe('₺6,50');
      await page.locator('[data-testid=submission-sort]').selectOption('flagged');
      await page.waitForURL(/sort=flagged/);
      await expect.poll(() => rows.first().locator('[data-testid=flag-badge]').count()).toBe(1);
      const flagged = await rows.evaluateAll((trs) =>
        trs.map((tr) => tr.querySelector('[data-testid=flag-badge]') !== null),
      );
      expect(flagged).toEqual([...flagged].sort((a, b) => Number(b) - Number(a)));
      await page.locator('[data-testid=submission-sort]').selectOption('newest');
      await expect.poll(() => rows.first().textContent()).toContain(`${prefix} iş 11`);
      await page.locator('[data-testid=submission-size]').selectOption('25');
      await page.waitForURL(/size=25/);
      await expect.poll(() => rows.count()).toBe(12);
      for (const [label, size] of SIZES) {
        await page.setViewportSize(size);
        await snap(page, `review-volume-sorted-${lang}-${label}`);
      }
      await page.locator('[data-testid=submission-sort]').selectOption('oldest');
      await expect.poll(() => rows.first().textContent()).toContain(`${prefix} iş 00`);

      // `a` holds the approval; `u` undoes it: after its seconds nothing was sent, no money moved
      await page.setViewportSize(LAPTOP);
      await page.keyboard.press('j');
      await expect.poll(() => rows.first().getAttribute('data-current')).toBe('true');
      const held = page.locator('[data-testid=undo-bar] [data-testid=held-decision]');
      for (const [label, size] of SIZES) {
        await page.setViewportSize(size);
        await page.keyboard.press('a');
        await expect.poll(() => held.count()).toBe(1);
        expect(await rows.first().locator('[data-testid=held-badge]').count()).toBe(1);
        expect(await inView(page, '[data-testid=undo-bar] [data-testid=undo-decision]')).toBe(true);
        // the focus on the list stops its seconds (the gated screenshot takes longer than they last)
        await page.locator('[data-testid=undo-bar] [data-testid=undo-decision]').focus();
        await viewShot(page, `review-volume-undo-${lang}-${label}`);
        expect(await held.count()).toBe(1);
        await page.keyboard.press('u');
        await expect.poll(() => held.count()).toBe(0);
        expect(await rows.first().getAttribute('data-current')).toBe('true');
      }
      await sleep(6000);
      expect([await pendingCount(`${prefix} iş`), await rewardRows(worker.token)]).toEqual([12, []]);

      // `a` again, left to go: paid once, and only once
      expect(await rows.first().getAttribute('data-current')).toBe('true');
      await page.keyboard.press('a');
      await expect.poll(() => pendingCount(`${prefix} iş`), { timeout: 15_000 }).toBe(11);
      await sleep(1000);
      expect(await rewardRows(worker.token)).toEqual([expect.objectContaining({ amount: 1 })]);

      // the evidence's quick approve is held too, with its undo in the window
      await rows.nth(1).locator('[data-testid=view-evidence]').click();
      const modal = page.locator('dialog[open]');
      const shownId = await modal.locator('[data-testid=evidence-modal]').getAttribute('data-id');
      await modal.locator('[data-testid=quick-approve]').click();
      const inModal = modal.locator('[data-testid=undo-bar-modal] [data-testid=undo-decision]');
      await inModal.focus();
      await snap(page, `review-volume-undo-modal-${lang}`);
      await inModal.click();
      await expect.poll(() => inModal.count()).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);

      // an undo clicked as its seconds run out: whichever came first, money moved exactly as the proof says
      const raced = page.locator(`[data-testid=submission-row][data-row-id="${shownId}"]`);
      await raced.focus();
      await page.keyboard.press('a');
      await page.locator('[data-testid=undo-bar] [data-testid=undo-decision]').waitFor();
      await sleep(4950);
      await page
        .locator('[data-testid=undo-bar] [data-testid=undo-decision]')
        .click({ timeout: 500 })
        .catch(() => undefined);
      await sleep(2000);
      const status = (
        await ok<{ items: { _id: string; status: string }[] }>(
          'GET',
          `/admin/submissions?user=${worker.id}&limit=100`,
          adminToken,
        )
      ).items.find((s) => s._id === shownId)?.status;
      expect(await rewardRows(worker.token)).toHaveLength(status === 'approved' ? 2 : 1);

      // the appeal: the worker's words and the rejection come first, before the flags and the proof
      await page.goto(`/admin/submissions?status=appeals&q=${encodeURIComponent(prefix)}`);
      await expect.poll(() => rows.count()).toBe(1);
      await rows.first().locator('[data-testid=view-evidence]').click();
      const summary = modal.locator('[data-testid=appeal-summary]');
      await summary.waitFor();
      expect(await summary.locator('[data-testid=appeal-message]').textContent()).toContain(appealText);
      expect(await summary.locator('[data-testid=appeal-rejection]').textContent()).toContain(
        words.rejectionReasons.no_share,
      );
      const firstChild = await modal
        .locator('[data-testid=evidence-modal]')
        .evaluate((el) => el.firstElementChild?.getAttribute('data-testid'));
      expect(firstChild).toBe('appeal-summary');
      for (const [label, size] of SIZES) {
        await page.setViewportSize(size);
        expect(await inView(page, 'dialog[open] [data-testid=appeal-message]')).toBe(true);
        await viewShot(page, `review-volume-appeal-${lang}-${label}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
    240_000,
  );
});
