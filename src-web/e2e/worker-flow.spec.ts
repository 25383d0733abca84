import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng } from './api';
import { snap } from './checks';
import {
  apiRegister,
  COMBOS,
  DESKTOP,
  type Lang,
  newPage,
  signedInPage as openSignedIn,
  PHONE,
  withServerAndBrowser,
} from './harness';

/** The spec's texts as each language shows them. */
const TEXT = {
  en: {
    found: (n: number) => `${n} ${n === 1 ? 'task' : 'tasks'} found`,
    startOk: 'Task started. Do the steps, then send your proof.',
    copy: 'Copy',
    copied: 'Copied!',
    fileType: 'You can only upload image files.',
    tooLarge: 'File size must be less than 5MB.',
    proofOk: 'Your proof was sent. It will be reviewed soon.',
    pending: 'In review',
    notFound: 'Task with this ID was not found.',
    notOwner: "You don't have permission to edit this task",
    deadlinePast: 'Deadline must be after today',
    loadError: 'The tasks could not be loaded. Try again in a moment.',
    suspended: 'Your account is suspended: access is limited',
    unlimited: 'Unlimited',
    approvalMessage: 'Approval message',
    rejectionReason: 'Rejection reason',
    lowQuality: 'The image quality is too low',
    emptyApproved: 'You have no approved submissions yet.',
    noDescription: 'No description was added.',
    loginPrompt: 'Log in to do this task and earn its reward.',
  },
  tr: {
    found: (n: number) => `${n} görev bulundu`,
    startOk: 'Görev başladı. Adımları tamamla, sonra kanıtını gönder.',
    copy: 'Kopyala',
    copied: 'Kopyalandı!',
    fileType: 'Yalnızca görsel dosyaları yükleyebilirsin.',
    tooLarge: "Dosya boyutu 5MB'den küçük olmalıdır.",
    proofOk: 'Kanıtın gönderildi. Kısa süre içinde incelenecek.',
    pending: 'İncelemede',
    notFound: "Bu ID'ye sahip görev bulunamadı.",
    notOwner: 'Bu görevi düzenleme yetkin yok',
    deadlinePast: 'Son tarih bugünden sonra olmalı',
    loadError: 'Görevler yüklenemedi. Biraz sonra tekrar dene.',
    suspended: 'Hesabın askıya alındı: erişimin sınırlı',
    unlimited: 'Süresiz',
    approvalMessage: 'Onay mesajı',
    rejectionReason: 'Ret sebebi',
    lowQuality: 'Görsel kalitesi düşük',
    emptyApproved: 'Henüz onaylanan kanıtın yok.',
    noDescription: 'Açıklama eklenmedi.',
    loginPrompt: 'Bu görevi yapıp ödülünü kazanmak için giriş yap.',
  },
} as const;

const REVIEW_TITLE = 'Uygulamamıza yorum yaz';
const FOLLOW_TITLE = 'Instagram hesabımızı takip et';
const SURVEY_TITLE = 'Kısa anketimize katılın';
const GAME_TITLE = 'Oyunu 10. seviyeye getir';
const EDIT_TITLE = 'Web sitemizi ziyaret et';
const COMMENTS = Array.from(
  { length: 12 },
  (_, i) => `Çok kullanışlı bir uygulama, herkese tavsiye ederim (${i + 1}).`,
);

const suite = withServerAndBrowser();
const { api, createTask: createTaskAs, startAndSubmit } = apiClient(() => suite.server.url);
let adminToken: string;
let files: { dir: string; png: string; txt: string; fakePng: string; bigPng: string; pngBytes: Buffer };
const ids: Record<'review' | 'follow' | 'survey' | 'game' | 'edit', string> = {
  review: '',
  follow: '',
  survey: '',
  game: '',
  edit: '',
};

/** The admin creates a task, with room for 500 and the automatic comments unless told otherwise. */
function createTask(body: Record<string, unknown>): Promise<string> {
  return createTaskAs(adminToken, { maxCompletions: 500, automaticComments: COMMENTS, ...body });
}

function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A user with a token, signed in on a fresh page in the given language and size. */
function signedInPage(lang: Lang, size: { width: number; height: number }, token: string) {
  return openSignedIn(suite.browser, suite.server.url, token, { lang, size });
}

