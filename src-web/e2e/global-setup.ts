import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { axeSummary, resetAxeRecords } from './axe';
import { CHROMIUM_PATH } from './harness';

/**
 * Builds the app once before the browser tests, and refuses to start without a Chromium. After
 * them, prints what the accessibility gate checked.
 */
export default function setup() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install it with: apt-get install -y chromium`);
  }
  execFileSync(process.execPath, ['build/build.mjs', '--if-needed'], { stdio: 'inherit' });
  resetAxeRecords();
  return () => {
    const { checked, languages, blocking } = axeSummary();
    console.log(
      `\naxe: ${checked} page states checked (${languages.join(', ')}; phone and desktop), ` +
        `${blocking.length} serious or critical violations`,
    );
    for (const b of blocking.slice(0, 50)) console.log(`  ${b}`);
  };
}
