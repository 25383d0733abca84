import { describe, expect, it } from 'vitest';
import { isAllowedNavigation, isTrustedSender, secureWebPreferences, shouldOpenExternally } from './security';

const app = 'http://127.0.0.1:43817';

describe('isAllowedNavigation', () => {
  it.each([
    [`${app}/admin`, true],
    [`${app}/admin/users?page=2#top`, true],
    [`${app}/`, true],
    ['http://127.0.0.1:43818/admin', false],
    ['http://localhost:43817/admin', false],
    ['https://127.0.0.1:43817/admin', false],
    ['https://evil.example/admin', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['about:blank', false],
    ['not a url', false],
  ])('%s -> %s', (url, allowed) => {
    expect(isAllowedNavigation(url, app)).toBe(allowed);
  });

  it('follows the origin of a remote server, path and all', () => {
    expect(isAllowedNavigation('https://panel.example.com/admin/tasks', 'https://panel.example.com')).toBe(
      true,
    );
    expect(
      isAllowedNavigation('https://panel.example.com.evil.test/admin', 'https://panel.example.com'),
    ).toBe(false);
  });
});

describe('shouldOpenExternally', () => {
  it.each([
    ['https://instagram.com/taskreward', true],
    ['http://example.com', true],
    ['mailto:destek@taskreward.app', false],
    ['file:///home/user/.ssh/id_rsa', false],
    ['javascript:alert(1)', false],
    ['smb://server/share', false],
    ['vbscript:msgbox', false],
    ['', false],
  ])('%s -> %s', (url, external) => {
    expect(shouldOpenExternally(url)).toBe(external);
  });
});

describe('isTrustedSender', () => {
  const page = 'file:///opt/TaskReward/resources/app.asar/dist/desktop/connection.html';
  it.each([
    [page, true],
    [`${page}#x`, true],
    ['file:///tmp/connection.html', false],
    ['http://127.0.0.1:43817/admin', false],
    ['https://evil.example/opt/TaskReward/resources/app.asar/dist/desktop/connection.html', false],
  ])('%s -> %s', (sender, trusted) => {
    expect(isTrustedSender(sender, page)).toBe(trusted);
  });
});

describe('secureWebPreferences', () => {
  it('isolates the renderer: no Node, sandboxed, context isolation, no preload unless asked', () => {
    expect(secureWebPreferences()).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
    });
    expect(secureWebPreferences()).not.toHaveProperty('preload');
    expect(secureWebPreferences('/app/preload.cjs').preload).toBe('/app/preload.cjs');
  });
});
