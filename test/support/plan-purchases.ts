import { expect } from 'vitest';
import type { ApiRequest, ApiResponse } from './api-client';
import type { SeededApi } from './seeded-api';

/**
 * The purchase calls of the seeded demo org (useSeededApi), as its admin or its partner asks them:
 * the recommended plan, its apply (#8) and the partner's purchase for a user (#13).
 */
export interface PlanPurchaseCalls {
  /** The org's recommended plan of `provider` (200 expected). */
  recommendedPlan(provider: 'aws' | 'azure'): Promise<{ id: string; status: string }>;
  /** POST the plan's apply, as the org's admin unless `request.apiKey` says otherwise. */
  apply(planId: string, request?: ApiRequest): Promise<ApiResponse>;
  /** POST the partner's purchase of the plan for the user `json` names. */
  purchaseFor(planId: string, json: unknown, request?: ApiRequest): Promise<ApiResponse>;
}

export function planPurchaseCalls(seeded: SeededApi): PlanPurchaseCalls {
  return {
    async recommendedPlan(provider) {
      const response = await seeded.call(`${seeded.plansPath}/recommended?provider=${provider}`, {
        apiKey: seeded.adminKey,
      });
      expect(response.status).toBe(200);
      return response.body as { id: string; status: string };
    },
    apply: (planId, request = {}) =>
      seeded.call(`${seeded.plansPath}/${planId}/apply`, {
        method: 'POST',
        apiKey: seeded.adminKey,
        ...request,
      }),
    purchaseFor: (planId, json, request = {}) =>
      seeded.call(`/v2/org/${seeded.orgId}/partners/purchase-plans-v2/${planId}/purchase`, {
        method: 'POST',
        apiKey: seeded.partnerKey,
        json,
        ...request,
      }),
  };
}
