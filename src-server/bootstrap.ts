import type { Config } from './config';
import { type OpenedDatabase, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { AppDeps } from './deps';
import { LoginThrottle, type ThrottleLimits } from './features/auth/throttle';
import { ensureBootstrapAdmin } from './features/users/admin-account';
import { loadWebAssets, type WebAssets } from './http/web-assets';
import { DataFolder } from './storage/data-folder';

export interface Opened {
  deps: AppDeps;
  database: OpenedDatabase;
  folder: DataFolder;
  close(): Promise<void>;
}

/** config -> data folder -> database -> migrations -> first admin: everything createApp needs. */
export async function openApp(
  config: Config,
  options: { web?: WebAssets; throttle?: ThrottleLimits; clock?: () => Date } = {},
): Promise<Opened> {
  const folder = new DataFolder(config.dataDir);
  folder.prepare();
  const database = openDatabase(folder.dbFile);
  await migrateToLatest(database.db);
  const deps: AppDeps = {
    db: database.db,
    config,
    secret: folder.secret(config.tokenSecret),
    web: options.web ?? loadWebAssets(config.webDir),
    throttle: new LoginThrottle(options.throttle),
    clock: options.clock ?? (() => new Date()),
  };
  await ensureBootstrapAdmin(deps);
  return {
    deps,
    database,
    folder,
    close: async () => {
      await database.db.destroy();
    },
  };
}
