import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng, registrar } from './api';
import { snapWith } from './checks';
import { type Lang, PHONE, signedInPage, withServerAndBrowser } from './harness';

/**
 * A worker's day, over one seeded site: every state of a task (available, in progress, waiting,
 * approved, rejected, appealed, expired, and a suspended account) shows one offer on the task
 * page, the list's card, my tasks and the profile; then the day's screens in both languages at
 * 390x844 and 1280x800, each through the accessibility gate.
 */

const suite = withServerAndBrowser();
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.36', 'day');
const snap = snapWith({ rawKeys: /\b(offer|myTasks|statement|legal)\.[a-zA-Z_.]+/g });
const LAPTOP = { width: 1280, height: 800 } as const;

const STATES = ['open', 'started', 'waiting', 'approved', 'rejected', 'appealed', 'expired'] as const;
type Key = (typeof STATES)[number] | 'blocked';
const ids = {} as Record<Key, string>;
const workers = {} as Record<Lang | 'suspended', { id: string; token: string }>;
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  for (const key of [...STATES, 'blocked'] as const) {
    ids[key] = await createTask(adminToken, {
      title: `Gün ${key}: uygulamayı indir ve değerlendir`,
      description: 'Uygulamayı indir, beş yıldız ver ve kısa bir yorum yaz.',
      reward: 7.5,
      maxCompletions: 20,
      estimatedTime: 10,
      timeLimitMinutes: 45,
      automaticComments: 'Harika bir uygulama!\nÇok beğendim, tavsiye ederim.',
      taskLink: 'https://example.com/app',
    });
  }
  const proof = makePng(100, 200, (x, y) => [x * 2, 120, y]);
  const reject = (id: string) =>
    ok('PUT', `/submissions/${id}/review`, adminToken, {
      status: 'rejected',
      rejectionReason: 'low_quality_image',
      feedbackCode: 'rejection_reason',
    });
  for (const who of ['tr', 'en', 'suspended'] as const) {
    const user = await register(who === 'tr' ? 'Zeynep Kaya' : who === 'en' ? 'Emily Stone' : 'Ali Askıda');
    workers[who] = user;
    if (who === 'suspended') {
      await reject(await startAndSubmit(user.token, ids.blocked, proof));
      suite.server.db().prepare("UPDATE users SET status = 'suspended' WHERE _id = ?").run(user.id);
      continue;
    }
    await ok('POST', `/tasks/${ids.expired}/start`, user.token);
    suite.server
      .db()
      .prepare(
        "UPDATE user_tasks SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ? AND task_id = ?",
      )
      .run(user.id, ids.expired);
    await startAndSubmit(user.token, ids.waiting, proof, 'Yaptım.');
    await ok(
      'PUT',
      `/submissions/${await startAndSubmit(user.token, ids.approved, proof)}/review`,
      adminToken,
      {
        status: 'approved',
        feedbackCode: 'task_completed',
      },
    );
    await reject(await startAndSubmit(user.token, ids.rejected, proof));
    const appealed = await startAndSubmit(user.token, ids.appealed, proof);
    await reject(appealed);
    await ok('POST', `/submissions/${appealed}/appeal`, user.token, {
      message: 'Görsel net, lütfen tekrar bakar mısınız?',
    });
    await ok('POST', `/tasks/${ids.started}/start`, user.token);
  }
}, 120_000);

/** The state and offer one screen shows for a task, or null when the screen does not list it. */
type Seen = { state: string; offer: string } | null;

async function seen(page: Page, selector: string): Promise<Seen> {
  const el = page.locator(selector).first();
  if ((await el.count()) === 0) return null;
  return {
    state: (await el.getAttribute('data-state')) ?? '',
    offer: (await el.getAttribute('data-offer')) ?? '',
  };
}

