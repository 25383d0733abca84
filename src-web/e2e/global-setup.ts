import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from './harness';

/** Builds the app once before the browser tests, and refuses to start without a Chromium. */
export default function setup() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install it with: apt-get install -y chromium`);
  }
  execFileSync(process.execPath, ['build/build.mjs', '--if-needed'], { stdio: 'inherit' });
}
