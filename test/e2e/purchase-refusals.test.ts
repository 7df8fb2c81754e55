import { beforeAll, describe, expect, it } from 'vitest';
import { createUserKey } from '../../shared/app/operator';
import type { StoredItem } from '../../shared/store/table-client';
import type { ApiResponse } from '../support/api-client';
import { planPurchaseCalls } from '../support/plan-purchases';
import { useSeededApi } from '../support/seeded-api';
import { tableChanges } from '../support/table-changes';

/**
 * Applying plans (#8) and purchasing them for a user (#13) over HTTP, refused: every refusal
 * answers its status and leaves the store as it was, with nothing bought (docs/purchases.md).
 * What a purchase buys is purchases.test.ts.
 */

const seeded = useSeededApi();
const { call } = seeded;
const { recommendedPlan, apply, purchaseFor } = planPurchaseCalls(seeded);

describe('refused requests change nothing', () => {
  let planId: string;
  let restrictedKey: string;
  /** The table before the first refusal: each refusal must leave it as it was. */
  let table: StoredItem[];

  beforeAll(async () => {
    planId = (await recommendedPlan('aws')).id;
    const { key } = await createUserKey(
      seeded.server.api.runtime.ctx,
      seeded.orgId,
      'viewer@demo-customer.example',
      'restricted_user',
    );
    restrictedKey = key.apiKey;
    await createUserKey(
      seeded.server.api.runtime.ctx,
      seeded.orgId,
      'helpdesk@demo-customer.example',
      'support',
    );
    table = await seeded.server.snapshot();
  });

  /**
   * Sends the request and expects `status`, with the table as it was before. Refusals change
   * nothing, so the table after one is the table before the next: each is compared with the table
   * as it was before the first.
   */
  async function refused(send: () => Promise<ApiResponse>, status: number): Promise<ApiResponse> {
    // Act
    const response = await send();
    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.code).toBe(status);
    expect(tableChanges(table, await seeded.server.snapshot())).toEqual([]);
    expect(seeded.server.api.purchasing.marketplace.purchases()).toEqual([]);
    return response;
  }

  it('answers 401 to an apply without a key', async () => {
    await refused(() => apply(planId, { apiKey: undefined }), 401);
  });

  it("answers 403 to a restricted_user's apply, and to a partner's (partners purchase with #13)", async () => {
    await refused(() => apply(planId, { apiKey: restrictedKey }), 403);
    const partner = await refused(() => apply(planId, { apiKey: seeded.partnerKey }), 403);
    expect(partner.body.message).toContain('/purchase');
  });

  it('answers 403 to a purchase naming a member whose role may not apply', async () => {
    await refused(() => purchaseFor(planId, { email: 'viewer@demo-customer.example' }), 403);
    await refused(() => purchaseFor(planId, { email: 'helpdesk@demo-customer.example' }), 403);
  });

  it("answers 404 to another org's plan and to an unknown plan", async () => {
    await refused(
      () =>
        call(`/v1/org/${seeded.server.api.credentials.partner.org_id}/commitment-plans/${planId}/apply`, {
          method: 'POST',
          apiKey: seeded.adminKey,
        }),
      404,
    );
    await refused(
      () =>
        call(`/v1/org/${seeded.server.api.credentials.partner.org_id}/commitment-plans/${planId}/purchases`, {
          apiKey: seeded.partnerKey,
        }),
      404,
    );
    await refused(
      () =>
        call(
          `/v2/org/${seeded.server.api.credentials.partner.org_id}/partners/purchase-plans-v2/${planId}/purchase`,
          {
            method: 'POST',
            apiKey: seeded.partnerKey,
            json: { email: 'someone@demo-customer.example' },
          },
        ),
      404,
    );
    await refused(() => apply('00000000-0000-4000-8000-000000000000'), 404);
    await refused(() => purchaseFor('00000000-0000-4000-8000-000000000000', { email: 'a@b.example' }), 404);
  });

  it('answers 422 to a bad, too long or missing e-mail and to an unknown field', async () => {
    const bad = await refused(() => purchaseFor(planId, { email: 'not-an-email' }), 422);
    expect(Object.keys(bad.body.errors)).toContain('email');
    const long = `${'a'.repeat(250)}@b.example`;
    await refused(() => purchaseFor(planId, { email: long }), 422);
    await refused(() => purchaseFor(planId, {}), 422);
    await refused(() => purchaseFor(planId, { email: 'new@demo-customer.example', role: 'admin' }), 422);
  });

  it('answers 422 to an Idempotency-Key that is empty or over 255 characters', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const response = await refused(() => apply(planId, { headers: { 'idempotency-key': key } }), 422);
      expect(Object.keys(response.body.errors)).toContain('Idempotency-Key');
    }
  });
});
