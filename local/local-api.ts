import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as authorizer } from '../functions/authorizer/handler';
import { createLocalSigner } from '../shared/auth/signers/local-signer';
import type { FunctionGroup } from '../shared/contract/operation-contract';
import { servedRoutes } from '../shared/contract/operations';
import type { ProxyHandler } from '../shared/http/group-handler';
import { installAppContext } from '../shared/runtime/current';
import { installOAuthKeys, oauthKeysOf } from '../shared/runtime/oauth-keys';
import { installMailer, installSignInCodeKey } from '../shared/runtime/oauth-sign-in';
import { installOnboarding } from '../shared/runtime/onboarding';
import { installAwsVerifier } from '../shared/runtime/onboarding-aws-verify';
import { installAzureVerifier } from '../shared/runtime/onboarding-azure-verify';
import { installPublicBaseUrl } from '../shared/runtime/public-base-url';
import { installRequestThrottle } from '../shared/runtime/request-throttle';
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
import { openInvocationScopes } from './local-invocation-scope';
import { localOnboarding, simulatedConsentPage } from './local-onboarding';
import { type LocalPurchasing, startLocalPurchasing } from './local-purchasing';
import { type LocalConfig, type LocalRuntime, nameLocalService, openLocalRuntime } from './local-runtime';
import { outboxMailer } from './outbox-mailer';

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
  /** The purchase queue, processor and simulated marketplace of this process. */
  readonly purchasing: LocalPurchasing;
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
  // First: the store of concurrent invocations must exist before any AWS SDK call.
  const invocationScoped = await openInvocationScopes(process.env);
  const runtime = await openLocalRuntime(config);
  installAppContext(runtime.ctx);
  // Bearer requests are counted per OAuth client and org in the local table, as on AWS in the
  // deployed one, with the tenants' limits.
  installRequestThrottle(dynamoRequestThrottle(runtime.table, config.tenantThrottle));
  const purchasing = await startLocalPurchasing({ invocationScoped });

  let baseUrl = '';
  // The consent page and the onboarding's URLs need the listening address: set once it is known.
  let consentPage: ReturnType<typeof simulatedConsentPage> | null = null;
  const server = createLocalServer({
    localPage: (path, query) => (consentPage ? consentPage(path, query) : Promise.resolve(null)),
    routes: servedRoutes(hasHandler),
    baseUrl: () => baseUrl,
    loadHandler: async (group) => invocationScoped(await loadGroupHandler(group)),
    authorize: localAuthorization(authorizer, {
      limiter: new TenantRateLimiter(config.tenantThrottle),
      nowMs: Date.now,
    }),
  });
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${config.host}:${port}`;
  // Before any request is read (connections are handled in later turns of the event loop): the
  // server's base URL is the issuer, the local signer's key lives under the local directory,
  // sign-in codes go to `<dir>/outbox/` (stored keyed with a generated key), and the simulated cloud answers the onboarding.
  installOAuthKeys(oauthKeysOf(baseUrl, createLocalSigner(config.dir)));
  installPublicBaseUrl(baseUrl);
  installMailer(outboxMailer(config.dir, { delayMs: config.mailDelayMs }));
  // A key of this process's own: codes asked for before a restart are not valid after it.
  installSignInCodeKey(randomBytes(32).toString('base64url'));
  const onboarding = localOnboarding(config.dir, baseUrl, process.env);
  installOnboarding(onboarding);
  installAwsVerifier(onboarding.verifier);
  installAzureVerifier(onboarding.verifier);
  consentPage = simulatedConsentPage(config.dir, baseUrl);

  const earlier = await readDemoCredentials(config.dir);
  const credentials = {
    ...(earlier ??
      (await seedDemo(runtime.ctx, baseUrl, {
        usage: options.seedUsage,
        onboarding: { verifier: onboarding.verifier, onboarding: onboarding.settings, dir: config.dir },
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

/** Where a group's Lambda handler is: `functions/<group>/handler.ts`, as the CDK stack bundles it. */
function handlerUrl(group: FunctionGroup): URL {
  return new URL(`../functions/${group}/handler.ts`, import.meta.url);
}

/** A group is served once its handler exists, as on AWS (lib/api-stack.ts). */
function hasHandler(group: FunctionGroup): boolean {
  return existsSync(handlerUrl(group));
}

async function loadGroupHandler(group: FunctionGroup): Promise<ProxyHandler> {
  const module: { handler: ProxyHandler } = await import(handlerUrl(group).href);
  return module.handler;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
