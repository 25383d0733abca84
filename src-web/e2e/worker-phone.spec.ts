import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng } from './api';
import { snapWith } from './checks';
import { apiRegister, type Lang, newPage, PHONE, signedInPage, withServerAndBrowser } from './harness';

/**
 * Every worker screen at 390x844 in both languages, each one looked at (a screenshot) and
 * checked by the accessibility gate: the visitor's pages, the task list and every state of a
 * task, the profile with its forms, my submissions and the 404 page. Also the task page's side
 * card at laptop widths in Turkish, whose long labels once spilled out of it.
 */

const suite = withServerAndBrowser();
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const snap = snapWith({});
let adminToken: string;
const ids: Record<'open' | 'started' | 'waiting' | 'rejected' | 'approved', string> = {
  open: '',
  started: '',
  waiting: '',
  rejected: '',
  approved: '',
};
const tokens: Partial<Record<Lang, string>> = {};

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
    ids[key] = await createTask(adminToken, {
      title: `Görev: ${key} — uygulamayı indir ve mağazada değerlendir`,
      description: 'Uygulamayı indirin, beş yıldız verin ve kısa bir yorum yazın.\nEkran görüntüsü yükleyin.',
      reward: 12.5,
      maxCompletions: 50,
      estimatedTime: 10,
      steps: ['Uygulamayı indirin', 'Beş yıldız verin', 'Ekran görüntüsü alın'],
      requirements: ['Bir Google hesabı'],
      automaticComments: 'Çok kullanışlı bir uygulama, herkese tavsiye ederim!',
      taskLink: 'https://example.com/uygulama',
    });
  }
  const proof = makePng(120, 240, (x, y) => [x * 2, 100, y]);
  for (const lang of ['tr', 'en'] as const) {
    const name = lang === 'tr' ? 'Zeynep Çalışkan' : 'Emily Walker';
    const email = `phone-${lang}@example.test`;
    const user = await apiRegister(suite.server.url, { name, email, password: 'secret123' });
    tokens[lang] = user.token;
    // enough to ask for a payout
    await ok('PUT', `/admin/users/${user.id}`, adminToken, { name, email, balance: 100 });
    await ok('POST', `/tasks/${ids.started}/start`, user.token);
    await startAndSubmit(user.token, ids.waiting, proof, 'Yaptım.');
    const rejected = await startAndSubmit(user.token, ids.rejected, proof, '');
    await ok('PUT', `/submissions/${rejected}/review`, adminToken, {
      status: 'rejected',
      rejectionReason: 'low_quality_image',
      feedbackCode: 'rejection_reason',
    });
    const approved = await startAndSubmit(user.token, ids.approved, proof, 'Tamamdır.');
    await ok('PUT', `/submissions/${approved}/review`, adminToken, {
      status: 'approved',
      feedbackCode: 'task_completed',
    });
  }
}, 120_000);

async function visitor(lang: Lang): Promise<Page> {
  const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size: PHONE });
  await context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
  return page;
}

