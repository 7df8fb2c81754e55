import { defineConfig } from 'vitest/config';

/**
 * A hang detector, not a budget (docs/testing.md): tests wait for conditions, never for a time, so
 * a test or hook that runs this long is hung, not slow. Half an hour is the whole suite's scale on
 * a loaded two-core machine: no honest test or server start on any machine we run reaches it.
 */
const hungMs = 1_800_000;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/shared-servers.global.ts'],
    environment: 'node',
    testTimeout: hungMs,
    hookTimeout: hungMs,
    teardownTimeout: hungMs,
    // Integration and e2e suites each start their own dynalite; two cores run two files at once.
    maxWorkers: 2,
  },
});
