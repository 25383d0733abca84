import { beforeAll, describe, expect, it } from 'vitest';
import enAdmin from '../locales/en/admin.json';
import enTasks from '../locales/en/tasks.json';
import trAdmin from '../locales/tr/admin.json';
import { apiClient, apiLogin, registrar } from './api';
import { localeKeys, snapWith } from './checks';
import { COMBOS, newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The time limit of a started task in the browser: the task page counts down the
 * time left each second, and at zero shows the expired state with "start again", the proof form
 * and the comment gone. The page's clock is moved on with Playwright's clock (the server keeps
 * its own). Both languages, phone and desktop.
 */

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask } = apiClient(() => suite.server.url);
const signUp = registrar(() => suite.server.url, '10.40', 'life');
const register = async (name: string) => (await signUp(name)).token;
const snap = snapWith({ rawKeys: localeKeys(enTasks) });
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
});

describe('a started task counts down', () => {
  it.each(COMBOS)(
    'shows the time left, then the expired state with start again (%s, %s)',
    async (lang, device) => {
      const size = device === 'phone' ? PHONE : undefined;
      const id = await createTask(adminToken, {
        title: `Süreli görev ${lang} ${device}`,
        description: 'Beş dakika içinde kanıt gönderin.',
        reward: 3,
        category: 'social_media',
        maxCompletions: 10,
        timeLimitMinutes: 5,
        automaticComments: ['Harika bir uygulama'],
      });
      const token = await register(`Süre ${lang} ${device}`);
      const { context, page } = await newPage(suite.browser, suite.server.url, {
        lang,
        ...(size && { size }),
      });
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.clock.install();
      await page.goto('/');
      await page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('installBannerDismissed', '1');
      }, token);
      await page.goto(`/tasks/${id}`);
      expect(await page.locator('[data-testid=time-limit]').textContent()).toMatch(/5/);
      await page.locator('[data-testid=start-task]').click();
      const left = page.locator('[data-testid=time-left]');
      await left.waitFor();
      expect(await left.textContent()).toMatch(/^(5:00|4:5\d)$/);
      await page.clock.runFor(61_000);
      await expect.poll(() => left.textContent()).toMatch(/^3:5\d$/);
      await snap(page, `task-countdown-${lang}-${device}`);

      // at zero: expired, the proof form and the comment gone, "start again" offered
      await page.clock.runFor(4 * 60_000);
      const state = page.locator('[data-testid=task-state]');
      await expect.poll(() => state.getAttribute('data-state')).toBe('expired');
      expect(await page.locator('[data-testid=proof-form]').count()).toBe(0);
      expect(await page.locator('[data-testid=comment-box]').count()).toBe(0);
      const again = page.locator('[data-testid=start-task]');
      expect(await again.textContent()).toBe(lang === 'en' ? 'Start again' : 'Yeniden başla');
      await snap(page, `task-expired-${lang}-${device}`);
      expect(errors).toEqual([]);
      await context.close();
      // the server agrees once the time is up on its own clock: the record's expiresAt is 5 min on
      const [record] = await ok<{ expiresAt: string }[]>('GET', '/tasks/user', token);
      expect(Date.parse(record.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    },
  );
});

