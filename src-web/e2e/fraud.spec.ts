import type { AdminSubmissionDto } from '@contract/admin';
import type { WithdrawalDto } from '@contract/withdrawals';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import enAdminFraud from '../locales/en/adminFraud.json';
import enAdminLists from '../locales/en/adminLists.json';
import { apiClient, apiLogin, makePng, type RegisteredUser, registrar } from './api';
import { localeKeys, snapWith } from './checks';
import { type Lang, newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The fraud signals on the admin screens: two accounts send the same screenshot, one
 * of them too fast, and withdraw to the same IBAN. The admin finds them with the "Flagged"
 * filters, compares the duplicate with its match side by side, dismisses flags with a note, and
 * sees the accounts linked on the user page. English on a laptop, Turkish on a phone.
 */

const SMALL_LAPTOP = { width: 1366, height: 768 };
const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { api, ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.47', 'fraud');
const snap = snapWith({
  rawKeys: [...localeKeys(enAdminLists), ...localeKeys(enAdminFraud).filter((k) => k.includes('.'))],
});
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
});

/** A valid Turkish IBAN (mod-97) for a 22-digit account part. */
function iban(bban: string): string {
  const rearranged = `${bban}TR00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of rearranged) rest = (rest * 10 + Number(digit)) % 97;
  return `TR${String(98 - rest).padStart(2, '0')}${bban}`;
}

interface Seeded {
  prefix: string;
  original: RegisteredUser;
  copier: RegisteredUser;
  /** the copier's proof for the strict task: a duplicate of the original's, and too fast */
  duplicateId: string;
  originalId: string;
  taskTitles: [string, string];
  iban: string;
}

/**
 * Two tasks (the second with minSeconds 3600); the original worker sends a screenshot for the
 * first, the copier the same picture for the second (duplicate + too fast), then for the first
 * (a duplicate again). Both withdraw to one IBAN: the copier's withdrawal is a shared payout.
 */
async function seed(lang: Lang): Promise<Seeded> {
  const prefix = lang === 'en' ? 'Kopya' : 'İkiz';
  const taskTitles: [string, string] = [`${prefix} takip görevi`, `${prefix} yorum görevi`];
  const lenient = await createTask(adminToken, {
    title: taskTitles[0],
    description: 'Hesabı takip edin ve ekran görüntüsü yükleyin.',
    reward: 5,
    maxCompletions: 100,
    minSeconds: 0,
  });
  const strict = await createTask(adminToken, {
    title: taskTitles[1],
    description: 'Uygulamaya yorum yazın ve ekran görüntüsü yükleyin.',
    reward: 5,
    maxCompletions: 100,
    estimatedTime: 8,
    minSeconds: 3600,
  });
  // a picture of its own per language, so the two runs do not match each other
  const shade = lang === 'en' ? 40 : 200;
  const proof = makePng(300, 520, (x, y) => [
    (x * 7 + shade) % 256,
    ((y >> 4) % 2) * 180 + (x % 40),
    (x * y + shade * 3) % 256,
  ]);
  const original = await register(`${prefix} Ayşe Özgün`);
  const copier = await register(`${prefix} Burak Çakır`);
  const originalId = await startAndSubmit(original.token, lenient, proof);
  const duplicateId = await startAndSubmit(copier.token, strict, proof);
  await startAndSubmit(copier.token, lenient, proof);
  const account = iban(lang === 'en' ? '0006100519786457841326' : '0006200519786457841327');
  for (const user of [original, copier]) {
    await ok('PUT', `/admin/users/${user.id}`, adminToken, {
      name: user.name,
      email: user.email,
      balance: 300,
    });
    await ok('POST', '/withdraws', user.token, {
      amount: 120,
      paymentMethod: 'iban',
      accountDetails: { fullName: user.name, accountNumber: account },
    });
  }
  return { prefix, original, copier, duplicateId, originalId, taskTitles, iban: account };
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

const TEXTS = {
  en: {
    duplicate:
      '100% similar to 1 earlier proof (1 by another account): all of the screen content matches; status and navigation bars are not compared',
    similarBadge: 'Duplicate proof · 100%',
    tooFast: /^Sent \d+ s after starting; this task takes at least 3600 s$/,
    sharedPayout: 'This IBAN was also used by 1 other account',
    dismissedBy: 'Dismissed by Admin on',
    noteRequired: 'Write why this flag is dismissed (up to 500 characters)',
    alreadyDismissed: 'This flag was already dismissed',
    samePayout: 'Same payout account:',
    linkedTitle: 'Linked accounts',
    selected: /^2 selected$/,
  },
  tr: {
    duplicate:
      'Daha önce gönderilmiş 1 kanıta %100 benziyor (1 tanesi başka hesaplardan): ekran içeriğinin tamamı eşleşiyor; durum ve gezinme çubukları karşılaştırılmaz',
    similarBadge: 'Kopya kanıt · %100',
    tooFast: /^Başladıktan \d+ sn sonra gönderildi; bu görev en az 3600 sn sürer$/,
    sharedPayout: 'Bu IBAN 1 başka hesap tarafından da kullanıldı',
    dismissedBy: 'Admin tarafından',
    noteRequired: 'Bu işaretin neden kapatıldığını yaz (en fazla 500 karakter)',
    alreadyDismissed: 'Bu işaret zaten kapatılmış',
    samePayout: 'Aynı ödeme hesabı:',
    linkedTitle: 'Bağlantılı hesaplar',
    selected: /^2 seçili$/,
  },
} as const;

const box = async (page: Page, selector: string, n: number) => {
  const b = await page.locator(selector).nth(n).boundingBox();
  if (!b) throw new Error(`${selector} #${n} has no box`);
  return b;
};

