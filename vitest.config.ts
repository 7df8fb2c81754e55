import { defineConfig } from 'vitest/config';

/**
 * A hang detector, not a budget (docs/testing.md): tests wait for conditions, never for a time, so
 * a test or hook that runs this long is hung, not slow. Half an hour is the whole suite's scale on
 * a loaded two-core machine: no honest test or server start on any machine we run reaches it.
 */
const hungMs = 1_800_000;

/**
 * Files that need a process of their own though their folder shares one: the process keeps the
 * first InvokeStore anyone asks for, and this file proves which one `openInvocationScopes` gets.
 */
const ownProcessFiles = ['test/unit/local/local-invocation-scope.test.ts'];

/**
 * Two projects (docs/testing.md, "How vitest runs the files"). Unit and infra files share their
 * worker's modules: a fresh process per file would import and transform the same modules again for
 * every one of them, which costs more than their tests. Integration and end-to-end files start
 * servers, engines and child processes, and keep a fresh process each.
 */
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: hungMs,
    hookTimeout: hungMs,
    teardownTimeout: hungMs,
    // Integration and e2e suites each start their own dynalite; two cores run two files at once.
    maxWorkers: 2,
    env: {
      // The AWS SDK's Node 20 notice, once per worker: `npm start` and `npm run admin` set it too.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-modules',
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts'],
          exclude: ownProcessFiles,
          isolate: false,
          // A file that stubs the environment gets it back after each test, whatever runs next.
          unstubEnvs: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'own-process',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', ...ownProcessFiles],
          // The broker of the servers shared by e2e files that only read (docs/testing.md).
          globalSetup: ['test/support/shared-servers.global.ts'],
        },
      },
    ],
  },
});
