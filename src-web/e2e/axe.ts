// The accessibility gate of the browser tests: every page state they take a screenshot of is
// checked with axe-core (WCAG 2.x A and AA rules); a serious or critical violation fails the
// test. Each check is recorded under test-results/axe/, and the run's summary is printed at
// the end (global-setup.ts).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const AXE_DIR = join(process.cwd(), 'test-results', 'axe');
const BLOCKING = new Set(['serious', 'critical']);

let source: string | null = null;
function axeSource(): string {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** One line per blocking violation and node, readable in a failing test. */
function describe(violations: Violation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes
      .slice(0, 5)
      .map((n) => `${v.impact} ${v.id}: ${v.help} at ${n.target.join(' ')} ${n.html.slice(0, 120)}`),
  );
}

/**
 * Runs axe on the page as it is now and records the result under `name`; returns the blocking
 * violations (serious or critical), described. The script is evaluated through the DevTools
 * protocol, so the page's Content-Security-Policy stays in force for the app itself.
 */
export async function checkAccessibility(page: Page, name: string): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource());
  // a toast or dialog fading in has, for a few frames, the contrast of half its opacity: judge
  // the page as it settles (finite animations only; a spinner's never ends)
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => undefined)))`);
  const result = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  }).then((r) => ({ url: r.url, violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })) })) }))`)) as {
    url: string;
    violations: Violation[];
  };
  const blocking = result.violations.filter((v) => v.impact !== null && BLOCKING.has(v.impact));
  mkdirSync(AXE_DIR, { recursive: true });
  writeFileSync(
    join(AXE_DIR, `${name}.json`),
    JSON.stringify({
      name,
      url: result.url,
      blocking: describe(blocking),
      other: result.violations.length - blocking.length,
    }),
  );
  return describe(blocking);
}

/** Clears the records of an earlier run (global setup). */
export function resetAxeRecords(): void {
  rmSync(AXE_DIR, { recursive: true, force: true });
}

/** The run's summary: how many page states were checked, and the blocking violations found. */
export function axeSummary(): { checked: number; languages: string[]; blocking: string[] } {
  let files: string[] = [];
  try {
    files = readdirSync(AXE_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return { checked: 0, languages: [], blocking: [] };
  }
  const blocking: string[] = [];
  const languages = new Set<string>();
  for (const f of files) {
    const record = JSON.parse(readFileSync(join(AXE_DIR, f), 'utf8')) as { name: string; blocking: string[] };
    for (const b of record.blocking) blocking.push(`${record.name}: ${b}`);
    const lang = /-(tr|en)(-|$)/.exec(record.name)?.[1];
    if (lang) languages.add(lang);
  }
  return { checked: files.length, languages: [...languages].sort(), blocking };
}
