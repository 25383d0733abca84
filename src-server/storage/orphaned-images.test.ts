import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp } from '../bootstrap';
import { publicImageUrl } from '../features/files/file-urls';
import { makeUser } from '../testing/factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../testing/test-app';
import { pngFile } from './image-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.dispose());

describe('images left without a row by a crash', () => {
  // one server's start; nodes of a cluster (the PostgreSQL run) never remove files at start but
  // every hour past a grace (cli/sweeps.test.ts)
  it.skipIf(testsOnPostgres)(
    'are removed when the lock holder starts, while named ones (profile photo, logo) stay',
    async () => {
      const store = t.deps.files;
      const photo = await store.save('images', pngFile(4, 4), 'image/png');
      const logo = await store.save('images', pngFile(5, 5), 'image/png');
      await makeUser(t.deps.db, { profile_image: publicImageUrl(photo) });
      await t.deps.db
        .insertInto('settings')
        .values({
          key: 'site',
          value: JSON.stringify({ logo: publicImageUrl(logo) }),
          updated_at: '2026-11-22',
        })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ value: JSON.stringify({ logo: publicImageUrl(logo) }) }),
        )
        .execute();
      // what a kill after an image's durable write and before its row's commit leaves
      const orphan = await store.save('images', pngFile(6, 6), 'image/png');

      const other = await openApp(t.deps.config, { web: new Map() });
      await other.close();
      expect(await store.list('images')).toContain(orphan);

      const server = await openApp(t.deps.config, { web: new Map(), clearTemp: true });
      await server.close();
      expect((await store.list('images')).sort()).toEqual([photo, logo].sort());
    },
  );
});
