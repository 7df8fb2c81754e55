import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthorizerHandler } from '../functions/authorizer/authorizer-handler';
import type { Clock, Marketplace } from '../shared/app/ports';
import { createLocalSigner } from '../shared/auth/signers/local-signer';
import type { SimulatedMarketplace } from '../shared/cloud/marketplace/simulated-marketplace';
import { routes } from '../shared/contract/operations';
import { oauthKeysOf } from '../shared/runtime/oauth-keys';
import { consentCallbackUrl } from '../shared/runtime/onboarding';
import { dynamoRequestThrottle } from '../shared/store/request-throttle';
import {
  type DemoCredentials,
  ensureDemoOAuthClient,
  readDemoCredentials,
  seedDemo,
  writeDemoCredentials,
} from './demo-seed';
import { localAuthorization } from './http/local-authorizer';
import { createLocalServer } from './http/local-server';
import { TenantRateLimiter } from './http/tenant-rate-limiter';
import { localArmOptions } from './local-azure-purchasing';
import { type LocalDependencies, localGroupHandler } from './local-handlers';
import { openInvocationScopes } from './local-invocation-scope';
import { localOnboarding, simulatedMicrosoftPages } from './local-onboarding';
import { type LocalPurchasing, startLocalPurchasing } from './local-purchasing';
import { type LocalConfig, type LocalRuntime, nameLocalService, openLocalRuntime } from './local-runtime';
import { outboxMailer } from './outbox-mailer';
import { simulatedArmOnFile, simulatedArmService } from './simulated-arm-service';

export interface LocalApiOptions {
  /** On a first start, seed the demo customer's usage and plans too, not only the orgs and keys. */
  readonly seedUsage: boolean;
  /**
   * What the purchase processor buys from, given the simulated marketplace: by default that one
   * (the purchases benchmark wraps it to count what is bought).
   */
  readonly marketplace?: (simulated: SimulatedMarketplace) => Marketplace;
  /**
   * The use cases' clock: the real one by default. A test moves its own forward past the time the
   * product measures (a sign-in check's pacing delay) instead of waiting it out.
   */
  readonly clock?: Clock;
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
  /** The purchase queue, processor and simulated marketplace of this process. */
  readonly purchasing: LocalPurchasing;
  /** Stops listening, drops open connections and closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the local API: opens the local runtime under `config.dir`, serves the route manifest
 * through the functions' handlers, each built by its group's factory with the local dependencies
 * (local-handlers.ts), and the authorizer on
 * `config.host:config.port` (0: a free port), seeds the demo on the first start and writes its
 * credentials.
 */
export async function startLocalApi(config: LocalConfig, options: LocalApiOptions): Promise<LocalApi> {
  nameLocalService(process.env);
  // First: the store of concurrent invocations must exist before any AWS SDK call.
  const invocationScoped = await openInvocationScopes(process.env);
  const runtime = await openLocalRuntime(config, options.clock);
  let baseUrl = '';
  const purchasing = await startLocalPurchasing({
    ctx: runtime.ctx,
    invocationScoped,
    dir: config.dir,
    baseUrl: () => baseUrl || null,
    ...(options.marketplace ? { marketplace: options.marketplace } : {}),
  });

  // The simulated identity platform and the onboarding's URLs need the listening address: set once it is known.
  let microsoftPages: ReturnType<typeof simulatedMicrosoftPages> | null = null;
  // The functions' dependencies name the listening address too (the issuer): set with it.
  let local: LocalDependencies | null = null;
  const dependencies = (): LocalDependencies => {
    if (!local) throw new Error('The local API serves requests only once it is listening');
    return local;
  };
  const authorizer = createAuthorizerHandler(() => ({
    ...runtime.ctx,
    accessTokens: () => dependencies().oauthKeys.accessTokens,
  }));
  const server = createLocalServer({
    localPage: (request) => (microsoftPages ? microsoftPages(request) : Promise.resolve(null)),
    // The simulated tenant's ARM, which the processor's azure marketplace buys from.
    localService: simulatedArmService(simulatedArmOnFile(config.dir, localArmOptions())),
    routes,
    baseUrl: () => baseUrl,
    loadHandler: async (group) => invocationScoped(await localGroupHandler(group, dependencies())),
    authorize: localAuthorization(authorizer, {
      limiter: new TenantRateLimiter(config.tenantThrottle),
      nowMs: Date.now,
    }),
  });
  try {
    await listen(server, config);
  } catch (error) {
    await purchasing.close();
    await runtime.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${config.host}:${port}`;
  // Before any request is read (connections are handled in later turns of the event loop): the
  // server's base URL is the issuer, the local signer's key lives under the local directory,
  // sign-in codes go to `<dir>/outbox/` (stored keyed with a generated key), and the simulated cloud answers the onboarding.
  const onboarding = localOnboarding(config.dir, baseUrl, process.env);
  local = {
    ctx: runtime.ctx,
    oauthKeys: oauthKeysOf(baseUrl, createLocalSigner(config.dir)),
    publicBaseUrl: baseUrl,
    mailer: outboxMailer(config.dir, { delayMs: config.mailDelayMs }),
    // A key of this process's own: codes asked for before a restart are not valid after it.
    signInCodeKey: randomBytes(32).toString('base64url'),
    // Bearer requests are counted per OAuth client and org in the local table, as on AWS in the
    // deployed one, with the tenants' limits.
    requestThrottle: dynamoRequestThrottle(runtime.table, config.tenantThrottle),
    onboarding,
    verifier: onboarding.verifier,
    purchaseQueue: purchasing.queue,
  };
  microsoftPages = simulatedMicrosoftPages(config.dir, baseUrl);

  const earlier = await readDemoCredentials(config.dir);
  const credentials = {
    ...(earlier ??
      (await seedDemo(runtime.ctx, baseUrl, {
        usage: options.seedUsage,
        onboarding: {
          verifier: onboarding.verifier,
          onboarding: onboarding.settings,
          tenantSignIn: onboarding.tenantSignIn,
          microsoftPages,
          callbackUrl: consentCallbackUrl(onboarding),
          dir: config.dir,
        },
      }))),
    base_url: baseUrl,
  };
  await ensureDemoOAuthClient(runtime.ctx);
  const credentialsPath = await writeDemoCredentials(config.dir, credentials);
  return {
    baseUrl,
    credentials,
    credentialsPath,
    seeded: earlier === null,
    runtime,
    purchasing,
    close: async () => {
      await closeServer(server);
      await purchasing.close();
      await runtime.close();
    },
  };
}

/**
 * Why the server could not listen, as one line that says what to do: `npm start` prints it as is
 * (bin/serve.ts).
 */
export class ListenError extends Error {}

/** Listens on the configured address; a port in use or one that needs privileges is a ListenError. */
function listen(server: Server, config: LocalConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      const where = `PORT ${config.port} on ${config.host}`;
      if (error.code === 'EADDRINUSE') {
        reject(
          new ListenError(
            `${where} is in use: stop what listens there, or pick another port, e.g. PORT=${config.port + 1} npm start (PORT=0 picks a free one)`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new ListenError(`${where} needs privileges: pick a port above 1023, e.g. PORT=3000 npm start`),
        );
      } else if (error.code === 'EADDRNOTAVAIL') {
        reject(
          new ListenError(
            `HOST ${config.host} is not an address of this machine: e.g. HOST=127.0.0.1 npm start`,
          ),
        );
      } else {
        reject(error);
      }
    };
    server.once('error', refused);
    server.listen(config.port, config.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
