import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration and e2e suites each start their own dynalite; two cores run two files at once.
    maxWorkers: 2,
  },
});
