import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, apiLogin, makePng } from './api';
import { snapWith } from './checks';
import { type Lang, newPage, withServerAndBrowser } from './harness';

/**
 * Every admin screen on the laptops admins use (1280x800 and 1366x768), in both languages, with
 * the long names, IBANs and notes real data has: no action button lies outside the viewport or
 * outside its table's box, and a modal's actions stay in view while its body scrolls.
 */

const LAPTOPS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
] as const;
const CASES = (['tr', 'en'] as const).flatMap((lang) => LAPTOPS.map((size) => [lang, size] as const));

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask, startAndSubmit } = apiClient(() => suite.server.url);
const snap = snapWith({ scrollTop: false });
let adminToken: string;
let taskId: string;
let userId: string;

const LONG_NAME = 'Ayşegül Gökçenur Yılmazoğlu-Karaosmanoğlu';
const LONG_TITLE =
  'Instagram hesabımızı takip edin, son üç gönderimizi beğenin ve bir arkadaşınızı etiketleyin';

let registrations = 0;
async function register(name: string, email: string): Promise<{ id: string; token: string }> {
  registrations++;
  const res = await fetch(`${suite.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.30.0.${registrations}` },
    body: JSON.stringify({ name, email, password: 'secret123' }),
  });
  const body = (await res.json()) as { token: string; data: { _id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return { id: body.data._id, token: body.token };
}

/** A valid Turkish IBAN (mod-97) around 22 digits. */
function iban(bban: string): string {
  const rearranged = `${bban}TR00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of rearranged) rest = (rest * 10 + Number(digit)) % 97;
  return `TR${String(98 - rest).padStart(2, '0')}${bban}`;
}

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  taskId = await createTask(adminToken, {
    title: LONG_TITLE,
    description: 'Adımları izleyin ve ekran görüntüsü yükleyin.',
    reward: 125.5,
    maxCompletions: 1000,
    automaticComments: 'Harika bir hesap, herkese tavsiye ederim! Paylaşımlarınız çok faydalı.\nÇok beğendim',
  });
  const proof = makePng(640, 1280, (x, y) => [(x / 640) * 255, 90, (y / 1280) * 255]);
  for (let i = 0; i < 3; i++) {
    const user = await register(
      `${LONG_NAME} ${i + 1}`,
      `aysegul.gokcenur.yilmazoglu.${i}@ornek-sirket.com.tr`,
    );
    userId = user.id;
    await startAndSubmit(
      user.token,
      taskId,
      proof,
      'Takip ettim, üç gönderiyi beğendim ve arkadaşımı etiketledim. Ekran görüntüsü ekte, kontrol edebilirsiniz.',
    );
    await ok('PUT', `/admin/users/${user.id}`, adminToken, {
      name: `${LONG_NAME} ${i + 1}`,
      email: `aysegul.gokcenur.yilmazoglu.${i}@ornek-sirket.com.tr`,
      balance: 5000,
    });
    await ok('POST', '/withdraws', user.token, {
      amount: 1250.75,
      paymentMethod: i === 0 ? 'papara' : 'iban',
      accountDetails: {
        fullName: `${LONG_NAME} ${i + 1}`,
        accountNumber: i === 0 ? '1234567890' : iban(`000610051978645784132${i}`),
      },
    });
  }
  // one settled with a long reason, for the description column
  const last = await register('Reddedilen Kullanıcı', 'reddedilen@example.test');
  await ok('PUT', `/admin/users/${last.id}`, adminToken, {
    name: 'Reddedilen Kullanıcı',
    email: 'reddedilen@example.test',
    balance: 100,
  });
  const settled = await ok<{ _id: string }>('POST', '/withdraws', last.token, {
    amount: 50,
    paymentMethod: 'iban',
    accountDetails: { fullName: 'Reddedilen Kullanıcı', accountNumber: iban('0006100519786457841399') },
  });
  await ok('PUT', `/admin/withdraws/${settled._id}/reject`, adminToken, {
    reason: 'Hesap sahibinin adı kayıtlı adla eşleşmiyor; lütfen kendi adınıza açılmış bir hesap girin.',
  });
}, 180_000);

async function adminPage(lang: Lang, size: { width: number; height: number }, path: string): Promise<Page> {
  const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
  await context.addInitScript(() => localStorage.setItem('installBannerDismissed', '1'));
  await page.goto('/');
  await page.evaluate((t) => localStorage.setItem('token', t), adminToken);
  await page.goto(path);
  await page.locator('.admin-content').waitFor();
  return page;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Buttons and button-like links that are cut off: outside the viewport's width, or their table's box. */
async function cutOff(page: Page, scope: Locator): Promise<string[]> {
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  const problems: string[] = [];
  const actions = scope.locator('button:visible, a.btn:visible, select:visible');
  for (let i = 0; i < (await actions.count()); i++) {
    const action = actions.nth(i);
    const box = (await action.boundingBox()) as Box | null;
    if (!box) continue;
    const label = ((await action.getAttribute('aria-label')) ?? (await action.textContent()) ?? '').trim();
    if (box.x < -1 || box.x + box.width > viewport.width + 1) {
      problems.push(
        `${label}: ${Math.round(box.x)}..${Math.round(box.x + box.width)} outside 0..${viewport.width}`,
      );
    }
    const table = action.locator('xpath=ancestor::table[1]');
    if ((await table.count()) > 0) {
      const wrap = (await table.locator('xpath=..').boundingBox()) as Box | null;
      if (wrap && (box.x < wrap.x - 1 || box.x + box.width > wrap.x + wrap.width + 1)) {
        problems.push(
          `${label}: outside its table (${Math.round(box.x + box.width)} > ${Math.round(wrap.x + wrap.width)})`,
        );
      }
    }
  }
  return problems;
}

/** The open modal's header and footer buttons are all within the viewport, also vertically. */
async function modalActionsInView(page: Page): Promise<string[]> {
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  const problems: string[] = [];
  const actions = page.locator(
    'dialog[open] :is(.modal-header, .modal-footer, .form-actions) :is(button, select):visible',
  );
  expect(await actions.count()).toBeGreaterThan(0);
  for (let i = 0; i < (await actions.count()); i++) {
    const box = (await actions.nth(i).boundingBox()) as Box | null;
    const label = ((await actions.nth(i).textContent()) ?? '').trim();
    if (
      !box ||
      box.y < 0 ||
      box.y + box.height > viewport.height + 1 ||
      box.x + box.width > viewport.width + 1
    ) {
      problems.push(`${label}: ${JSON.stringify(box)}`);
    }
  }
  return problems;
}

/**
 * The emails on the screen that wrap inside a word, each written with a slash where it breaks
 * ("sule.gunes@example.co/m"): a break is fine only after the @, before a dot or after a hyphen.
 */
async function emailsBrokenMidWord(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => {
    const bad: string[] = [];
    for (const el of els) {
      const chars: { ch: string; top: number }[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let i = 0; i < node.data.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect) chars.push({ ch: node.data[i], top: rect.top });
        }
      }
      const text = chars.map((c) => c.ch).join('');
      for (let i = 1; i < chars.length; i++) {
        const wrapped = chars[i].top > chars[i - 1].top + 2;
        const fine = chars[i - 1].ch === '@' || chars[i].ch === '.' || chars[i - 1].ch === '-';
        if (wrapped && !fine) bad.push(`${text.slice(0, i)}/${text.slice(i)}`);
      }
    }
    return bad;
  });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll).toBeLessThanOrEqual(client);
}

async function check(page: Page, name: string): Promise<void> {
  await snap(page, name);
  expect(await cutOff(page, page.locator('.admin-main')), name).toEqual([]);
  await noSidewaysScroll(page);
}

describe('admin screens on laptops', () => {
  it.each(CASES)('fit %s at %o', async (lang, size) => {
    const tag = `${lang}-${size.width}x${size.height}`;
    const name = (screen: string) => `admin-laptop-${screen}-${tag}`;

    const dashboard = await adminPage(lang, size, '/admin');
    await dashboard.locator('[data-testid=pending-withdrawals]').waitFor();
    await check(dashboard, name('dashboard'));
    await dashboard.context().close();

    const tasks = await adminPage(lang, size, '/admin/tasks');
    await tasks.locator('table tbody tr').first().waitFor();
    await check(tasks, name('tasks'));
    await tasks.goto(`/admin/tasks/edit/${taskId}`);
    await tasks.locator('form').first().waitFor();
    await check(tasks, name('task-edit'));
    await tasks.goto('/admin/tasks/new');
    await tasks.locator('form').first().waitFor();
    await check(tasks, name('task-new'));
    await tasks.context().close();

    const users = await adminPage(lang, size, '/admin/users');
    await users.locator('[data-testid=user-row]').first().waitFor();
    await check(users, name('users'));
    // the long addresses wrap at their dots and @, never inside a word
    expect(await users.locator('[data-testid=user-row] .email-text').count()).toBeGreaterThan(0);
    expect(await emailsBrokenMidWord(users, '[data-testid=user-row] .email-text')).toEqual([]);
    await users.locator('[data-testid=user-row]').first().locator('button').first().click();
    await users.locator('dialog[open]').waitFor();
    expect(await modalActionsInView(users)).toEqual([]);
    await snap(users, name('user-edit'));
    await users.goto(`/admin/users/${userId}`);
    await users.locator('.admin-content h1').waitFor();
    await users.waitForLoadState('networkidle');
    await check(users, name('user-detail'));
    await users.context().close();

    const subs = await adminPage(lang, size, '/admin/submissions');
    await subs.locator('[data-testid=submission-row]').first().waitFor();
    await check(subs, name('submissions'));
    expect(await emailsBrokenMidWord(subs, '[data-testid=submission-row] .email-text')).toEqual([]);
    await subs.locator('[data-testid=submission-row]').first().locator('[data-testid=view-evidence]').click();
    await subs.locator('[data-testid=evidence-image]').waitFor();
    expect(await modalActionsInView(subs)).toEqual([]);
    // a quick reject without a reason: its message is in view too
    await subs.locator('[data-testid=quick-reject]').click();
    const error = subs.locator('#quick-reason-error');
    await error.waitFor();
    const errorBox = (await error.boundingBox()) as Box;
    expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(size.height);
    await snap(subs, name('evidence'));
    await subs.locator('[data-testid=full-review]').click();
    await subs.locator('#review-feedback').waitFor();
    expect(await modalActionsInView(subs)).toEqual([]);
    await snap(subs, name('review'));
    await subs.context().close();

    const withdrawals = await adminPage(lang, size, '/admin/withdrawals');
    await withdrawals.locator('[data-testid=withdrawal-row]').first().waitFor();
    await check(withdrawals, name('withdrawals'));
    await withdrawals.locator('[data-testid=withdrawal-reject]').first().click();
    await withdrawals.locator('dialog[open]').waitFor();
    expect(await modalActionsInView(withdrawals)).toEqual([]);
    await snap(withdrawals, name('withdrawal-reject'));
    // a reversed date range says so instead of showing an empty list
    await withdrawals.goto('/admin/withdrawals?from=2026-11-20&to=2026-11-01');
    await withdrawals.locator('[data-testid=withdrawals-reversed]').waitFor();
    expect(await withdrawals.locator('#withdrawal-to-error').textContent()).toBe(
      lang === 'tr' ? 'Bitiş tarihi başlangıç tarihinden önce' : 'The end date is before the start date',
    );
    await snap(withdrawals, name('withdrawals-reversed'));
    await withdrawals.context().close();

    const settings = await adminPage(lang, size, '/admin/settings');
    await settings.locator('form').first().waitFor();
    await check(settings, name('settings'));
    await settings.locator('[data-testid=open-notify]').click();
    await settings.locator('dialog[open]').waitFor();
    expect(await modalActionsInView(settings)).toEqual([]);
    await snap(settings, name('notify'));
    await settings.context().close();
  });
});
