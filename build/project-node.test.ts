import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { nodePackage } from './node-version.mjs';
import { cleanEnv, olderNode } from './older-node';

// npm install's preinstall on a machine whose Node is older than the project's: it links a Node 24
// from the cache (fetched from the npm registry when missing) as node_modules/.bin/node, where
// npm's scripts find `node` first; where no Node 24 can be had it refuses with what to do.
// .ci/use-node.sh goes through the same code. The whole path, from a fresh clone through
// `npm start`, is build/fresh-clone.check.ts.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const old = olderNode();
const unreachable = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

let box: string;
let project: string;
let link: string;
/** A cache holding this Node 24 where a fetched one would be. */
let cache: string;
beforeAll(() => {
  box = mkdtempSync(join(tmpdir(), 'taskreward-node-'));
  // a project of its own: the script, what it reads, and the native packages it checks load
  project = join(box, 'project');
  mkdirSync(join(project, 'build'), { recursive: true });
  mkdirSync(join(project, 'node_modules'));
  for (const f of ['build/node-version.mjs', 'package.json', '.nvmrc'])
    copyFileSync(join(root, f), join(project, f));
  for (const name of ['better-sqlite3', 'argon2', 'sharp'])
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name));
  link = join(project, 'node_modules', '.bin', 'node');
  cache = join(box, 'cache');
  mkdirSync(join(cache, `${nodePackage()}-${process.versions.node}`, 'bin'), { recursive: true });
  symlinkSync(process.execPath, join(cache, `${nodePackage()}-${process.versions.node}`, 'bin', 'node'));
});
afterAll(() => {
  if (box) rmSync(box, { recursive: true, force: true });
});

/** npm's preinstall as npm runs it on `npmNode`: `node build/node-version.mjs`. */
function preinstall(npmNode: string, env: NodeJS.ProcessEnv) {
  const res = spawnSync(npmNode, ['build/node-version.mjs'], {
    cwd: project,
    encoding: 'utf8',
    env: cleanEnv({ PATH: `${dirname(npmNode)}:${process.env.PATH}`, npm_node_execpath: npmNode, ...env }),
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe.skipIf(!old)(
  `npm install on an older Node (${old ? `${old.file}, v${old.version}` : 'none here'})`,
  // each runs npm, more than once, on a busy machine
  { timeout: 120_000 },
  () => {
    const node20 = old as NonNullable<typeof old>;

    it('refuses with what to do when no Node 24 can be had, and links nothing', () => {
      const run = preinstall(node20.file, { ...unreachable, TASKREWARD_NODE_CACHE: join(box, 'empty') });
      expect(run.code).toBe(1);
      expect(run.out).toContain(
        `TaskReward needs Node.js 24.11 or newer (Node 24 LTS); this is Node.js v${node20.version}`,
      );
      expect(run.out).toMatch(
        /no Node 24 could be had for it: Could not get Node 24 \(node-\w+-\w+\) from the npm registry \(.*ECONNREFUSED.*\)/,
      );
      expect(run.out).toContain('nvm install && nvm use');
      expect(run.out).not.toMatch(/^\s+at /m);
      expect(existsSync(link)).toBe(false);
    });

    it('links the cached Node 24 for npm scripts when the registry does not answer', () => {
      const run = preinstall(node20.file, { ...unreachable, TASKREWARD_NODE_CACHE: cache });
      expect([run.code, run.out]).toEqual([0, expect.stringContaining('linked as node_modules/.bin/node')]);
      expect(run.out).toContain(`the npm registry did not answer`);
      expect(readlinkSync(link).startsWith(cache)).toBe(true);
      const linked = spawnSync(link, ['-p', 'process.version'], { encoding: 'utf8' });
      expect(linked.stdout.trim()).toBe(process.version);
    });

    it('takes the link away once npm runs on a Node the project takes', () => {
      expect(existsSync(link)).toBe(true);
      const run = preinstall(process.execPath, { ...unreachable, TASKREWARD_NODE_CACHE: cache });
      expect([run.code, run.out]).toEqual([0, '']);
      expect(existsSync(link)).toBe(false);
    });

    it("fetches the newest Node 24 through npm (npm's integrity check) into the cache", () => {
      const fresh = join(box, 'fetched');
      const run = preinstall(node20.file, {
        TASKREWARD_NODE_CACHE: fresh,
        npm_config_prefer_offline: 'true',
      });
      expect([run.code, run.out]).toEqual([0, expect.stringMatching(/fetching Node 24\.\d+\.\d+ \(node-/)]);
      const version = spawnSync(link, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
      expect(version).toMatch(/^24\./);
      expect(readlinkSync(link)).toBe(join(fresh, `${nodePackage()}-${version}`, 'bin', 'node'));
    });

    it('.ci/use-node.sh puts the same Node first on PATH, or fails with the same message', () => {
      const sh = (env: NodeJS.ProcessEnv) =>
        spawnSync(
          'bash',
          ['-c', '. .ci/use-node.sh || exit 1; node -p process.version; echo "$npm_config_nodedir"'],
          {
            cwd: root,
            encoding: 'utf8',
            env: cleanEnv({ PATH: `${node20.dir}:${process.env.PATH}`, ...unreachable, ...env }),
          },
        );
      const ok = sh({ TASKREWARD_NODE_CACHE: cache });
      expect([ok.status, ok.stdout]).toEqual([
        0,
        `${process.version}\n${join(cache, `${nodePackage()}-${process.versions.node}`)}\n`,
      ]);
      const refused = sh({ TASKREWARD_NODE_CACHE: join(box, 'empty') });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`this is Node.js v${node20.version}`);
      expect(refused.stderr).not.toMatch(/^\s+at /m);
    });
  },
);