/** What each of the four screens says about each task, for one worker. */
async function observe(page: Page, keys: readonly Key[]) {
  const out = {} as Record<Key, { page: Seen; card: Seen; myTasks: Seen; profile: Seen }>;
  for (const key of keys) out[key] = { page: null, card: null, myTasks: null, profile: null };
  for (const key of keys) {
    await page.goto(`/tasks/${ids[key]}`);
    await page.locator('[data-testid=task-state]').waitFor();
    out[key].page = await seen(page, '[data-testid=task-state]');
  }
  await page.goto('/tasks');
  await page.locator('[data-testid=task-card]').first().waitFor();
  // the card states come from a second request: wait until at least one shows
  await expect.poll(() => page.locator('[data-testid=task-card-state]').count()).toBeGreaterThan(0);
  for (const key of keys) {
    const card = page.locator('[data-testid=task-card]', {
      has: page.locator(`a[href="/tasks/${ids[key]}"]`),
    });
    if ((await card.count()) === 0) continue;
    // an open task has no badge: its offer is the start the task page shows
    out[key].card = (await seen(page, `${cardSel(key)} [data-testid=task-card-state]`)) ?? {
      state: 'available',
      offer: 'start',
    };
  }
  await page.goto('/my-tasks');
  await page.locator('[data-testid=my-tasks]').waitFor();
  for (const section of ['in_progress', 'waiting', 'appealed', 'rejected', 'approved', 'ended']) {
    await page.locator(`[data-testid=section-${section}]`).click();
    await expect
      .poll(() => page.locator(`[data-testid=section-${section}]`).getAttribute('aria-pressed'))
      .toBe('true');
    await page.locator('[data-testid=my-task], [data-testid=my-tasks-empty]').first().waitFor();
    for (const key of keys) {
      const row = await seen(page, `[data-testid=my-task][data-task="${ids[key]}"]`);
      if (row) out[key].myTasks = row;
    }
  }
  await page.goto('/profile');
  await page.locator('[data-testid=activity]').first().waitFor();
  for (const key of keys)
    out[key].profile = await seen(page, `[data-testid=activity][data-task="${ids[key]}"]`);
  return out;
}

const cardSel = (key: Key) => `[data-testid=task-card]:has(a[href="/tasks/${ids[key]}"])`;

