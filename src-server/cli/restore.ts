import { assertFilesInDataFolder } from '../storage/backup';
import { DataFolder } from '../storage/data-folder';
import { openFileStore } from '../storage/file-store';
import { FolderLockedError } from '../storage/lock';
import { BadArchiveError } from '../storage/manifest';
import { restoreBackup } from '../storage/restore';
import { type Command, configWith, postgresBackupRefusal } from './command';

/** `restore <file>`: replaces the data folder with a checked backup, never under a running server. */
export const restoreCommand: Command = {
  summary: 'replace the data folder with a backup archive (stop the server first)',
  usage: 'restore FILE [--data DIR]',
  details:
    'Checks the manifest and every checksum first and refuses a damaged or foreign archive\n' +
    'without touching the data folder. Refuses while a server uses the folder. The archive\n' +
    'is unpacked beside the folder and swapped in at the end.',
  options: { data: { type: 'string' } },
  async run(v, positionals) {
    if (positionals.length !== 1) {
      console.error(`restore needs exactly one archive\nusage: taskreward ${this.usage}`);
      return 2;
    }
    const config = configWith(v);
    if (config.databaseUrl) {
      console.error(postgresBackupRefusal('restore'));
      return 2;
    }
    const folder = new DataFolder(config.dataDir);
    const store = openFileStore(config);
    if (store.shared) {
      try {
        assertFilesInDataFolder(store, 'restore');
      } catch (err) {
        console.error(`refused: ${(err as Error).message}. The data folder was not touched.`);
        return 2;
      }
    }
    try {
      const { manifest, replaced } = await restoreBackup(folder, positionals[0]);
      console.log(
        `restored ${positionals[0]} (made ${manifest.createdAt} by version ${manifest.appVersion}, ` +
          `${manifest.counts.proofs} proof(s), ${manifest.counts.images} image(s)) into ${folder.root}` +
          (replaced ? '; the previous contents were replaced' : ''),
      );
      return 0;
    } catch (err) {
      if (err instanceof BadArchiveError) {
        console.error(`refused: ${err.message}. The data folder was not touched.`);
        return 1;
      }
      if (err instanceof FolderLockedError) {
        console.error(`refused: ${err.message}. The data folder was not touched.`);
        return 1;
      }
      throw err;
    }
  },
};