/** Nothing sticks out of the phone's width (snap checks it too, with the offending elements). */
async function fitsPhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('worker screens on a phone (390x844)', () => {
  it.each(['tr', 'en'] as const)('as a visitor (%s)', async (lang) => {
    const page = await visitor(lang);
    const console: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') console.push(m.text());
    });
    const name = (screen: string) => `phone-${screen}-${lang}`;
    for (const [path, screen, ready] of [
      ['/', 'landing', '.hero'],
      ['/login', 'login', '#email'],
      ['/register', 'register', '#name'],
      ['/forgot-password', 'forgot-password', 'h1'],
      ['/tasks', 'tasks-visitor', '[data-testid=task-card]'],
      [`/tasks/${ids.open}`, 'task-visitor', '[data-testid=login-prompt]'],
      ['/there-is-no-such-page', '404', '[data-testid=not-found]'],
    ] as const) {
      await page.goto(path);
      await page.locator(ready).first().waitFor();
      await fitsPhone(page);
      await snap(page, name(screen));
    }
    // the brand is whole in the top bar beside the language switch and the sign-in
    const brand = page.locator('.topbar .brand span');
    expect(await brand.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // no React Router warning about a missing hydrate fallback (or anything else)
    expect(
      console.filter((m) => !/Failed to load resource|Service Worker registration blocked/.test(m)),
    ).toEqual([]);
    await page.context().close();
  });

  it.each(['tr', 'en'] as const)('as a signed-in worker (%s)', async (lang) => {
    const { context, page } = await signedInPage(suite.browser, suite.server.url, tokens[lang] ?? '', {
      lang,
      size: PHONE,
    });
    const name = (screen: string) => `phone-${screen}-${lang}`;

    await page.goto('/tasks');
    await page.locator('[data-testid=task-card]').first().waitFor();
    // the cards show where the worker stands with each task
    await expect.poll(() => page.locator('[data-testid=task-card-state]').count()).toBeGreaterThanOrEqual(2);
    const badge = (id: string) =>
      page
        .locator('[data-testid=task-card]', { has: page.locator(`a[href="/tasks/${id}"]`) })
        .locator('[data-testid=task-card-state]');
    expect(await badge(ids.started).getAttribute('data-state')).toBe('in_progress');
    // a task whose proof waits for review counts as done: it leaves the list
    expect(await badge(ids.waiting).count()).toBe(0);
    expect(await badge(ids.rejected).getAttribute('data-state')).toBe('rejected');
    await fitsPhone(page);
    await snap(page, name('tasks'));

    for (const [key, state] of [
      ['open', 'available'],
      ['started', 'in_progress'],
      ['waiting', 'waiting'],
      ['rejected', 'rejected'],
      ['approved', 'approved'],
    ] as const) {
      await page.goto(`/tasks/${ids[key]}`);
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe(state);
      await fitsPhone(page);
      await snap(page, name(`task-${state}`));
    }
    // the approval's fixed feedback, in the reader's language
    expect(await page.locator('[data-testid=task-state]').textContent()).toContain(
      lang === 'tr' ? 'Görev başarıyla tamamlandı' : 'Task completed successfully',
    );
    // the page's title follows the task, in the tab
    expect(await page.title()).toContain('Görev: approved');

    await page.goto('/my-submissions?status=all');
    await page.locator('[data-testid=submission-card]').first().waitFor();
    await fitsPhone(page);
    await snap(page, name('my-submissions'));

    await page.goto('/profile');
    await page.locator('[data-testid=profile-card]').waitFor();
    await fitsPhone(page);
    await snap(page, name('profile'));
    expect(await page.title()).toBe(`${lang === 'tr' ? 'Profil' : 'Profile'} · TaskReward`);
    await page.locator('.profile-edit-toggle').click();
    await page.locator('#profile-name').waitFor();
    await snap(page, name('profile-edit'));
    await page.locator('.profile-edit-toggle').click();
    await page.locator('[data-testid=withdraw-button]').click();
    await page.locator('dialog[open]').waitFor();
    await snap(page, name('withdraw'));
    await context.close();
  });
});

describe('the task page side card on laptops', () => {
  it.each([900, 1024, 1280])('keeps its long Turkish labels inside its border at %i px', async (width) => {
    const { context, page } = await newPage(suite.browser, suite.server.url, {
      lang: 'tr',
      size: { width, height: 800 },
    });
    await page.goto(`/tasks/${ids.open}`);
    await page.locator('[data-testid=login-prompt]').waitFor();
    const spilled = await page.evaluate(() => {
      const side = document.querySelector('[data-testid=task-side]')?.getBoundingClientRect();
      if (!side) return ['no side card'];
      return [...document.querySelectorAll('[data-testid=task-side] *')]
        .filter((el) => el.getBoundingClientRect().right > side.right + 0.5)
        .map((el) => `${el.tagName}.${el.className}`);
    });
    expect(spilled).toEqual([]);
    await context.close();
  });
});
