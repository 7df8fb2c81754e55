import type { APIGatewayProxyResult } from 'aws-lambda';
import type { TokenSource } from '../shared/cloud/verifiers/azure-arm-probe';
import { ProviderError } from '../shared/cloud/verifiers/provider-failure';
import type { LocalServiceRequest } from './http/local-server';
import {
  type ArmHttpAnswer,
  type ArmHttpRequest,
  answerArm,
  type SimulatedArmOptions,
  simulatedArmToken,
} from './simulated-arm';
import { changeSimulatedCloud, readSimulatedCloud } from './simulated-cloud';

/**
 * The simulated tenant's ARM served by the local server (docs/purchases.md, Locally): under
 * `/local/arm` the same paths as `https://management.azure.com`, so that the `azure` marketplace
 * buys locally through its real HTTP calls, with the ARM base URL `<server>/local/arm`.
 */
export const simulatedArmPath = '/local/arm';

/** Answers one ARM request on the simulated cloud under `dir`, storing what it changed. */
export function simulatedArmOnFile(dir: string, options: SimulatedArmOptions) {
  return async (request: ArmHttpRequest): Promise<ArmHttpAnswer> => {
    let answered: ArmHttpAnswer | undefined;
    await changeSimulatedCloud(dir, (cloud) => {
      answered = answerArm(cloud, request, options);
    });
    return answered as ArmHttpAnswer;
  };
}

/** The local server's handler of `/local/arm/...`; null for other paths. */
export function simulatedArmService(answer: (request: ArmHttpRequest) => Promise<ArmHttpAnswer>) {
  return async (request: LocalServiceRequest): Promise<APIGatewayProxyResult | null> => {
    if (!request.path.startsWith(`${simulatedArmPath}/`)) return null;
    let body: unknown;
    try {
      body = request.body ? JSON.parse(request.body) : undefined;
    } catch {
      return proxyResult({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: { error: { code: 'InvalidRequestContent', message: 'The request content is not JSON.' } },
      });
    }
    const answered = await answer({
      method: request.method,
      path: request.path.slice(simulatedArmPath.length),
      body,
      authorization: request.authorization,
    });
    return proxyResult(answered);
  };
}

function proxyResult(answered: ArmHttpAnswer): APIGatewayProxyResult {
  return {
    statusCode: answered.status,
    headers: { ...answered.headers },
    body: JSON.stringify(answered.body),
  };
}

/**
 * A `fetch` that hands ARM requests to `answer` in this process, as the HTTP server would (tests:
 * thousands of purchases without sockets). Only the URL's path reaches ARM; the query carries the
 * api-version.
 */
export function armFetchOf(answer: (request: ArmHttpRequest) => Promise<ArmHttpAnswer>): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = new Headers(init?.headers);
    const answered = await answer({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: decodeURIComponent(url.pathname),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      authorization: headers.get('authorization'),
    });
    return new Response(JSON.stringify(answered.body), {
      status: answered.status,
      headers: answered.headers,
    });
  }) as typeof fetch;
}

/**
 * The simulated identity platform's client-credentials grant: the service's app gets an ARM token
 * in a tenant whose administrator consented, and the identity platform's refusal otherwise.
 */
export function simulatedArmTokens(dir: string, clientId: string): TokenSource {
  return async (tenantId) => {
    const tenant = (await readSimulatedCloud(dir)).azure[tenantId];
    if (!tenant) throw new ProviderError('invalid_request', `AADSTS90002: Tenant '${tenantId}' not found.`);
    if (!tenant.consent) {
      throw new ProviderError(
        'unauthorized_client',
        `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${tenantId}'.`,
      );
    }
    return simulatedArmToken(tenantId);
  };
}
