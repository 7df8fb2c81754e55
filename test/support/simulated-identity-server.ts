import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  localAzureClientId,
  localAzureClientSecret,
  simulatedMicrosoftPages,
} from '../../local/local-onboarding';
import { changeSimulatedCloud, connectedAzureTenant } from '../../local/simulated-cloud';
import type { SimulatedMicrosoftPages } from '../../local/simulated-tenant-consent';
import type { TenantSignIn } from '../../shared/app/ports';
import { entraSignIn } from '../../shared/cloud/identity/entra-sign-in';

/**
 * The local server's simulated Microsoft identity platform on a loopback port of its own, over a
 * simulated cloud in a temporary directory: for tests of the consent's use cases, which redeem
 * codes and read keys over HTTP exactly as the local server's onboarding does.
 */
export interface SimulatedIdentityServer {
  readonly baseUrl: string;
  /** `<baseUrl>/local/azure`: the authority the onboarding settings name. */
  readonly authority: string;
  /** A callback URL the simulated pages redirect to (never fetched: the test reads the redirects). */
  readonly callbackUrl: string;
  /** The pages, called in the test's process as a browser would open them. */
  readonly pages: SimulatedMicrosoftPages;
  /** The service's sign-in, as localOnboarding builds it. */
  readonly tenantSignIn: TenantSignIn;
  readonly clientId: string;
  /** Adds a tenant with a subscription (not consented yet). */
  addTenant(tenantId: string, subscriptionId: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSimulatedIdentityServer(): Promise<SimulatedIdentityServer> {
  const dir = await mkdtemp(join(tmpdir(), 'simulated-identity-'));
  let pages: SimulatedMicrosoftPages | null = null;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const answer = await pages?.({
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body: async () => Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(answer?.statusCode ?? 404, (answer?.headers ?? {}) as Record<string, string>);
        response.end(answer?.body ?? '');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pages = simulatedMicrosoftPages(dir, baseUrl);
  const authority = `${baseUrl}/local/azure`;
  return {
    baseUrl,
    authority,
    callbackUrl: `${baseUrl}/v2/onboarding/azure/callback`,
    pages,
    clientId: localAzureClientId,
    tenantSignIn: entraSignIn({
      clientId: localAzureClientId,
      clientSecret: () => localAzureClientSecret(dir),
      authority,
    }),
    async addTenant(tenantId, subscriptionId) {
      await changeSimulatedCloud(dir, (cloud) => {
        cloud.azure[tenantId] = { ...connectedAzureTenant(subscriptionId), consent: false };
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
