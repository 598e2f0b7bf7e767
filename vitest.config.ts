import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser tests start Chromium; on 2 cores more than two files at once only thrash.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
