import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng, registrar } from './api';
import { snapWith, text } from './checks';
import { type Lang, newPage, PHONE, signedInPage, withServerAndBrowser } from './harness';

/**
 * The legal pages and the saved payout account, in both languages at 390x844 and 1280x800,
 * each screen through the accessibility gate: the sign-up form and the footer link the three
 * legal pages; an admin's text shows as plain text (markup as characters); the withdraw form
 * remembers the account, shows it masked, asks before replacing it, and repeats in two taps.
 */

const suite = withServerAndBrowser();
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.61', 'legal');
const snap = snapWith({ rawKeys: /\b(legal|legalSettings|savedAccount|withdraw)\.[a-zA-Z_.]+/g });
const LAPTOP = { width: 1280, height: 800 } as const;
const COMBOS = [
  ['tr', PHONE, 'phone'],
  ['en', LAPTOP, 'laptop'],
  ['en', PHONE, 'phone'],
  ['tr', LAPTOP, 'laptop'],
] as const;

/** A valid Turkish IBAN for a made-up account (ISO 13616 check digits). */
function iban(bban: string): string {
  let rest = 0;
  for (const d of `${bban}292700`) rest = (rest * 10 + Number(d)) % 97;
  return `TR${String(98 - rest).padStart(2, '0')}${bban}`;
}

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
let adminToken: string;
let taskId: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  // small payouts, so one reward pays for three withdrawals
  await ok('PUT', '/settings', adminToken, { payment: { minimumPayout: 5 } });
  taskId = await createTask(adminToken, {
    title: 'Uygulamayı indir ve değerlendir',
    description: 'Uygulamayı indir, beş yıldız ver.',
    reward: 30,
    maxCompletions: 20,
    estimatedTime: 5,
    taskLink: 'https://example.com/app',
  });
}, 60_000);

/** A worker holding 30 TL from one approved proof. */
async function paidWorker(name: string) {
  const user = await register(name);
  const proof = makePng(80, 160, (x, y) => [x * 3, 90, y]);
  const id = await startAndSubmit(user.token, taskId, proof);
  await ok('PUT', `/submissions/${id}/review`, adminToken, {
    status: 'approved',
    feedbackCode: 'task_completed',
  });
  return user;
}

