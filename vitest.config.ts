import { defineConfig } from 'vitest/config';

// The web imports the server's contract as `@contract/...`, a path in tsconfig.json; both test
// projects resolve it from there, as tsc and esbuild do, so the alias is defined once.
const resolve = { tsconfigPaths: true };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: [
            'src-server/**/*.test.ts',
            'src-web/**/*.test.{ts,tsx}',
            'src-desktop/**/*.test.ts',
            'build/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // with TEST_DATABASE_URL: the PostgreSQL template database the test apps clone
          globalSetup: ['src-server/testing/pg-global-setup.ts'],
        },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['src-web/e2e/**/*.spec.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // a page that loads a lazy route on a busy CI machine can take more than the 1 s default
          expect: { poll: { timeout: 5_000 } },
          globalSetup: ['src-web/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
