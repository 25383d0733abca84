import { defineConfig } from 'vitest/config';

// The fault-injection suites (`npm run test:faults`): the real built server as a child process.
// FAULTS_FULL=1 runs them at full length; without it (as in `npm test` and CI) a reduced form.
export default defineConfig({
  test: {
    name: 'faults',
    include: ['faults/**/*.fault.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 15 * 60_000,
    hookTimeout: 5 * 60_000,
  },
});
