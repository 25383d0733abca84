import { describe, expect, it } from 'vitest';
import { apiRegister, newPage, uiLogin, withServerAndBrowser } from './harness';

/**
 * An account guessed at from many addresses is locked to strangers, not to its owner: the browser
 * that signed in before keeps the account's device cookie (sent by the login form's same-origin
 * fetch) and signs in again from an address the account has never seen; a fresh browser is told
 * to try later. Behind a trusted proxy, so each request can say which address it comes from.
 */
const suite = withServerAndBrowser({ TRUST_PROXY: '1' });

describe('an account locked to strangers', () => {
  it('lets the browser that signed in before sign in again, and tells a new one to try later', async () => {
    const email = 'locked.owner@example.test';
    const password = 'owner-pass-1';
    await apiRegister(suite.server.url, { name: 'Kilitli Sahip', email, password });

    const owner = await newPage(suite.browser, suite.server.url, { lang: 'en' });
    await owner.context.setExtraHTTPHeaders({ 'X-Forwarded-For': '203.0.113.1' });
    await uiLogin(owner.page, email, password);
    await owner.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    const cookies = await owner.context.cookies(`${suite.server.url}/api/auth/login`);
    const device = cookies.find((c) => c.name.startsWith('device_'));
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    // scripts on the page cannot read it
    expect(await owner.page.evaluate(() => document.cookie)).not.toContain('device_');
    await owner.page.evaluate(() => localStorage.removeItem('token'));

    // a botnet: one wrong password from each of 25 addresses
    for (let i = 0; i < 25; i++) {
      await fetch(`${suite.server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.18.0.${i}` },
        body: JSON.stringify({ email, password: 'wrong-password' }),
      });
    }

    // the owner's browser, now from an address the account has never seen
    await owner.context.setExtraHTTPHeaders({ 'X-Forwarded-For': '203.0.113.2' });
    await uiLogin(owner.page, email, password);
    await owner.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await owner.context.close();

    const stranger = await newPage(suite.browser, suite.server.url, { lang: 'tr' });
    await stranger.context.setExtraHTTPHeaders({ 'X-Forwarded-For': '203.0.113.3' });
    await uiLogin(stranger.page, email, password);
    await expect
      .poll(() => stranger.page.locator('.notice-error').textContent())
      .toBe('Çok fazla deneme yapıldı, biraz sonra tekrar dene');
    expect(stranger.page.url()).toContain('/login');
    await stranger.context.close();
  });
});
