import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formalMarks } from '../locales/voice-register';
import { apiClient, apiLogin, makePng, registrar } from './api';
import { snapWith } from './checks';
import { type Lang, newPage, PHONE, signedInPage, withServerAndBrowser } from './harness';

/**
 * A visitor's first look and a worker's first task on a phone: the landing page's primary action
 * stands out from the hero and its tasks are the site's featured ones (the fixed samples only
 * while there are none); starting a task brings the worker to the comment to copy, keeps the way
 * to the proof in reach, and its messages stay clear of the navigation; the page speaks as "sen"
 * and names each state once. Both languages, 390x844 and 1280x800, through the axe gate.
 */

const suite = withServerAndBrowser();
const { ok, createTask } = apiClient(() => suite.server.url);
const register = registrar(() => suite.server.url, '10.38', 'first');
const snap = snapWith({ rawKeys: /\b(offer|featured|samples|hero)\.[a-zA-Z_.]+/g });
const LAPTOP = { width: 1280, height: 800 } as const;
const SIZES = [
  ['phone', PHONE],
  ['laptop', LAPTOP],
] as const;

let adminToken: string;
const taskIds: string[] = [];

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
  for (let i = 1; i <= 6; i++) {
    taskIds.push(
      await createTask(adminToken, {
        title: `İlk adım ${i}: uygulamayı indir ve değerlendir`,
        description:
          'Uygulamayı indir, beş yıldız ver ve kısa bir yorum yaz.\nYorumun görünür olsun.\n'.repeat(4),
        steps: Array.from({ length: 6 }, (_, s) => `Adım ${s + 1}: ekrandaki yönergeyi izle.`),
        requirements: ['Android ya da iOS telefon', 'Bir Google ya da Apple hesabı'],
        reward: 5 + i,
        maxCompletions: 50,
        estimatedTime: 90,
        timeLimitMinutes: 1440,
        automaticComments: 'Harika bir uygulama!\nÇok beğendim, tavsiye ederim.',
        taskLink: 'https://example.com/app',
      }),
    );
  }
}, 60_000);

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether the element's box lies (at least its top 40 px) within the visible viewport. */
async function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.top + Math.min(40, r.height) <= window.innerHeight;
  });
}

