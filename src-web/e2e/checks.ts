import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { shot } from './harness';

/** Elements wider than the viewport (their tag, class and right edge), for a readable failure. */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 10)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`,
      );
  });
}

/** Every key path of a locale namespace (plural suffixes dropped), for `rawKeys`. */
export function localeKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(/_(one|other)$/, '')];
  return [
    ...new Set(Object.entries(value).flatMap(([k, v]) => localeKeys(v, prefix ? `${prefix}.${k}` : k))),
  ];
}

/** Locale keys shown instead of text: a pattern is matched on innerText, a key list on textContent. */
export async function rawKeys(page: Page, keys: RegExp | readonly string[]): Promise<string[]> {
  if (keys instanceof RegExp) return [...((await page.locator('body').innerText()).match(keys) ?? [])];
  return page.evaluate((list) => {
    const text = document.body.textContent ?? '';
    return list.filter((k) => new RegExp(`(^|[^\\w.])${k.replace(/\./g, '\\.')}($|[^\\w.])`).test(text));
  }, keys);
}

/** What `snap` checks before its screenshot, and whether it scrolls to the top first. */
export interface SnapOptions {
  /** Fail when something sticks out sideways (default true). */
  overflow?: boolean;
  /** Fail when one of these locale keys shows untranslated (see `rawKeys`). */
  rawKeys?: RegExp | readonly string[];
  /** Scroll to the top first, so a sticky top bar is not painted mid-page (default true). */
  scrollTop?: boolean;
}

/** A full-page screenshot, after checking that nothing sticks out sideways and no key shows raw. */
export async function snap(page: Page, name: string, options: SnapOptions = {}): Promise<void> {
  if (options.overflow ?? true) expect(await overflowing(page), name).toEqual([]);
  if (options.rawKeys) expect(await rawKeys(page, options.rawKeys), name).toEqual([]);
  if (options.scrollTop ?? true) await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
}

/** `snap` with these options fixed, for a spec whose screenshots all check the same things. */
export function snapWith(options: SnapOptions): (page: Page, name: string) => Promise<void> {
  return (page, name) => snap(page, name, options);
}

/** The trimmed text of the first element the selector finds ('' when it has none). */
export async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').trim();
}
