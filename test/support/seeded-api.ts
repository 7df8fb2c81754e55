import { afterAll, beforeAll } from 'vitest';
import { type ApiRequest, type ApiResponse, callApi } from './api-client';
import { type InProcessApi, startInProcessApi } from './in-process-api';
import { type SettledPlan, settledPlanOf } from './settled-plan';

/**
 * A test file's in-process local API (its own fresh directory) and what `npm start` seeds in it:
 * the demo org with its admin key, and the partner's key.
 */
export interface SeededApi {
  readonly server: InProcessApi;
  readonly orgId: string;
  readonly adminKey: string;
  readonly partnerKey: string;
  /** `/v1/org/<the seeded org>/commitment-plans`. */
  readonly plansPath: string;
  /** One request to the API; `request.apiKey` says who asks. */
  call(path: string, request?: ApiRequest): Promise<ApiResponse>;
}

/** Starts the API before the file's tests and stops it after them; read it inside tests and hooks. */
export function useSeededApi(): SeededApi {
  let server: InProcessApi | undefined;
  beforeAll(async () => {
    server = await startInProcessApi();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): InProcessApi => {
    if (!server) throw new Error('the API is started by beforeAll: read it inside a test or a hook');
    return server;
  };
  const credentials = () => started().api.credentials;
  return {
    get server() {
      return started();
    },
    get orgId() {
      return credentials().org.org_id;
    },
    get adminKey() {
      return credentials().org.api_key;
    },
    get partnerKey() {
      return credentials().partner.api_key;
    },
    get plansPath() {
      return `/v1/org/${credentials().org.org_id}/commitment-plans`;
    },
    call: (path, request = {}) => callApi(credentials().base_url, path, request),
  };
}

/**
 * Reads a plan of the seeded org, as its admin, until the processor has settled it (completed or
 * needs_review), and answers it (settledPlanOf). `whileWaiting` runs between two reads, for a test
 * that makes other requests while the processor buys.
 */
export function settledPlan(
  api: SeededApi,
  planId: string,
  whileWaiting: () => Promise<unknown> = async () => undefined,
): Promise<SettledPlan> {
  return settledPlanOf(() => api.call(`${api.plansPath}/${planId}`, { apiKey: api.adminKey }), whileWaiting);
}
