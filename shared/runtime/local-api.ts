import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as authorizer } from '../../functions/authorizer/handler';
import { type FunctionGroup, routes } from '../../functions/routes';
import type { ProxyHandler } from '../http/group-handler';
import { localAuthorization } from '../http/local-authorizer';
import { createLocalServer } from '../http/local-server';
import { TenantRateLimiter } from '../http/tenant-rate-limit';
import { installAppContext } from './current';
import { type LocalConfig, type LocalRuntime, nameLocalService, openLocalRuntime } from './local';
import { openInvocationScopes } from './local-invocation-scope';
import { type DemoCredentials, readDemoCredentials, seedDemo, writeDemoCredentials } from './local-seed';

export interface LocalApiOptions {
  /** On a first start, seed the demo customer's usage and plans too, not only the orgs and keys. */
  readonly seedUsage: boolean;
}

/** The local API, listening: what `npm start` serves and the API benchmark drives. */
export interface LocalApi {
  readonly baseUrl: string;
  /** The demo's orgs and keys, with this start's `base_url`. */
  readonly credentials: DemoCredentials;
  /** Where the credentials were written (`<dir>/credentials.json`). */
  readonly credentialsPath: string;
  /** Whether this start seeded the demo (false when `dir` held one from an earlier start). */
  readonly seeded: boolean;
  readonly runtime: LocalRuntime;
  /** Stops listening, drops open connections and closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the local API: opens the local runtime under `config.dir`, installs its context for the
 * handlers, serves the route manifest through the Lambda handlers and the authorizer on
 * `config.host:config.port` (0: a free port), seeds the demo on the first start and writes its
 * credentials.
 */
export async function startLocalApi(config: LocalConfig, options: LocalApiOptions): Promise<LocalApi> {
  nameLocalService(process.env);
  const runtime = await openLocalRuntime(config);
  installAppContext(runtime.ctx);
  const invocationScoped = await openInvocationScopes(process.env);

  const server = createLocalServer({
    routes,
    loadHandler: async (group) => invocationScoped(await loadGroupHandler(group)),
    authorize: localAuthorization(authorizer, {
      limiter: new TenantRateLimiter(config.tenantThrottle),
      nowMs: Date.now,
    }),
  });
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${config.host}:${port}`;

  const earlier = await readDemoCredentials(config.dir);
  const credentials = {
    ...(earlier ?? (await seedDemo(runtime.ctx, baseUrl, { usage: options.seedUsage }))),
    base_url: baseUrl,
  };
  const credentialsPath = await writeDemoCredentials(config.dir, credentials);
  return {
    baseUrl,
    credentials,
    credentialsPath,
    seeded: earlier === null,
    runtime,
    close: async () => {
      await closeServer(server);
      await runtime.close();
    },
  };
}

async function loadGroupHandler(group: FunctionGroup): Promise<ProxyHandler> {
  const module: { handler: ProxyHandler } = await import(`../../functions/${group}/handler.ts`);
  return module.handler;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
