import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from './api';
import { checkAccessibility } from './axe';
import { snap } from './checks';
import { newPage, PHONE, withServerAndBrowser } from './harness';

/**
 * The System screen, as an admin reads it: the server, storage, backups (scheduled, none made
 * yet: a warning), the background jobs' runs and the queues, in both languages, on a phone and
 * on a laptop.
 */

const suite = withServerAndBrowser({ BACKUP_INTERVAL_HOURS: '24', NODE_NAME: 'e2e-node' });
let token: string;
// one sign-in for the four views: more from one address would meet the sign-in throttle
beforeAll(async () => {
  token = await apiLogin(suite.server.url);
});

describe('the System screen', () => {
  it.each([
    ['en', 'laptop', { width: 1366, height: 768 }],
    ['tr', 'laptop', { width: 1280, height: 800 }],
    ['en', 'phone', PHONE],
    ['tr', 'phone', PHONE],
  ] as const)('shows how the server is doing (%s, %s)', async (lang, device, size) => {
    const { context, page } = await newPage(suite.browser, suite.server.url, { lang, size });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto('/');
    await page.evaluate((t) => {
      localStorage.setItem('token', t);
      localStorage.setItem('installBannerDismissed', '1');
    }, token);
    await page.goto('/admin/system');
    await page.locator('[data-testid=system-version]').waitFor();
    expect(await page.locator('[data-testid=system-engine]').textContent()).toContain('SQLite');
    expect(await page.locator('[data-testid=system-backup-schedule]').textContent()).toContain('24');
    // the jobs of the start have run and say so
    await page.locator('[data-testid=job-expiry]').waitFor();
    expect(await page.locator('[data-testid=job-expiry] .badge').textContent()).toBe(
      lang === 'tr' ? 'Başarılı' : 'Succeeded',
    );
    // backups scheduled: until the first one (a minute after the start) the operator is told
    // there is none, then the screen shows it
    const last = (await page.locator('[data-testid=system-backup-last]').textContent()) ?? '';
    if (/None yet|Henüz yok/.test(last)) {
      expect(await page.locator('[data-testid=system-warnings]').textContent()).toContain(
        lang === 'tr' ? 'henüz yedek alınmadı' : 'No backup has been made yet',
      );
    } else {
      expect(last).toMatch(/\d/);
      expect(await page.locator('[data-testid=system-ok]').count()).toBe(1);
    }
    // this site has no SMTP_URL: the mail card says no mail goes out, and nothing waits
    expect(await page.locator('[data-testid=system-mail-smtp]').textContent()).toContain(
      lang === 'tr' ? 'Kurulu değil' : 'Not set up',
    );
    expect(await page.locator('[data-testid=system-mail-pending]').textContent()).toContain(
      lang === 'tr' ? 'Yok' : 'None',
    );
    expect(await page.title()).toContain(lang === 'tr' ? 'Sistem' : 'System');
    if (device === 'laptop') {
      // reached from the admin menu too
      expect(await page.locator('.admin-nav a[href="/admin/system"]').getAttribute('aria-current')).toBe(
        'page',
      );
    }
    expect(await checkAccessibility(page, `system-${lang}-${device}`)).toEqual([]);
    await snap(page, `system-${lang}-${device}`, {
      rawKeys: /^(warnings|server|storage|backup|jobs|queues)\./,
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
