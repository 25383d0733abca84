// Finds a Node on this machine older than the project's, for the tests of what happens there
// (Debian's Node 20 on the machines here). Nodes from the project's own cache are left out.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { nodeCache, satisfies } from './node-version.mjs';

export interface OlderNode {
  file: string;
  dir: string;
  version: string;
}

export function olderNode(): OlderNode | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const file = join(dir, 'node');
    if (!dir || dir.startsWith(nodeCache()) || dir.includes('node_modules') || !existsSync(file)) continue;
    const version = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    if (version && !satisfies(version)) return { file, dir, version };
  }
  return undefined;
}

/** The environment of the tests' commands: this one without what npm set for the run around them. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && !/^(TEST_)?DATABASE_URL$/.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}
