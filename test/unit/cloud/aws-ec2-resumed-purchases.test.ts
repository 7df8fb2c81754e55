import {
  CreateTagsCommand,
  DescribeReservedInstancesCommand,
  type ReservedInstancesOffering,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN_TAG } from '../../../shared/cloud/marketplace/aws-ec2-reservations';
import {
  AmbiguousEarlierPurchase,
  PurchaseOutcomeUnknown,
} from '../../../shared/cloud/marketplace/marketplace';
import {
  type Ec2State,
  ec2Refusal,
  ec2Selling,
  m5FamilyAllUpfront,
  marketplace,
  mockEc2,
  reservationOf,
} from '../../support/aws-ec2-reservations';
import { purchaseRequest } from './marketplace-requests';

/**
 * A purchase of EC2 reserved instances resumed after a crash (`earlierAttemptsSince`): what the
 * earlier attempt bought is found and answered, never bought twice (docs/purchasing.md).
 */
describe('AwsMarketplace: EC2 reserved instances, a resumed request', () => {
  let state: Ec2State;
  let ec2: ReturnType<typeof mockEc2>;

  beforeEach(() => {
    state = ec2Selling();
    ec2 = mockEc2(state);
  });
  afterEach(() => ec2.restore());

  it('after a crash between buying and recording, the resumed request finds the tagged reservation and buys nothing more', async () => {
    // Prepare: the first attempt buys and tags, then its process dies before recording the answer
    const since = new Date().toISOString();
    const request = purchaseRequest(m5FamilyAllUpfront, 48, 'line-1', { instanceType: 'm5.xlarge' });
    const first = await marketplace().purchase(request);
    // Act
    const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
    // Assess
    expect(retry).toEqual(first);
    expect(state.reservations).toHaveLength(1);
    expect(state.purchaseCalls).toBe(1);
  });

  describe('a resumed request whose earlier attempt may have bought without tagging', () => {
    const request = purchaseRequest(m5FamilyAllUpfront, 48, 'line-1', { instanceType: 'm5.xlarge' });
    const token = request.clientToken;
    /** The regional m5.xlarge offering the requests above buy from. */
    const regional = () => state.offerings[1] as ReservedInstancesOffering;
    const tagsOf = (id: string | undefined) =>
      state.reservations.find((reservation) => reservation.ReservedInstancesId === id)?.Tags;

    it('adopts the untagged reservation left by a crash between the purchase and CreateTags, tags it and buys nothing', async () => {
      // Prepare: the first attempt buys, then dies before CreateTags (its answer never recorded)
      const since = new Date().toISOString();
      state.diesBeforeTagging = true;
      await marketplace().purchase(request);
      expect(state.reservations[0]?.Tags).toEqual([]);
      // Act
      const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
      // Assess
      expect(retry).toEqual({
        status: 'completed',
        providerIds: ['ri-1'],
        upfrontCost: 6 * 8 * m5FamilyAllUpfront.upfront,
        recurringCost: 0,
        providerQuantity: 6,
      });
      expect(state.reservations).toHaveLength(1);
      expect(state.purchaseCalls).toBe(1);
      expect(tagsOf('ri-1')).toEqual([{ Key: CLIENT_TOKEN_TAG, Value: token }]);
      // A later repeat finds it by its tag alone
      expect(await marketplace().purchase({ ...request, earlierAttemptsSince: since })).toEqual(retry);
      expect(state.purchaseCalls).toBe(1);
    });

    it('adopts the reservation a buy call made whose answer was lost', async () => {
      // Prepare: EC2 buys, the answer never arrives: the outcome is unknown to the first attempt
      const since = new Date().toISOString();
      state.answerLost = true;
      await expect(marketplace().purchase(request)).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      // Act
      const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
      // Assess
      expect(retry).toMatchObject({ status: 'completed', providerIds: ['ri-1'], providerQuantity: 6 });
      expect(state.reservations).toHaveLength(1);
      expect(tagsOf('ri-1')).toEqual([{ Key: CLIENT_TOKEN_TAG, Value: token }]);
    });

    it('refuses to choose between two untagged reservations of the order: a typed error for an operator, nothing bought or tagged', async () => {
      // Prepare: two untagged reservations of the same order started since the first attempt
      const since = new Date(Date.now() - 60_000);
      state.reservations.push(
        { ...reservationOf(regional(), 6, new Date(since.getTime() + 1_000)), ReservedInstancesId: 'ri-a' },
        { ...reservationOf(regional(), 6, new Date(since.getTime() + 2_000)), ReservedInstancesId: 'ri-b' },
      );
      // Act
      const attempt = marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() });
      // Assess
      await expect(attempt).rejects.toBeInstanceOf(AmbiguousEarlierPurchase);
      await expect(attempt).rejects.toMatchObject({
        code: 'ERR_MARKETPLACE_AMBIGUOUS_EARLIER_PURCHASE',
        candidates: ['ri-a', 'ri-b'],
      });
      // The processor records no PurchaseOutcomeUnknown as failed
      await expect(attempt).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      expect(state.purchaseCalls).toBe(0);
      expect(state.reservations).toHaveLength(2);
      expect(ec2.commandCalls(CreateTagsCommand)).toHaveLength(0);
    });

    it('buys once an operator has set the foreign candidates aside with another value of the tag', async () => {
      // Prepare: the two candidates above, both marked by an operator as not this line item's
      const since = new Date(Date.now() - 60_000);
      for (const id of ['ri-a', 'ri-b']) {
        state.reservations.push({
          ...reservationOf(regional(), 6, new Date(since.getTime() + 1_000)),
          ReservedInstancesId: id,
          Tags: [{ Key: CLIENT_TOKEN_TAG, Value: 'not-a-line-item' }],
        });
      }
      // Act
      const result = await marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() });
      // Assess
      expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-3'] });
      expect(state.purchaseCalls).toBe(1);
    });

    it('ignores untagged reservations started before the first attempt, or of another count', async () => {
      // Prepare: the customer's own purchases of the same type: one a minute before, one of 5 instances
      const since = new Date();
      state.reservations.push(
        {
          ...reservationOf(regional(), 6, new Date(since.getTime() - 60_000)),
          ReservedInstancesId: 'ri-old',
        },
        {
          ...reservationOf(regional(), 5, new Date(since.getTime() + 1_000)),
          ReservedInstancesId: 'ri-five',
        },
      );
      // Act
      const result = await marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() });
      // Assess: the earlier attempt bought nothing, so this one buys
      expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-3'], providerQuantity: 6 });
      expect(state.purchaseCalls).toBe(1);
      expect(tagsOf('ri-old')).toEqual([]);
      expect(tagsOf('ri-five')).toEqual([]);
    });

    it("never adopts someone else's untagged reservation on a first attempt: without earlierAttemptsSince it buys", async () => {
      // Prepare: an untagged reservation of the very order, bought by the customer just now
      state.reservations.push({
        ...reservationOf(regional(), 6, new Date()),
        ReservedInstancesId: 'ri-theirs',
      });
      // Act
      const result = await marketplace().purchase(request);
      // Assess
      expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-2'] });
      expect(state.purchaseCalls).toBe(1);
      expect(state.reservations).toHaveLength(2);
      expect(tagsOf('ri-theirs')).toEqual([]);
      expect(tagsOf('ri-2')).toEqual([{ Key: CLIENT_TOKEN_TAG, Value: token }]);
    });

    it('leaves the outcome unknown when the adopted reservation cannot be tagged', async () => {
      // Prepare: the reservation of a crashed attempt; EC2 then refuses the tag
      const since = new Date(Date.now() - 60_000);
      state.reservations.push({
        ...reservationOf(regional(), 6, new Date()),
        ReservedInstancesId: 'ri-crashed',
      });
      ec2.on(CreateTagsCommand).rejects(ec2Refusal('RequestLimitExceeded', 'slow down'));
      // Act / Assess: untagged, it could be answered to another line item too, so nothing is settled
      await expect(
        marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() }),
      ).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      expect(state.purchaseCalls).toBe(0);
    });

    it('never answers failed when the lookup of the earlier purchase is refused', async () => {
      // Prepare: EC2 throttles DescribeReservedInstances (a client fault)
      ec2.on(DescribeReservedInstancesCommand).rejects(ec2Refusal('RequestLimitExceeded', 'slow down'));
      // Act / Assess
      await expect(
        marketplace().purchase({ ...request, earlierAttemptsSince: new Date().toISOString() }),
      ).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      expect(state.purchaseCalls).toBe(0);
    });
  });
});
