import { spawnSync } from 'node:child_process';
import { SERVER_ENTRY, startServerProcess } from '../../faults/server';
import type { Operator } from '../cli/backup-journey';

/**
 * An operator using the built bundle on a SQLite data folder: the CLI as a process of its own
 * and the server started the way the fault suites start it. The run's own database settings
 * stay out of it (the journeys' folders are SQLite).
 */
export function bundleOperator(): Operator {
  const env = { ...process.env, DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };
  return {
    cli(args, extra = {}) {
      const run = spawnSync(process.execPath, [SERVER_ENTRY, ...args], {
        env: { ...env, ...extra },
        encoding: 'utf8',
      });
      return { code: run.status, out: `${run.stdout}${run.stderr}` };
    },
    async serve(data, extra = {}) {
      const server = await startServerProcess({
        dataDir: data,
        env: { ...env, ...extra } as Record<string, string>,
      });
      return { url: server.url, output: server.log, stop: server.stop };
    },
  };
}
