// Stops at once, with what to do instead of a stack trace, when this Node is older than the
// project's (package.json "engines"). Imported first by the build and test scripts, run by
// `npm install` (preinstall); the server bundle's loader carries the same check (build.mjs).
// Plain syntax only: it has to run on the old Node it refuses.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The lowest version `engines.node` allows, as [major, minor, patch]; the range is ">=X.Y[.Z]". */
export function minimumNode(range = pkg.engines.node) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`package.json engines.node must read ">=X.Y", not "${range}"`);
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

/** Whether `version` ("24.11.1", "v20.20.2") is at least `minimum`. */
export function satisfies(version, minimum = minimumNode()) {
  const have = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) !== minimum[i]) return (have[i] || 0) > minimum[i];
  }
  return true;
}

/** The message for a Node that is too old. */
export function tooOldMessage(version = process.version, execPath = process.execPath) {
  const wanted = minimumNode().join('.').replace(/\.0$/, '');
  return [
    '',
    `TaskReward needs Node.js ${wanted} or newer (Node 24 LTS); this is Node.js ${version} (${execPath}).`,
    'Install Node 24, or run the project with its own Node next to the system one:',
    '  nvm install && nvm use        (nvm, fnm and mise read .nvmrc)',
    '  . .ci/use-node.sh             (fetches Node 24 from the npm registry into ~/.cache/taskreward)',
    'then run the command again. README.md, "Which Node", has the details.',
    '',
  ].join('\n');
}

if (!satisfies(process.versions.node)) {
  console.error(tooOldMessage());
  process.exit(1);
}