const cardsOf = (page: Page) => page.locator('[data-testid=task-card]');

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);

  const dir = mkdtempSync(join(tmpdir(), 'worker-flow-'));
  // a colour gradient, so the proof modal shows something
  const pngBytes = makePng(160, 120, (x, y) => [(x / 160) * 255, (y / 120) * 255, 180]);
  files = {
    dir,
    pngBytes,
    png: join(dir, 'kanit.png'),
    txt: join(dir, 'notes.txt'),
    fakePng: join(dir, 'renamed.png'),
    bigPng: join(dir, 'big.png'),
  };
  writeFileSync(files.png, pngBytes);
  writeFileSync(files.txt, 'just some text, not an image');
  writeFileSync(files.fakePng, 'a text file renamed to .png');
  // a PNG signature followed by 5 MB of padding: one byte over the limit
  const big = Buffer.alloc(5_242_881, 0);
  pngBytes.copy(big, 0, 0, 8);
  writeFileSync(files.bigPng, big);

  // fillers first, so the interesting tasks are the newest
  for (let i = 1; i <= 8; i++) {
    await createTask({
      title: `Ek görev ${i}`,
      description: 'Kısa bir ek görev.',
      reward: 1 + i / 10,
      category: 'other',
    });
  }
  ids.edit = await createTask({
    title: EDIT_TITLE,
    description: 'Sitemizi açın ve iki sayfa gezin.',
    reward: 8,
    category: 'other',
    deadline: dayFromToday(20),
  });
  ids.game = await createTask({
    title: GAME_TITLE,
    description: 'Oyunu indirin ve 10. seviyeye ulaşın.',
    reward: 60,
    category: 'game',
    difficulty: 'hard',
    estimatedTime: 90,
  });
  ids.survey = await createTask({
    title: SURVEY_TITLE,
    description: 'On soruluk anketi doldurun.',
    reward: 25,
    category: 'survey',
    estimatedTime: 5,
  });
  ids.follow = await createTask({
    title: FOLLOW_TITLE,
    description: 'Hesabımızı takip edin ve ekran görüntüsü alın.',
    reward: 5,
    category: 'social_media',
    isFeatured: true,
    taskLink: 'https://example.com/follow',
  });
  ids.review = await createTask({
    title: REVIEW_TITLE,
    description: 'Uygulamayı mağazadan indirin.\nBeş yıldız verin.\n<b>Ekran görüntüsü</b> yükleyin.',
    reward: 15,
    category: 'review',
    difficulty: 'medium',
    deadline: dayFromToday(30),
    estimatedTime: 10,
    taskLink: 'https://example.com/app',
    steps: ['Uygulamayı indirin', 'Otomatik yorumu kopyalayıp yazın', 'Ekran görüntüsü alın'],
    requirements: ['Bir Google Play hesabı'],
  });
}, 120_000);

