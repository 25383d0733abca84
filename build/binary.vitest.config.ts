import { defineConfig } from 'vitest/config';

// Only the single-binary check: `npm run test:binary` builds the binary and then runs this.
export default defineConfig({
  test: {
    include: ['build/binary.check.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