describe('legal pages and the saved payout account', () => {
  it.each(COMBOS)('in %s at %o (%s)', async (lang: Lang, size, label) => {
    const name = (screen: string) => `legal-${screen}-${lang}-${label}`;
    const t = (tr: string, en: string) => (lang === 'tr' ? tr : en);

    // a visitor: the sign-up form links the three pages (in a new tab) and the footer does too
    const visitor = await newPage(suite.browser, suite.server.url, { lang, size });
    const { page: vp } = visitor;
    const visitorErrors: string[] = [];
    vp.on('pageerror', (e) => visitorErrors.push(e.message));
    await vp.goto('/register');
    await vp.locator('#terms-links a').first().waitFor();
    expect(
      await vp.locator('#terms-links a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
    ).toEqual(['/terms', '/privacy', '/kvkk']);
    expect(await vp.locator('#terms-links a').first().getAttribute('target')).toBe('_blank');
    expect(await vp.locator('#terms').getAttribute('aria-describedby')).toBe('terms-links');
    await snap(vp, name('register'));
    const footerLinks = vp.locator('.footer-legal a');
    expect(await footerLinks.count()).toBe(3);
    await footerLinks.nth(2).click();
    await vp.locator('[data-testid=legal-kvkk] h2').first().waitFor();
    expect(new URL(vp.url()).pathname).toBe('/kvkk');
    expect(await text(vp, '[data-testid=legal-kvkk] h1')).toBe(
      t('KVKK aydınlatma metni', 'KVKK information notice'),
    );
    await snap(vp, name('kvkk'));
    await vp.goto('/privacy');
    await vp.locator('[data-testid=legal-privacy] h2').first().waitFor();
    await snap(vp, name('privacy'));

    // the admin's legal tab: the first run saves a Turkish text with markup in it
    const admin = await signedInPage(suite.browser, suite.server.url, adminToken, { lang, size });
    await admin.page.goto('/admin/settings?tab=legal');
    await admin.page.locator('#settings-legal-terms-tr').waitFor();
    if (label === 'phone' && lang === 'tr') {
      expect(await admin.page.locator('[data-testid=legal-terms-tr-template]').count()).toBe(1);
      await admin.page
        .locator('#settings-legal-terms-tr')
        .fill(
          `# Kullanım Koşulları\nBu site ${HOSTILE} görev ve ödül sitesidir.\n\n- Birinci kural\n- İkinci kural`,
        );
      await admin.page.locator('[data-testid=legal-terms-save]').click();
      await expect
        .poll(() => text(admin.page, '#legal-terms-title ~ [data-testid=settings-success]'))
        .toBe('Ayarlar kaydedildi.');
      await expect.poll(() => admin.page.locator('[data-testid=legal-terms-tr-template]').count()).toBe(0);
    }
    // the English terms are still the template, and the tab says so
    expect(await admin.page.locator('[data-testid=legal-terms-en-template]').count()).toBe(1);
    await snap(admin.page, name('admin-tab'));
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    // the terms as a visitor reads them: the Turkish text typed, its markup shown as characters
    await vp.goto('/terms');
    await vp.locator('[data-testid=legal-terms] h2').first().waitFor();
    const article = vp.locator('[data-testid=legal-terms]');
    if (lang === 'tr') {
      expect(await article.locator('h2').first().textContent()).toBe('Kullanım Koşulları');
      expect(await article.locator('p').filter({ hasText: 'görev ve ödül' }).textContent()).toContain(
        HOSTILE,
      );
      expect(await article.locator('li').allTextContents()).toEqual(['Birinci kural', 'İkinci kural']);
      expect(await vp.locator('[data-testid=legal-template]').count()).toBe(0);
    } else {
      expect(await article.locator('h2').first().textContent()).toBe('TEMPLATE: review before publishing');
      expect(await vp.locator('[data-testid=legal-template]').count()).toBe(1);
    }
    expect(await article.locator('img').count()).toBe(0);
    expect(await vp.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await snap(vp, name('terms'));
    expect(visitorErrors).toEqual([]);
    await visitor.context.close();

    // a worker's three withdrawals: typed, replaced (confirmed), then repeated in two taps
    const worker = await paidWorker(t('Zeynep Kaya', 'Emily Stone'));
    const first = iban(
      `00061005197864578413${String(COMBOS.findIndex((c) => c[0] === lang && c[2] === label)).padStart(2, '0')}`,
    );
    const { context, page, errors } = await signedInPage(suite.browser, suite.server.url, worker.token, {
      lang,
      size,
    });
    await page.goto('/profile');
    const open = async () => {
      await page.locator('[data-testid=withdraw-button]').click();
      await page.locator('#withdraw-amount').waitFor();
    };
    const closed = () => expect.poll(() => page.locator('#withdraw-amount').count()).toBe(0);

    await open();
    expect(await page.locator('[data-testid=saved-account]').count()).toBe(0);
    await page.locator('#withdraw-amount').fill('5');
    await page.locator('#withdraw-paymentMethod').selectOption('iban');
    await page.locator('#withdraw-fullName').fill(worker.name);
    await page.locator('#withdraw-accountNumber').fill(first);
    await snap(page, name('withdraw-new'));
    await page.locator('[data-testid=withdraw-submit]').click();
    await closed();

    // the next opening: the account remembered and masked, the whole balance offered
    await open();
    await page.locator('[data-testid=saved-account]').waitFor();
    const masked = await text(page, '[data-testid=saved-account-number]');
    expect(masked.replace(/\s/g, '')).toBe(`${'*'.repeat(first.length - 4)}${first.slice(-4)}`);
    expect(await page.locator('#withdraw-amount').inputValue()).toBe('25.00');
    await snap(page, name('withdraw-saved'));
    // changing it: typed, then confirmed before anything is sent
    await page.locator('[data-testid=saved-account-change]').click();
    await page.locator('#withdraw-amount').fill('5');
    await page.locator('#withdraw-paymentMethod').selectOption('papara');
    await page.locator('#withdraw-accountNumber').fill('1234567890');
    await page.locator('[data-testid=withdraw-submit]').click();
    await page.locator('[data-testid=saved-account-confirm]').waitFor();
    expect(await text(page, '[data-testid=withdraw-submit]')).toBe(
      t('Evet, değiştir ve gönder', 'Yes, replace and send'),
    );
    await snap(page, name('withdraw-confirm'));
    const before = suite.server
      .db()
      .prepare('SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?')
      .get(worker.id) as {
      n: number;
    };
    expect(before.n).toBe(1);
    await page.locator('[data-testid=withdraw-submit]').click();
    await closed();

    // the repeat: open, send (the papara account and the 20 TL left, nothing typed)
    await open();
    await page.locator('[data-testid=saved-account]').waitFor();
    expect((await text(page, '[data-testid=saved-account-number]')).replace(/\s/g, '')).toBe('******7890');
    await page.locator('[data-testid=withdraw-submit]').click();
    await closed();

    const rows = suite.server
      .db()
      .prepare(
        'SELECT amount, payment_method, account_number FROM withdrawals WHERE user_id = ? ORDER BY created_at, rowid',
      )
      .all(worker.id);
    expect(rows).toEqual([
      { amount: 500, payment_method: 'iban', account_number: first },
      { amount: 500, payment_method: 'papara', account_number: '1234567890' },
      { amount: 2000, payment_method: 'papara', account_number: '1234567890' },
    ]);
    expect(
      suite.server
        .db()
        .prepare('SELECT payment_method, full_name FROM payout_accounts WHERE user_id = ?')
        .all(worker.id),
    ).toEqual([{ payment_method: 'papara', full_name: worker.name }]);
    await snap(page, name('profile-after'));
    expect(errors).toEqual([]);
    await context.close();
  });
});