afterAll(async () => {
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

describe('the worker flow in a real browser', () => {
  it.each(COMBOS)(
    'lets a user search, filter, open, start, copy, upload and see the pending card (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const name = (screen: string) => `worker-${screen}-${lang}-${label}`;
      const user = await apiRegister(suite.server.url, {
        name: `Worker ${lang} ${label}`,
        email: `worker-${lang}-${label}@example.test`,
        password: 'secret123',
      });
      const { context, page, errors } = await signedInPage(lang, size, user.token);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });

      // the list: featured first, the count, pages
      await page.goto('/tasks');
      await expect.poll(() => cardsOf(page).count()).toBe(12);
      expect(await page.locator('[data-testid=tasks-count]').textContent()).toBe(text.found(13));
      expect(await cardsOf(page).first().textContent()).toContain(FOLLOW_TITLE);
      expect(await cardsOf(page).first().locator('[data-testid=featured-badge]').count()).toBe(1);
      expect(await page.locator('.pagination').isVisible()).toBe(true);
      await snap(page, name('tasks'));

      // the search goes to the URL
      await page.locator('#task-search').fill('yorum');
      await page.waitForURL(/[?&]q=yorum/);
      await expect.poll(() => cardsOf(page).count()).toBe(1);
      expect(await page.locator('[data-testid=tasks-count]').textContent()).toBe(text.found(1));

      // filters: in the drawer on phones, beside the list on desktops
      if (label === 'phone') {
        expect(await page.locator('.tasks-aside').count()).toBe(0);
        await page.locator('[data-testid=filter-button]').click();
        const drawer = page.locator('[data-testid=filter-drawer]');
        await expect.poll(() => drawer.isVisible()).toBe(true);
        await page.locator('#drawer-category').selectOption('review');
        await drawer.locator('label.chip-radio', { hasText: '₺10 – ₺20' }).click();
        await page.waitForURL(/rewardRange=10-20/);
        await snap(page, name('filter-drawer'));
        await page.locator('[data-testid=drawer-show]').click();
        await expect.poll(() => drawer.isVisible()).toBe(false);
        expect(await page.locator('[data-testid=filter-button]').textContent()).toContain('(2)');
      } else {
        expect(await page.locator('[data-testid=filter-button]').count()).toBe(0);
        await page.locator('#side-category').selectOption('review');
        await page.locator('.tasks-aside label.chip-radio', { hasText: '₺10 – ₺20' }).click();
        await page.waitForURL(/rewardRange=10-20/);
      }
      expect(page.url()).toContain('category=review');
      await expect.poll(() => cardsOf(page).count()).toBe(1);
      await snap(page, name('tasks-filtered'));

      // filters survive a reload, because they live in the URL
      await page.reload();
      await expect.poll(() => cardsOf(page).count()).toBe(1);
      expect(await page.locator('#task-search').inputValue()).toBe('yorum');

      // a search with no match: the empty state, whose button clears everything
      await page.locator('#task-search').fill('hiçbir şey yok');
      await expect.poll(() => page.locator('[data-testid=tasks-empty]').isVisible()).toBe(true);
      await snap(page, name('tasks-empty'));
      await page.locator('[data-testid=tasks-empty] button').click();
      await expect.poll(() => cardsOf(page).count()).toBe(12);
      expect(new URL(page.url()).search).toBe('');

      // the sort: featured still first, then the highest reward
      await page.locator('#task-sort').selectOption('highest_reward');
      await page.waitForURL(/sort=highest_reward/);
      await expect.poll(() => cardsOf(page).nth(1).textContent()).toContain(GAME_TITLE);
      expect(await cardsOf(page).first().textContent()).toContain(FOLLOW_TITLE);

      // open the task from its card
      await cardsOf(page).filter({ hasText: REVIEW_TITLE }).locator('a').click();
      await page.waitForURL(`**/tasks/${ids.review}`);
      await expect.poll(() => page.locator('[data-testid=task-title]').textContent()).toBe(REVIEW_TITLE);
      const description = page.locator('[data-testid=task-description]');
      expect(await description.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-line');
      expect(await description.textContent()).toContain('<b>Ekran görüntüsü</b>');
      expect(await description.locator('b').count()).toBe(0);
      expect(await page.locator('[data-testid=task-deadline]').textContent()).not.toBe(text.unlimited);
      const link = page.locator('[data-testid=task-link]');
      expect(await link.getAttribute('href')).toBe('https://example.com/app');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await page.locator('[data-testid=task-state]').getAttribute('data-state')).toBe('available');
      expect(await page.locator('[data-testid=proof-form]').count()).toBe(0);
      await snap(page, name('task-available'));

      // start: the toast, the state, the comment. The toast's life is timed in the page (when it
      // appeared, when it left), so a loaded machine between the steps below cannot shorten it
      await page.evaluate((startOk) => {
        const times: { shown?: number; gone?: number } = {};
        (window as unknown as { startToast: typeof times }).startToast = times;
        new MutationObserver(() => {
          const shown = [...document.querySelectorAll('.toast-success')].some((el) =>
            el.textContent?.includes(startOk),
          );
          if (shown && times.shown === undefined) times.shown = performance.now();
          if (!shown && times.shown !== undefined && times.gone === undefined) times.gone = performance.now();
        }).observe(document.body, { childList: true, subtree: true });
      }, text.startOk);
      await page.locator('[data-testid=start-task]').click();
      const toast = page.locator('.toast-success', { hasText: text.startOk });
      await expect.poll(() => toast.isVisible()).toBe(true);
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('in_progress');
      const comment = (await page.locator('[data-testid=comment-text]').textContent()) ?? '';
      expect(COMMENTS).toContain(comment);
      await snap(page, name('task-in-progress'));

      // copy the comment: confirmed for 2 seconds
      const copy = page.locator('[data-testid=copy-comment]');
      expect(await copy.textContent()).toBe(text.copy);
      await copy.click();
      await expect.poll(() => copy.textContent()).toBe(text.copied);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(comment);
      await expect.poll(() => copy.textContent(), { timeout: 4000 }).toBe(text.copy);

      // the start toast stays 5 seconds, longer than the usual 3
      await expect.poll(() => toast.count(), { timeout: 8000 }).toBe(0);
      const life = await page.evaluate(() => {
        const times = (window as unknown as { startToast: { shown?: number; gone?: number } }).startToast;
        return (times.gone ?? 0) - (times.shown ?? 0);
      });
      expect(life).toBeGreaterThan(4000);

      // refusals in the browser: nothing is sent
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().includes('/api/submissions')) posts.push(r.url());
      });
      const submit = page.locator('[data-testid=proof-submit]');
      const proofError = page.locator('[data-testid=proof-error]');
      expect(await submit.isDisabled()).toBe(true);
      await page.locator('#proof-file').setInputFiles(files.txt);
      await expect.poll(() => proofError.textContent()).toBe(text.fileType);
      expect(await submit.isDisabled()).toBe(true);
      await page.locator('#proof-file').setInputFiles(files.bigPng);
      await expect.poll(() => proofError.textContent()).toBe(text.tooLarge);
      expect(await submit.isDisabled()).toBe(true);
      await page.locator('#proof-file').setInputFiles(files.fakePng);
      await expect.poll(() => proofError.textContent()).toBe(text.fileType);
      expect(await submit.isDisabled()).toBe(true);
      await snap(page, name('proof-refused'));
      expect(posts).toEqual([]);

      // the real upload
      await page.locator('#proof-description').fill('Yorumu yazdım,\nekran görüntüsü ekte.');
      await page.locator('#proof-file').setInputFiles(files.png);
      await expect.poll(() => submit.isDisabled()).toBe(false);
      expect(await proofError.count()).toBe(0);
      expect(await page.locator('[data-testid=proof-file-hint]').textContent()).toContain('kanit.png');
      await snap(page, name('proof-chosen'));
      await submit.click();
      await expect
        .poll(() => page.locator('.toast-success', { hasText: text.proofOk }).isVisible())
        .toBe(true);
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('waiting');
      expect(posts).toHaveLength(1);
      expect(await page.locator('[data-testid=proof-form]').count()).toBe(0);
      await snap(page, name('task-completed'));

      // my submissions: the pending card, its proof, the per-filter empty state
      await page.goto('/my-submissions');
      const card = page.locator('[data-testid=submission-card]');
      await expect.poll(() => card.count()).toBe(1);
      expect(await card.locator('[data-testid=submission-status]').textContent()).toBe(text.pending);
      expect(await card.textContent()).toContain(REVIEW_TITLE);
      expect(await card.locator('time').textContent()).toMatch(/^\d{1,2} \S+ \d{4},? \d{2}:\d{2}$/);
      // multipart bodies carry line breaks as CRLF (the HTML rule); pre-line shows either as one break
      expect((await card.locator('.pre-line').textContent())?.replace(/\r\n/g, '\n')).toBe(
        'Yorumu yazdım,\nekran görüntüsü ekte.',
      );
      await snap(page, name('my-submissions'));
      await card.locator('[data-testid=view-proof]').click();
      const image = page.locator('[data-testid=proof-image]');
      await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(160);
      await snap(page, name('proof-modal'));
      await page.keyboard.press('Escape');
      await expect.poll(() => image.count()).toBe(0);
      await page.locator('[data-testid=filter-approved]').click();
      await page.waitForURL(/status=approved/);
      await expect
        .poll(() => page.locator('[data-testid=submissions-empty]').textContent())
        .toContain(text.emptyApproved);
      await snap(page, name('my-submissions-empty'));

      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it.each(COMBOS)(
    'shows reviewed submissions, their banners and the restart of a rejected one (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const name = (screen: string) => `worker-${screen}-${lang}-${label}`;
      const user = await apiRegister(suite.server.url, {
        name: `Reviewed ${lang} ${label}`,
        email: `reviewed-${lang}-${label}@example.test`,
        password: 'secret123',
      });
      const approvedId = await startAndSubmit(user.token, ids.survey, files.pngBytes, 'Anketi doldurdum.');
      const rejectedId = await startAndSubmit(user.token, ids.game, files.pngBytes, '');
      const approve = await api('PUT', `/submissions/${approvedId}/review`, adminToken, {
        status: 'approved',
        feedback: 'Teşekkürler, harika iş!',
        rejectionReason: null,
      });
      expect(approve.status).toBe(200);
      const reject = await api('PUT', `/submissions/${rejectedId}/review`, adminToken, {
        status: 'rejected',
        feedback: 'Ekran görüntüsü okunmuyor.',
        rejectionReason: 'low_quality_image',
      });
      expect(reject.status).toBe(200);

      const { context, page, errors } = await signedInPage(lang, size, user.token);
      await page.goto('/my-submissions');
      const cards = page.locator('[data-testid=submission-card]');
      await expect.poll(() => cards.count()).toBe(2);
      const approved = page.locator('[data-testid=submission-card][data-status=approved]');
      const rejected = page.locator('[data-testid=submission-card][data-status=rejected]');
      expect(await approved.locator('[data-testid=submission-feedback] h3').textContent()).toBe(
        text.approvalMessage,
      );
      expect(await approved.locator('[data-testid=submission-reward]').textContent()).toContain('₺25,00');
      expect(await rejected.locator('[data-testid=submission-feedback] h3').textContent()).toBe(
        text.rejectionReason,
      );
      expect(await rejected.locator('[data-testid=submission-feedback]').textContent()).toContain(
        text.lowQuality,
      );
      expect(await rejected.textContent()).toContain(text.noDescription);
      expect(await rejected.locator('[data-testid=submission-reward]').count()).toBe(0);
      expect(await approved.locator('[data-testid=restart-submission]').count()).toBe(0);
      await snap(page, name('my-submissions-reviewed'));

      // the banners on the task pages
      await page.goto(`/tasks/${ids.survey}`);
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('approved');
      await snap(page, name('task-approved'));
      await page.goto(`/tasks/${ids.game}`);
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('rejected');
      expect(await page.locator('[data-testid=task-state]').textContent()).toContain(text.lowQuality);
      expect(await page.locator('[data-testid=restart-task]').isVisible()).toBe(true);
      await snap(page, name('task-rejected'));

      // restart from my submissions: back on the task, in progress again
      await page.goto('/my-submissions?status=rejected');
      await expect.poll(() => cards.count()).toBe(1);
      await rejected.locator('[data-testid=restart-submission]').click();
      await page.waitForURL(`**/tasks/${ids.game}`);
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('in_progress');
      expect(await page.locator('[data-testid=proof-form]').isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it.each(COMBOS)(
    'shows visitors the log-in link, pages, the not-found task and the load-error card (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const name = (screen: string) => `worker-${screen}-${lang}-${label}`;
      const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
      await context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));

      await page.goto(`/tasks/${ids.follow}`);
      await expect
        .poll(() => page.locator('[data-testid=login-prompt]').textContent())
        .toContain(text.loginPrompt);
      expect(await page.locator('[data-testid=start-task]').count()).toBe(0);
      expect(await page.locator('[data-testid=task-deadline]').textContent()).toBe(text.unlimited);
      await snap(page, name('task-visitor'));
      await page.locator('[data-testid=login-prompt] a').click();
      await page.waitForURL('**/login');

      await page.goto('/tasks?page=2&sort=oldest');
      await expect.poll(() => cardsOf(page).count()).toBe(1);
      await page.locator('.pagination button', { hasText: '1' }).click();
      await page.waitForURL((url) => !url.search.includes('page='));
      await expect.poll(() => cardsOf(page).count()).toBe(12);

      await page.goto('/tasks/no-such-task');
      await expect
        .poll(() => page.locator('[data-testid=task-not-found]').textContent())
        .toContain(text.notFound);
      await snap(page, name('task-not-found'));
      await page.locator('[data-testid=task-not-found] a').click();
      await page.waitForURL('**/tasks');

      let failing = true;
      await page.route('**/api/tasks?*', (route) =>
        failing
          ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' })
          : route.continue(),
      );
      await page.goto('/tasks?category=game');
      const errorCard = page.locator('[data-testid=tasks-error]');
      await expect.poll(() => errorCard.textContent(), { timeout: 10_000 }).toContain(text.loadError);
      await snap(page, name('tasks-error'));
      failing = false;
      await errorCard.locator('button').click();
      await expect.poll(() => cardsOf(page).count()).toBe(1);
      await context.close();
    },
  );

  it.each(COMBOS)(
    'lets the owner edit a task and refuses everyone else (%s, %s)',
    async (lang, label, size) => {
      const text = TEXT[lang];
      const name = (screen: string) => `worker-${screen}-${lang}-${label}`;
      const owner = await signedInPage(lang, size, adminToken);
      const page = owner.page;
      await page.goto(`/tasks/${ids.edit}/edit`);
      await expect.poll(() => page.locator('#edit-title').inputValue()).toContain(EDIT_TITLE);
      await snap(page, name('task-edit'));
      await page.locator('#edit-deadline').fill(dayFromToday(0));
      await page.locator('#edit-title').fill('');
      await page.locator('[data-testid=edit-save]').click();
      await expect.poll(() => page.locator('#edit-deadline-error').textContent()).toBe(text.deadlinePast);
      expect(await page.locator('#edit-title-error').isVisible()).toBe(true);
      await snap(page, name('task-edit-errors'));
      const newTitle = `${EDIT_TITLE} (${lang} ${label})`;
      await page.locator('#edit-title').fill(newTitle);
      await page.locator('#edit-deadline').fill(dayFromToday(10));
      await page.locator('[data-testid=edit-save]').click();
      await page.waitForURL(`**/tasks/${ids.edit}`);
      await expect.poll(() => page.locator('[data-testid=task-title]').textContent()).toBe(newTitle);
      expect(owner.errors).toEqual([]);
      await owner.context.close();

      const user = await apiRegister(suite.server.url, {
        name: `Other ${lang} ${label}`,
        email: `other-${lang}-${label}@example.test`,
        password: 'secret123',
      });
      const other = await signedInPage(lang, size, user.token);
      await other.page.goto(`/tasks/${ids.edit}/edit`);
      await expect
        .poll(() => other.page.locator('[data-testid=edit-denied]').textContent())
        .toContain(text.notOwner);
      await snap(other.page, name('task-edit-denied'));
      // the server agrees
      const put = await api('PUT', `/tasks/${ids.edit}`, user.token, { title: 'x' });
      expect(put.status).toBe(403);
      expect(put.body.error?.code).toBe('task_not_owner');
      await other.context.close();
    },
  );

  it.each([
    ['tr', DESKTOP],
    ['en', PHONE],
  ] as const)(
    'tells a suspended user why the start button is off, before any tap (%s)',
    async (lang, size) => {
      const user = await apiRegister(suite.server.url, {
        name: 'Suspended worker',
        email: `suspended-${lang}@example.test`,
        password: 'secret123',
      });
      suite.server.db().prepare("UPDATE users SET status = 'suspended' WHERE _id = ?").run(user.id);
      const { context, page, errors } = await signedInPage(lang, size, user.token);
      await page.goto(`/tasks/${ids.follow}`);
      // no start button at all: the task's state says the account is suspended, and whom to ask
      await expect
        .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
        .toBe('suspended');
      expect(await page.locator('[data-testid=start-task]').count()).toBe(0);
      expect(await page.locator('[data-testid=suspended-contact]').getAttribute('href')).toMatch(/^mailto:/);
      // the server refuses it all the same
      const res = await fetch(`${suite.server.url}/api/tasks/${ids.follow}/start`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}` },
      });
      expect(res.status).toBe(403);
      await snap(page, `worker-start-suspended-${lang}-${size === PHONE ? 'phone' : 'desktop'}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
