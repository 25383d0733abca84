import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from './api';
import { apiRegister, DESKTOP, newPage, PHONE, signedInPage, withServerAndBrowser } from './harness';

/**
 * The app by keyboard: a skip link first, a user menu that takes focus into its items and gives
 * it back, dialogs that start at their first field (or their title), and a visible focus ring.
 */

const suite = withServerAndBrowser();
let userToken: string;
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  userToken = (
    await apiRegister(suite.server.url, {
      name: 'Klavye Kullanıcısı',
      email: 'keys@example.test',
      password: 'secret123',
    })
  ).token;
});

const focused = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}|${(el.textContent ?? '').trim().slice(0, 40)}`
      : '';
  });

describe('by keyboard', () => {
  it('offers a skip link as the first tab stop, which moves focus to the content', async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang: 'en', size: DESKTOP });
    await page.goto('/tasks');
    await page.locator('[data-testid=task-card], [data-testid=tasks-empty]').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a|Skip to content');
    expect(await page.locator('.skip-link').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatch(/^main#main/);
    await context.close();
  });

  it('moves into the user menu, between its items with the arrows, and back to its button on Escape', async () => {
    const { context, page } = await signedInPage(suite.browser, suite.server.url, userToken, {
      lang: 'tr',
      size: PHONE,
    });
    await page.goto('/tasks');
    const button = page.locator('[data-testid=user-menu]');
    // its name starts with what is seen beside the avatar on a laptop (axe's label-in-name rule)
    expect(await button.ariaSnapshot()).toMatch(/^- button "Klavye Kullanıcısı hesap menüsü"/);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('a|Profil');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('a|Kazançlarım');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('button|Çıkış yap');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('a|Profil');
    await page.keyboard.press('Escape');
    expect(await page.locator('[role=menu]').count()).toBe(0);
    expect(await focused(page)).toMatch(/^button\|/);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('opens a form dialog at its first field and a content dialog at its title', async () => {
    const { context, page } = await signedInPage(suite.browser, suite.server.url, adminToken, {
      lang: 'en',
      size: DESKTOP,
    });
    await page.goto('/admin');
    await page.locator('[data-testid=open-notify]').click();
    await page.locator('dialog[open]').waitFor();
    // the notification form's first field, not the close button
    expect(await focused(page)).toMatch(/^select#/);
    // and the focus ring is there to see
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(ring).toBe('solid');
    await context.close();
  });
});
