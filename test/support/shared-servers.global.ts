import type { TestProject } from 'vitest/node';
import { startLocalServer } from './local-server';
import { plannedTenants } from './planned-tenants';
import { startServerBroker } from './server-broker';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the run's server broker (test/support/server-broker.ts). */
    serverBroker: string;
  }
}

/**
 * The run's global set-up (vitest.config.ts `globalSetup`): the broker of the servers shared by
 * test files whose tests only read what the server's set-up made (docs/testing.md, "One server per
 * run where the tests only read"). Each server starts on the first file's ask, so a run without
 * such files starts none.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const broker = await startServerBroker({
    'planned-customer': async () => {
      const server = await startLocalServer({ orgsOnly: true });
      try {
        return { value: await plannedTenants(server), stop: () => server.stop() };
      } catch (error) {
        await server.stop().catch(() => undefined);
        throw error;
      }
    },
  });
  project.provide('serverBroker', broker.url);
  return () => broker.close();
}