describe('every proof type', () => {
  const CASES = {
    link: { bad: 'javascript:alert(1)', good: 'https://example.com/gonderi/42' },
    code: { bad: '', good: 'KOD-2026' },
    text: { bad: 'kısa', good: 'Anketi doldurdum, son soruda evet dedim.' },
    none: { bad: null, good: null },
  } as const;
  const MESSAGES = {
    en: {
      link: 'The link must start with http:// or https://',
      code: 'Enter the code: 1 to 200 characters',
      text: 'Write your proof: 10 to 5,000 characters',
    },
    tr: {
      link: 'Bağlantı http:// veya https:// ile başlamalıdır',
      code: 'Kodu gir: 1 ile 200 karakter arası',
      text: 'Kanıtını yaz: 10 ile 5.000 karakter arası',
    },
  } as const;

  it.each([
    ['tr', 'phone'],
    ['en', 'desktop'],
  ] as const)(
    'sends a link, a code, a text and nothing, and the admin sees each (%s, %s)',
    async (lang, device) => {
      const size = device === 'phone' ? PHONE : undefined;
      const token = await register(`Kanıt ${lang} ${device}`);
      const { context, page } = await newPage(suite.browser, suite.server.url, {
        lang,
        ...(size && { size }),
      });
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto('/');
      await page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('installBannerDismissed', '1');
      }, token);
      const sent: Record<string, string> = {};
      for (const [type, values] of Object.entries(CASES)) {
        const id = await createTask(adminToken, {
          title: `Kanıt türü ${type} ${lang} ${device}`,
          description: 'Kanıt türünü deneyin.',
          reward: 2,
          category: 'social_media',
          maxCompletions: 10,
          requiredProof: type,
        });
        await page.goto(`/tasks/${id}`);
        await page.locator('[data-testid=start-task]').click();
        const form = page.locator('[data-testid=proof-form]');
        await form.waitFor();
        expect(await form.getAttribute('data-type')).toBe(type);
        if (values.bad !== null && type !== 'none') {
          await page.locator('[data-testid=proof-value]').fill(values.bad);
          await page.locator('[data-testid=proof-submit]').click();
          await expect
            .poll(() => page.locator('[data-testid=proof-field-error]').textContent())
            .toBe(MESSAGES[lang][type as 'link' | 'code' | 'text']);
          await snap(page, `proof-${type}-error-${lang}-${device}`);
          await page.locator('[data-testid=proof-value]').fill(values.good);
        }
        await page.locator('[data-testid=proof-submit]').click();
        await expect
          .poll(() => page.locator('[data-testid=task-state]').getAttribute('data-state'))
          .toBe('waiting');
        sent[type] = id;
      }
      // the worker's own list shows each proof as what it is
      await page.goto('/my-submissions');
      await page.locator('[data-testid=proof-content]').first().waitFor();
      const link = page.locator('[data-testid=proof-link]').first();
      expect(await link.getAttribute('href')).toBe(CASES.link.good);
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
      await snap(page, `proof-types-mine-${lang}-${device}`);
      expect(errors).toEqual([]);
      await context.close();

      // the admin's evidence window shows the link, the code and the text
      const admin = await newPage(suite.browser, suite.server.url, { lang, ...(size && { size }) });
      await admin.page.goto('/');
      await admin.page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('installBannerDismissed', '1');
      }, adminToken);
      await admin.page.goto(
        `/admin/submissions?q=${encodeURIComponent(`Kanıt türü text ${lang} ${device}`)}`,
      );
      await admin.page.locator('[data-testid=view-evidence]').first().click();
      const evidence = admin.page.locator('dialog[open] [data-testid=proof-content]');
      await evidence.waitFor();
      expect(await evidence.getAttribute('data-type')).toBe('text');
      expect(await evidence.textContent()).toContain(CASES.text.good);
      await snap(admin.page, `proof-text-evidence-${lang}-${device}`);
      await admin.context.close();
    },
  );
});

describe('auto-approval', () => {
  it.each([
    ['en', 'desktop'],
    ['tr', 'phone'],
  ] as const)(
    'is set in the settings, and the worker sees when their proof will be approved (%s, %s)',
    async (lang, device) => {
      const size = device === 'phone' ? PHONE : undefined;
      const admin = await newPage(suite.browser, suite.server.url, { lang, ...(size && { size }) });
      await admin.page.goto('/');
      await admin.page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('installBannerDismissed', '1');
      }, adminToken);
      await admin.page.goto('/admin/settings?tab=payment');
      const days = admin.page.locator('#settings-autoApproveDays');
      // the hint says which proofs the system never approves: they wait for a person
      expect(await admin.page.locator('#settings-autoApproveDays-hint').textContent()).toBe(
        (lang === 'en' ? enAdmin : trAdmin).settings.review.autoApproveHint,
      );
      expect(await admin.page.locator('#settings-autoApproveDays-hint').textContent()).toMatch(
        lang === 'en' ? /wait for a person/ : /bir kişinin incelemesini bekler/,
      );
      await days.fill('31');
      await admin.page.locator('[data-testid=review-save]').click();
      await expect
        .poll(() => admin.page.locator('#settings-autoApproveDays-error').textContent())
        .toBe(
          lang === 'en'
            ? 'Auto-approval takes 0 (off) to 30 days'
            : 'Otomatik onay 0 (kapalı) ile 30 gün arasında olmalıdır',
        );
      await days.fill('3');
      await admin.page.locator('[data-testid=review-save]').click();
      await admin.page.locator('[data-testid=settings-success]').waitFor();
      await snap(admin.page, `settings-review-${lang}-${device}`);
      await admin.context.close();

      const token = await register(`Otomatik ${lang} ${device}`);
      const id = await createTask(adminToken, {
        title: `Otomatik onay ${lang} ${device}`,
        description: 'Kodu gönder.',
        reward: 2,
        category: 'social_media',
        maxCompletions: 10,
        requiredProof: 'code',
      });
      await ok('POST', `/tasks/${id}/start`, token);
      const form = new FormData();
      form.set('task', id);
      form.set('proofText', 'KOD-1');
      const sent = await ok<{ createdAt: string; autoApproveAt: string }>(
        'POST',
        '/submissions',
        token,
        form,
      );
      expect(Date.parse(sent.autoApproveAt) - Date.parse(sent.createdAt)).toBe(3 * 86_400_000);
      const worker = await newPage(suite.browser, suite.server.url, { lang, ...(size && { size }) });
      await worker.page.goto('/');
      await worker.page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('installBannerDismissed', '1');
      }, token);
      await worker.page.goto('/my-submissions');
      const when = worker.page.locator('[data-testid=auto-approve-at] time').first();
      await when.waitFor();
      expect(await when.getAttribute('datetime')).toBe(sent.autoApproveAt);
      await snap(worker.page, `auto-approve-date-${lang}-${device}`);
      await worker.context.close();
      await ok('PUT', '/settings', adminToken, { review: { autoApproveDays: 0 } });
    },
  );
});