describe('the fraud signals on the admin screens', () => {
  it.each([
    ['en', 'laptop', SMALL_LAPTOP],
    ['tr', 'phone', PHONE],
  ] as const)(
    'finds, compares and dismisses the flags of a copied proof (%s, %s)',
    async (lang, device, size) => {
      const s = await seed(lang);
      const text = TEXTS[lang];
      // the server's own view first: what the screens are built on
      const flagged = await ok<{ items: AdminSubmissionDto[] }>(
        'GET',
        `/admin/submissions?flagged=true&q=${encodeURIComponent(s.prefix)}`,
        adminToken,
      );
      expect(flagged.items.map((i) => i.user._id)).toEqual([s.copier.id, s.copier.id]);

      const { context, page, errors } = await adminPage(lang, size);
      // the dashboard's pending withdrawals mark the shared payout account
      await page.goto('/admin');
      const pending = page.locator('[data-testid=pending-withdrawals] tr', { hasText: s.copier.name });
      await pending.waitFor();
      expect(await pending.locator('[data-testid=flag-badge]').getAttribute('data-kinds')).toBe(
        'shared_payout',
      );
      const clean = page.locator('[data-testid=pending-withdrawals] tr', { hasText: s.original.name });
      expect(await clean.locator('[data-testid=flag-badge]').count()).toBe(0);
      await page.goto(`/admin/submissions?q=${encodeURIComponent(s.prefix)}`);
      const rows = page.locator('[data-testid=submission-row]');
      await expect.poll(() => rows.count()).toBe(3);
      // the original proof carries no flag; the filter is kept in the URL
      expect(
        await rows.filter({ hasText: s.original.name }).locator('[data-testid=flag-badge]').count(),
      ).toBe(0);
      await page.locator('[data-testid=submissions-filter-flagged]').click();
      await page.waitForURL(/[?&]flagged=true/);
      await expect.poll(() => rows.count()).toBe(2);
      expect(
        await page.locator('[data-testid=submissions-filter-flagged]').getAttribute('aria-pressed'),
      ).toBe('true');
      const row = rows.filter({ hasText: s.taskTitles[1] });
      const badge = row.locator('[data-testid=flag-badge]');
      expect(await badge.getAttribute('data-count')).toBe('2');
      expect((await badge.getAttribute('data-kinds'))?.split(' ').sort()).toEqual([
        'duplicate_proof',
        'too_fast',
      ]);
      expect(await badge.innerText()).toContain(lang === 'en' ? '2 flags' : '2 işaret');
      // a proof with the duplicate flag alone says how similar it is, in the reader's words
      const single = rows.filter({ hasText: s.taskTitles[0] }).locator('[data-testid=flag-badge]');
      expect(await single.innerText()).toContain(text.similarBadge);
      await snap(page, `fraud-review-flagged-${lang}-${device}`);
      // the duplicate's similarity on both laptop sizes in this language (the axe gate included)
      for (const laptop of [
        { width: 1280, height: 800 },
        { width: 1366, height: 768 },
      ]) {
        await page.setViewportSize(laptop);
        await expect.poll(() => single.innerText()).toContain(text.similarBadge);
        await snap(page, `fraud-review-similarity-${lang}-${laptop.width}x${laptop.height}`);
      }
      await page.setViewportSize(size);

      // "select all matching" asks for the flagged ones only (the original's proof is pending too)
      await rows.first().locator('[data-testid=select-row]').check();
      await page.locator('[data-testid=bulk-select-matching]').click();
      await expect
        .poll(() => page.locator('[data-testid=submissions-bulk] strong').textContent())
        .toMatch(text.selected);
      await page.locator('[data-testid=bulk-clear]').click();

      // the evidence: both flags explained, the duplicate beside its match
      await row.locator('[data-testid=view-evidence]').click();
      const modal = page.locator('[data-testid=evidence-modal]');
      await modal.waitFor();
      expect(await modal.getAttribute('data-id')).toBe(s.duplicateId);
      const duplicate = modal.locator('[data-testid=flag][data-kind=duplicate_proof]');
      const tooFast = modal.locator('[data-testid=flag][data-kind=too_fast]');
      expect(await duplicate.locator('[data-testid=flag-message]').innerText()).toBe(text.duplicate);
      expect(await tooFast.locator('[data-testid=flag-message]').innerText()).toMatch(text.tooFast);
      const cards = modal.locator('[data-testid=dup-card]');
      await expect.poll(() => cards.count()).toBe(2);
      await expect.poll(() => cards.nth(1).getAttribute('data-id')).toBe(s.originalId);
      await expect.poll(() => modal.locator('[data-testid=dup-worker]').count()).toBe(2);
      expect(await modal.locator('[data-testid=dup-worker]').allInnerTexts()).toEqual([
        s.copier.name,
        s.original.name,
      ]);
      expect(await modal.locator('[data-testid=dup-task]').allInnerTexts()).toEqual([
        s.taskTitles[1],
        s.taskTitles[0],
      ]);
      for (const date of await modal.locator('[data-testid=dup-date]').allInnerTexts()) {
        expect(date).toMatch(/\d{1,2}:\d{2}/);
      }
      expect(await modal.locator('[data-testid=dup-worker]').nth(1).getAttribute('href')).toBe(
        `/admin/users/${s.original.id}`,
      );
      // both pictures load, each a link to its full proof
      const thumbs = modal.locator('[data-testid=dup-thumb]');
      expect(await thumbs.count()).toBe(2);
      for (let i = 0; i < 2; i++) {
        await thumbs.nth(i).scrollIntoViewIfNeeded();
        await expect
          .poll(() =>
            thumbs
              .nth(i)
              .locator('img')
              .evaluate((img) => (img as HTMLImageElement).naturalWidth),
          )
          .toBeGreaterThan(0);
        const href = await thumbs.nth(i).getAttribute('href');
        expect(href).toContain('/api/');
        expect(await thumbs.nth(i).getAttribute('target')).toBe('_blank');
        expect(href).not.toBe(await thumbs.nth(i).locator('img').getAttribute('src'));
      }
      // side by side: the same top, the match to the right (on the phone too)
      const [left, right] = [
        await box(page, '[data-testid=dup-card]', 0),
        await box(page, '[data-testid=dup-card]', 1),
      ];
      expect(Math.abs(left.y - right.y)).toBeLessThan(2);
      expect(right.x).toBeGreaterThan(left.x + left.width - 1);
      await snap(page, `fraud-evidence-${lang}-${device}`);

      // dismissing asks for a note first, then says who dismissed it and why
      await duplicate.locator('[data-testid=flag-dismiss-open]').click();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
        'flag-dismiss-note',
      );
      await duplicate.locator('[data-testid=flag-dismiss-submit]').click();
      expect(await duplicate.locator('.field-error').innerText()).toContain(text.noteRequired);
      const note =
        lang === 'en'
          ? 'Same family, asked them by phone: two real people.'
          : 'Aynı aile, telefonla sordum: iki gerçek kişi.';
      await duplicate.locator('[data-testid=flag-dismiss-note]').fill(note);
      await snap(page, `fraud-dismiss-note-${lang}-${device}`);
      await duplicate.locator('[data-testid=flag-dismiss-submit]').click();
      await expect.poll(() => duplicate.getAttribute('data-dismissed')).toBe('true');
      const dismissedNote = await duplicate.locator('[data-testid=flag-dismissed-note]').innerText();
      expect(dismissedNote).toContain(text.dismissedBy);
      expect(dismissedNote).toContain(note);
      // the row's badge follows at once: only "too fast" is left open
      await expect.poll(() => badge.getAttribute('data-count')).toBe('1');
      expect(await badge.getAttribute('data-kinds')).toBe('too_fast');
      const stored = await ok<AdminSubmissionDto>('GET', `/admin/submissions/${s.duplicateId}`, adminToken);
      expect(stored.flags?.find((f) => f.kind === 'duplicate_proof')).toMatchObject({
        dismissed: true,
        dismissNote: note,
        dismissedBy: { name: 'Admin' },
      });

      // the last open flag dismissed: the badge goes; the item stays on screen to be decided
      await tooFast.locator('[data-testid=flag-dismiss-open]').click();
      await tooFast
        .locator('[data-testid=flag-dismiss-note]')
        .fill(lang === 'en' ? 'A quick task for them.' : 'Onlar için kısa bir görev.');
      await tooFast.locator('[data-testid=flag-dismiss-submit]').click();
      await expect.poll(() => tooFast.getAttribute('data-dismissed')).toBe('true');
      await expect.poll(() => badge.count()).toBe(0);
      expect(await page.locator('[data-testid=quick-approve]').isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      // loaded again, the Flagged filter leaves it out: only the copier's other proof is left
      await page.reload();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain(s.taskTitles[0]);

      // withdrawals: the Flagged filter shows the shared payout, explained, the other account linked
      await page.goto(`/admin/withdrawals?q=${encodeURIComponent(s.prefix)}`);
      const wRows = page.locator('[data-testid=withdrawal-row]');
      await expect.poll(() => wRows.count()).toBe(2);
      // a click, not check(): the box follows the URL, which the router may update a moment later
      const flaggedBox = page.locator('[data-testid=withdrawals-filter-flagged]');
      await flaggedBox.click();
      await page.waitForURL(/[?&]flagged=true/);
      await expect.poll(() => flaggedBox.isChecked()).toBe(true);
      await expect.poll(() => wRows.count()).toBe(1);
      expect(await wRows.first().innerText()).toContain(s.copier.name);
      const wBadge = wRows.first().locator('[data-testid=flag-badge]');
      expect(await wBadge.getAttribute('data-kinds')).toBe('shared_payout');
      await snap(page, `fraud-withdrawals-flagged-${lang}-${device}`);
      await wBadge.click();
      const wModal = page.locator('[data-testid=withdrawal-flags]');
      await wModal.waitFor();
      const payout = wModal.locator('[data-testid=flag][data-kind=shared_payout]');
      expect(await payout.locator('[data-testid=flag-message]').innerText()).toBe(text.sharedPayout);
      const related = payout.locator('[data-testid=flag-related-account]');
      await expect.poll(() => related.innerText()).toBe(s.original.name);
      expect(await related.getAttribute('href')).toBe(`/admin/users/${s.original.id}`);
      await snap(page, `fraud-withdrawal-flags-${lang}-${device}`);

      // another admin dismisses it meanwhile: the refusal is shown, then who dismissed it
      const [w] = (
        await ok<{ items: WithdrawalDto[] }>(
          'GET',
          `/admin/withdraws?flagged=true&q=${encodeURIComponent(s.prefix)}`,
          adminToken,
        )
      ).items;
      const flagId = w?.flags?.[0]?._id ?? '';
      await payout.locator('[data-testid=flag-dismiss-open]').click();
      await payout.locator('[data-testid=flag-dismiss-note]').fill('Ortak hesap, aile.');
      const other = await api('PUT', `/admin/flags/${flagId}/dismiss`, adminToken, {
        note: 'Başka bir yönetici.',
      });
      expect(other.status).toBe(200);
      await payout.locator('[data-testid=flag-dismiss-submit]').click();
      await page.locator('.toast', { hasText: text.alreadyDismissed }).waitFor();
      // the list was loaded again: nothing flagged is left here, and its window closed with it
      await page.locator('[data-testid=withdrawals-empty]').waitFor();
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);

      // the copier's user page names the original account, linked by the IBAN
      await page.goto(`/admin/users/${s.copier.id}`);
      const linked = page.locator('[data-testid=user-linked]');
      await linked.locator('[data-testid=linked-account]').first().waitFor();
      expect(await linked.locator('h2').innerText()).toBe(text.linkedTitle);
      expect(await linked.locator('[data-testid=linked-account]').count()).toBe(1);
      expect(await linked.locator('[data-testid=linked-account-name]').innerText()).toBe(s.original.name);
      expect(await linked.locator('[data-testid=linked-account-name]').getAttribute('href')).toBe(
        `/admin/users/${s.original.id}`,
      );
      const way = linked.locator('[data-testid=linked-way]');
      expect(await way.getAttribute('data-via')).toBe('payout');
      expect(await way.innerText()).toContain(text.samePayout);
      expect((await way.innerText()).replace(/\s/g, '')).toContain(s.iban);
      await snap(page, `fraud-user-linked-${lang}-${device}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('shows an account with no links as such', async () => {
    const alone = await register('Yalnız Kullanıcı');
    const { context, page, errors } = await adminPage('en', SMALL_LAPTOP);
    await page.goto(`/admin/users/${alone.id}`);
    await page.locator('[data-testid=user-linked-empty]').waitFor();
    expect(await page.locator('[data-testid=user-linked-empty]').innerText()).toBe(
      'No other account shares a payout account, a device or a registration address with this one.',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sets, shows and clears the minimum seconds of a task (en, laptop)', async () => {
    const id = await createTask(adminToken, {
      title: 'Süre görevi',
      description: 'Videoyu sonuna kadar izleyin.',
      reward: 3,
      maxCompletions: 10,
      estimatedTime: 8,
      minSeconds: 600,
    });
    const { context, page, errors } = await adminPage('en', SMALL_LAPTOP);
    await page.goto(`/admin/tasks/edit/${id}`);
    const input = page.locator('[data-testid=min-seconds]');
    await input.waitFor();
    expect(await input.inputValue()).toBe('600');
    const hint = page.locator('[data-testid=min-seconds-hint]');
    expect(await hint.innerText()).toContain('In force for this task: 600 s.');
    // blank: a quarter of the 8 minutes
    await input.fill('');
    expect(await hint.innerText()).toContain('Blank now gives 120 s.');
    await snap(page, 'fraud-task-min-seconds-en-laptop');
    await input.fill('90000');
    await page.locator('[data-testid=task-form] button[type=submit]').click();
    await page.locator('#minSeconds-error').waitFor();
    expect(await page.locator('#minSeconds-error').innerText()).toBe('This value is invalid');
    await input.fill('');
    await page.locator('[data-testid=task-form] button[type=submit]').click();
    await page.waitForURL(/\/admin\/tasks$/);
    const task = await ok<{ minSeconds: number | null; minSecondsInForce: number }>(
      'GET',
      `/tasks/${id}`,
      adminToken,
    );
    expect(task).toMatchObject({ minSeconds: null, minSecondsInForce: 120 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