describe('one offer per task state on every screen', () => {
  it('shows each state and its one next step alike on the task page, its card, my tasks and the profile', async () => {
    const { context, page, errors } = await signedInPage(suite.browser, suite.server.url, workers.tr.token, {
      lang: 'tr',
      size: PHONE,
    });
    const seenBy = await observe(page, STATES);
    const expected: Record<(typeof STATES)[number], [string, string]> = {
      open: ['available', 'start'],
      started: ['in_progress', 'finish'],
      waiting: ['waiting', 'none'],
      approved: ['approved', 'none'],
      rejected: ['rejected', 'restart'],
      appealed: ['appealed', 'none'],
      expired: ['expired', 'start'],
    };
    for (const key of STATES) {
      const [state, offer] = expected[key];
      const screens = seenBy[key];
      expect(screens.page, key).toEqual({ state, offer });
      // every screen that lists the task says the same thing as its page
      for (const [screen, value] of Object.entries(screens)) {
        if (value) expect(value, `${key} on ${screen}`).toEqual({ state, offer });
      }
    }
    // where each task is listed: the list hides what waits or is paid; my tasks and the profile
    // list every started one (a waiting proof is a count on the profile, not an event)
    expect(STATES.filter((k) => seenBy[k].card)).toEqual([
      'open',
      'started',
      'rejected',
      'appealed',
      'expired',
    ]);
    expect(STATES.filter((k) => seenBy[k].myTasks)).toEqual(STATES.filter((k) => k !== 'open'));
    expect(STATES.filter((k) => seenBy[k].profile)).toEqual([
      'started',
      'approved',
      'rejected',
      'appealed',
      'expired',
    ]);
    // the appealed task page says so and offers no restart; the profile's boxes count it
    await page.goto(`/tasks/${ids.appealed}`);
    await page.locator('[data-testid=task-state]').waitFor();
    expect(await page.locator('[data-testid=restart-task]').count()).toBe(0);
    expect(await page.locator('[data-testid=task-state]').textContent()).toContain('İtiraz incelemede');
    await page.goto('/profile');
    await expect
      .poll(() => page.locator('[data-testid=status-appealed] .status-count').textContent())
      .toBe('1');
    expect(await page.locator('[data-testid=status-inProgress] a').getAttribute('href')).toBe(
      '/my-tasks?section=in_progress',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a suspended account as such on all four screens, with the reason and a contact', async () => {
    const { context, page, errors } = await signedInPage(
      suite.browser,
      suite.server.url,
      workers.suspended.token,
      { lang: 'en', size: LAPTOP },
    );
    const seenBy = await observe(page, ['blocked', 'open']);
    expect(seenBy.blocked).toEqual({
      page: { state: 'suspended', offer: 'none' },
      card: { state: 'suspended', offer: 'none' },
      myTasks: { state: 'suspended', offer: 'none' },
      profile: { state: 'suspended', offer: 'none' },
    });
    expect(seenBy.open.page).toEqual({ state: 'suspended', offer: 'none' });
    expect(seenBy.open.card).toEqual({ state: 'suspended', offer: 'none' });
    await page.goto(`/tasks/${ids.open}`);
    await page.locator('[data-testid=suspended-contact]').waitFor();
    expect(await page.locator('[data-testid=start-task]').count()).toBe(0);
    await snap(page, 'day-task-suspended-en-laptop');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the worker's day in both languages at 390x844 and 1280x800", () => {
  it.each([
    ['tr', 'phone', PHONE],
    ['tr', 'laptop', LAPTOP],
    ['en', 'phone', PHONE],
    ['en', 'laptop', LAPTOP],
  ] as const)('%s %s', async (lang, label, size) => {
    const { context, page, errors } = await signedInPage(
      suite.browser,
      suite.server.url,
      workers[lang].token,
      {
        lang,
        size,
      },
    );
    const name = (screen: string) => `day-${screen}-${lang}-${label}`;
    // my tasks, reached from the bottom bar on a phone and the top menu on a laptop
    await page.goto('/tasks');
    await page.locator('[data-testid=task-card]').first().waitFor();
    const nav = label === 'phone' ? '[data-testid=bottom-bar]' : '.topnav';
    await page.locator(`${nav} a[href="/my-tasks"]`).click();
    await page.waitForURL('**/my-tasks');
    const row = page.locator('[data-testid=my-task]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('in_progress');
    expect(await page.locator('[data-testid=my-task-time-left]').textContent()).toMatch(/^4\d:\d\d$/);
    await snap(page, name('my-tasks'));
    await page.locator('[data-testid=section-appealed]').click();
    await page.locator('[data-testid=my-task][data-state=appealed]').waitFor();
    await snap(page, name('my-tasks-appealed'));
    // the appealed task's own page
    await page.goto(`/tasks/${ids.appealed}`);
    await page.locator('[data-testid=task-state][data-state=appealed]').waitFor();
    await snap(page, name('task-appealed'));
    await page.goto('/profile');
    await page.locator('[data-testid=activity]').first().waitFor();
    await snap(page, name('profile'));
    // the inbox: each message names its task (linked) and its amount or reason; opening it reads them
    // (the phone run of the same worker read them already: the laptop run finds them read)
    await page.locator('[data-testid=inbox-bell]').click();
    await page.waitForURL('**/notifications');
    const rejected = page.locator('[data-testid=inbox-item][data-type=isRejected]').first();
    await rejected.waitFor();
    expect(await rejected.locator('[data-testid=inbox-item-context]').textContent()).toContain(
      lang === 'tr' ? 'Görsel kalitesi düşük' : 'The image quality is too low',
    );
    expect(
      await page
        .locator('[data-testid=inbox-item][data-type=isAccepted] [data-testid=inbox-item-amount]')
        .textContent(),
    ).toMatch(/7[,.]50/);
    await expect.poll(() => page.locator('[data-testid=inbox-bell-count]').count()).toBe(0);
    await snap(page, name('inbox'));
    // "Kazançlarım" opens the earnings statement (top menu on a laptop, the address on a phone)
    if (label === 'laptop') await page.locator('.topnav a[href="/earnings"]').click();
    else await page.goto('/earnings');
    await page.waitForURL('**/earnings');
    const rows = page.locator('[data-testid=statement-row]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-kind')).toBe('reward');
    expect(await page.locator('[data-testid=statement-net]').textContent()).toMatch(/7[,.]50/);
    await snap(page, name('earnings'));
    // an empty month says so
    await page.locator('[data-testid=statement-month]').fill('2020-01');
    await page.locator('[data-testid=statement-empty]').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