describe('an appeal', () => {
  it.each([
    ['tr', 'phone'],
    ['en', 'desktop'],
  ] as const)('is sent by the worker and overturned by an admin, who pays (%s, %s)', async (lang, device) => {
    const size = device === 'phone' ? PHONE : undefined;
    const title = `İtiraz görevi ${lang} ${device}`;
    const token = await register(`İtiraz ${lang} ${device}`);
    const id = await createTask(adminToken, {
      title,
      description: 'Kodu gönder.',
      reward: 6,
      category: 'social_media',
      maxCompletions: 10,
      requiredProof: 'code',
    });
    await ok('POST', `/tasks/${id}/start`, token);
    const form = new FormData();
    form.set('task', id);
    form.set('proofText', 'KOD-9');
    const sent = await ok<{ _id: string }>('POST', '/submissions', token, form);
    await ok('PUT', `/submissions/${sent._id}/review`, adminToken, {
      status: 'rejected',
      feedback: 'Kod yanlış',
      rejectionReason: 'wrong_format',
    });

    const worker = await newPage(suite.browser, suite.server.url, { lang, ...(size && { size }) });
    await worker.page.goto('/');
    await worker.page.evaluate((t) => {
      localStorage.setItem('token', t);
      localStorage.setItem('installBannerDismissed', '1');
    }, token);
    await worker.page.goto('/my-submissions');
    await worker.page.locator('[data-testid=appeal-open]').click();
    const dialog = worker.page.locator('dialog[open]');
    await dialog.locator('[data-testid=appeal-message]').fill('kısa');
    await dialog.locator('[data-testid=appeal-send]').click();
    await expect
      .poll(() => dialog.locator('[role=alert]').textContent())
      .toBe(
        lang === 'en'
          ? 'Explain your appeal: 10 to 1,000 characters'
          : 'İtirazını açıkla: 10 ile 1.000 karakter arası',
      );
    await snap(worker.page, `appeal-dialog-${lang}-${device}`);
    await dialog
      .locator('[data-testid=appeal-message]')
      .fill('Kod doğruydu, ekran görüntüsünü de ekleyebilirim.');
    await dialog.locator('[data-testid=appeal-send]').click();
    await expect
      .poll(() => worker.page.locator('[data-testid=appeal-status]').getAttribute('class'))
      .toContain('pending');
    // while it waits, the task cannot be restarted from here
    expect(await worker.page.locator('[data-testid=restart-submission]').count()).toBe(0);
    await snap(worker.page, `appeal-waiting-${lang}-${device}`);

    const admin = await newPage(suite.browser, suite.server.url, { lang, ...(size && { size }) });
    await admin.page.goto('/');
    await admin.page.evaluate((t) => {
      localStorage.setItem('token', t);
      localStorage.setItem('installBannerDismissed', '1');
    }, adminToken);
    await admin.page.goto('/admin');
    await admin.page.locator('[data-testid=pending-appeals]').click();
    await admin.page.waitForURL(/status=appeals/);
    const row = admin.page.locator('[data-testid=submission-row]', { hasText: title });
    await row.locator('[data-testid=view-evidence]').click();
    const evidence = admin.page.locator('dialog[open]');
    await evidence.locator('[data-testid=appeal-summary]').waitFor();
    await evidence.locator('[data-testid=appeal-overturn]').click();
    await evidence.locator('#appeal-response-error').waitFor();
    await evidence.locator('[data-testid=appeal-response]').fill('Haklısınız, kod doğru.');
    await snap(admin.page, `appeal-decide-${lang}-${device}`);
    await evidence.locator('[data-testid=appeal-overturn]').click();
    await expect.poll(() => admin.page.locator('dialog[open]').count()).toBe(0);
    await admin.context.close();

    await worker.page.reload();
    await expect
      .poll(() => worker.page.locator('[data-testid=submission-card]').first().getAttribute('data-status'))
      .toBe('approved');
    expect(await worker.page.locator('[data-testid=appeal-status]').first().getAttribute('class')).toContain(
      'overturned',
    );
    const me = await ok<{ balance: number }>('GET', '/users/me', token);
    expect(me.balance).toBe(6);
    await snap(worker.page, `appeal-overturned-${lang}-${device}`);
    await worker.context.close();
  });
});