/** The WCAG contrast ratio of two CSS colours of the form rgb(r, g, b). */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((n) => {
      const c = Number(n) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe("the landing page's first impression", () => {
  it('makes its primary action primary and shows the fixed samples while no task is featured', async () => {
    for (const lang of ['tr', 'en'] as Lang[]) {
      for (const [label, size] of SIZES) {
        const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(err.message));
        await page.goto('/');
        const primary = page.locator('[data-testid=hero-primary]');
        await primary.waitFor();
        const colours = await page.evaluate(() => {
          const hero = document.querySelector('.hero') as HTMLElement;
          const button = document.querySelector('[data-testid=hero-primary]') as HTMLElement;
          return {
            stops: getComputedStyle(hero).backgroundImage.match(/rgb\([^)]*\)/g) ?? [],
            button: getComputedStyle(button).backgroundColor,
          };
        });
        // the hero is a gradient: the button must stand out against each end of it
        expect(colours.stops.length).toBeGreaterThanOrEqual(2);
        for (const stop of colours.stops) expect(contrast(colours.button, stop)).toBeGreaterThanOrEqual(3);
        // no featured task yet: the three fixed samples
        await page.locator('[data-testid=landing-samples]').waitFor();
        expect(await page.locator('[data-testid=landing-samples] .sample-task').count()).toBe(3);
        expect(await page.locator('[data-testid=landing-task]').count()).toBe(0);
        await snap(page, `first-landing-samples-${lang}-${label}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  });

  it('shows the featured tasks in their place, each opening its task', async () => {
    const featured = [taskIds[4], taskIds[1]];
    for (const id of featured) await ok('PUT', `/tasks/${id}/feature`, adminToken, { isFeatured: true });
    const titles = await Promise.all(
      featured.map(async (id) => (await ok<{ title: string }>('GET', `/tasks/${id}`, null)).title),
    );
    for (const lang of ['tr', 'en'] as Lang[]) {
      for (const [label, size] of SIZES) {
        const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
        await page.goto('/');
        await page.locator('[data-testid=landing-task]').first().waitFor();
        expect(await page.locator('[data-testid=landing-samples]').count()).toBe(0);
        const shown = await page.locator('[data-testid=landing-task] h3').allTextContents();
        expect([...shown].sort()).toEqual([...titles].sort());
        await snap(page, `first-landing-featured-${lang}-${label}`);
        if (lang === 'tr' && label === 'phone') {
          await page.locator('[data-testid=landing-task] h3 a').first().click();
          await page.waitForURL(/\/tasks\/[^/]+$/);
          expect(featured).toContain(page.url().split('/').pop());
        }
        await context.close();
      }
    }
  });
});

describe('a task on a phone', () => {
  it.each(['tr', 'en'] as const)(
    'brings the worker to the comment after the start, keeps the proof in reach and toasts off the navigation (%s)',
    async (lang) => {
      const worker = await register(lang === 'tr' ? 'Deniz Yıldız' : 'Dana Brooks');
      const taskId = taskIds[lang === 'tr' ? 2 : 3];
      const { context, page, errors } = await signedInPage(suite.browser, suite.server.url, worker.token, {
        lang,
        size: PHONE,
      });
      await page.goto(`/tasks/${taskId}`);
      const start = page.locator('[data-testid=start-task]');
      await start.waitFor();
      // durations in words: a day, an hour and a half
      expect(await page.locator('[data-testid=time-limit]').textContent()).toBe(
        lang === 'tr' ? '1 gün' : '1 day',
      );
      expect(await page.locator('[data-testid=task-side]').textContent()).toContain(
        lang === 'tr' ? '1 saat 30 dakika' : '1 hour 30 minutes',
      );
      await start.click();
      await page.locator('[data-testid=task-state][data-state=in_progress]').waitFor();
      // the comment to copy comes into view, its heading focused
      await expect.poll(() => inViewport(page, '[data-testid=comment-box]')).toBe(true);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('comment-title');
      // the toast sits clear of the top bar, the back link and the bottom bar
      const toast = page.locator('.toast').first();
      await toast.waitFor();
      const toastBox = (await toast.boundingBox()) as Box;
      for (const part of ['.topbar', '.bottombar', '[data-testid=task-action-bar]']) {
        const box = await page.locator(part).boundingBox();
        if (box) expect(overlaps(toastBox, box), part).toBe(false);
      }
      const back = await page.locator('.back-link').evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      });
      expect(overlaps(toastBox, back)).toBe(false);
      await snap(page, `first-task-started-${lang}-phone`);
      // back at the top the proof form is far below; the bar at the bottom takes the worker there
      await page.evaluate(() => window.scrollTo(0, 0));
      const bar = page.locator('[data-testid=task-action-bar]');
      expect(await inViewport(page, '#proof-form [type=submit]')).toBe(false);
      await expect.poll(() => bar.isVisible()).toBe(true);
      await page.locator('[data-testid=action-bar-proof]').click();
      await expect.poll(() => inViewport(page, '[data-testid=proof-form]')).toBe(true);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('proof-title');
      // with the form's own send button on screen, the bar steps aside
      await page.locator('#proof-form [type=submit]').scrollIntoViewIfNeeded();
      await expect.poll(() => bar.isVisible()).toBe(false);
      // one word per state: the task page says "in review" once it is sent
      await page.locator('#proof-file').setInputFiles({
        name: 'proof.png',
        mimeType: 'image/png',
        buffer: makePng(120, 240, (x, y) => [x * 2, 90, y]),
      });
      await page.locator('#proof-form [type=submit]').click();
      await page.locator('[data-testid=task-state][data-state=waiting]').waitFor();
      const stateText = (await page.locator('[data-testid=task-state]').textContent()) ?? '';
      const words = lang === 'tr' ? ['Tamamlandı', 'Beklemede'] : ['Completed', 'Pending'];
      for (const word of words) expect(stateText).not.toContain(word);
      expect(stateText).toContain(lang === 'tr' ? 'İncelemede' : 'In review');
      expect(await page.locator('[data-testid=task-action-bar]').count()).toBe(0);
      // the whole page speaks as "sen"
      if (lang === 'tr') expect(formalMarks(await page.locator('body').innerText())).toEqual([]);
      await snap(page, `first-task-waiting-${lang}-phone`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('keeps the toasts below the top bar on a laptop, clear of the back link', async () => {
    const worker = await register('Leyla Demir');
    const { context, page, errors } = await signedInPage(suite.browser, suite.server.url, worker.token, {
      lang: 'tr',
      size: LAPTOP,
    });
    await page.goto(`/tasks/${taskIds[5]}`);
    await page.locator('[data-testid=start-task]').click();
    const toast = page.locator('.toast').first();
    await toast.waitFor();
    const toastBox = (await toast.boundingBox()) as Box;
    const top = (await page.locator('.topbar').boundingBox()) as Box;
    expect(overlaps(toastBox, top)).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    const back = (await page.locator('.back-link').boundingBox()) as Box;
    expect(overlaps(toastBox, back)).toBe(false);
    expect(await page.locator('[data-testid=task-action-bar]').isVisible()).toBe(false);
    expect(formalMarks(await page.locator('body').innerText())).toEqual([]);
    await snap(page, 'first-task-started-tr-laptop');
    expect(errors).toEqual([]);
    await context.close();
  });
});
