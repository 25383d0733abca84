import { beforeAll, describe, expect, it } from 'vitest';
import enTasks from '../locales/en/tasks.json';
import { apiClient, apiLogin } from './api';
import { localeKeys, snapWith } from './checks';
import { COMBOS, newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The time limit of a started task in the browser (issue 15): the task page counts down the
 * time left each second, and at zero shows the expired state with "start again", the proof form
 * and the comment gone. The page's clock is moved on with Playwright's clock (the server keeps
 * its own). Both languages, phone and desktop.
 */

const suite = withServerAndBrowser({ TRUST_PROXY: '1' });
const { ok, createTask } = apiClient(() => suite.server.url);
const snap = snapWith({ rawKeys: localeKeys(enTasks) });
let adminToken: string;
let registrations = 0;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server.url);
});

async function register(name: string) {
  registrations++;
  const res = await fetch(`${suite.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.40.0.${registrations}` },
    body: JSON.stringify({ name, email: `life${registrations}@example.test`, password: 'secret123' }),
  });
  const body = (await res.json()) as { token: string };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return body.token;
}

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
