import { defineConfig } from 'vitest/config';

// Only the fresh-clone check (`npm run test:fresh-clone`, and a step of `npm test`).
export default defineConfig({
  test: {
    include: ['build/fresh-clone.check.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
