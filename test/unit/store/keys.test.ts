import { describe, expect, it } from 'vitest';
import {
  apiKeyKey,
  childLinkKey,
  childLinkPrefix,
  childNameKey,
  commitmentKey,
  commitmentPartition,
  commitmentProviderPrefix,
  idempotencyRecordKey,
  idempotencyResponsePartKey,
  idempotencyResponsePartPrefix,
  lineItemKey,
  lineItemPrefix,
  membershipByUserIndexKey,
  membershipKey,
  membershipPrefix,
  onboardingKey,
  orgKey,
  orgListIndexKey,
  planByIdIndexKey,
  planKey,
  planPrefix,
  planSetKey,
  planSetPrefix,
  purchaseKey,
  purchasePlanPartKey,
  purchasePlanPartPrefix,
  resourceMatchKey,
  resourceMatchPrefix,
  usageMonthPrefix,
  usagePartition,
  usageSeriesKey,
  usageStateKey,
  usageStatePrefix,
  usageSyncKey,
  userKey,
} from '../../../shared/store/keys';
import {
  oauthClientFamilyKey,
  oauthClientKey,
  oauthCodeKey,
  oauthFamilyByUserIndexKey,
  oauthFamilyKey,
  oauthRefreshTokenKey,
  oauthRequestKey,
  oauthSessionKey,
  oauthSignInCodeKey,
} from '../../../shared/store/oauth/oauth-keys';

describe('single-table keys', () => {
  it('builds each item’s keys as docs/data-model.md lays them out', () => {
    expect(orgKey('o1')).toEqual({ PK: 'ORG#o1', SK: 'ORG' });
    expect(orgListIndexKey('acme corp')).toEqual({ GSI1PK: 'ORGS', GSI1SK: 'acme corp' });
    expect(membershipKey('o1', 'ada@example.com')).toEqual({ PK: 'ORG#o1', SK: 'MEMBER#ada@example.com' });
    expect(membershipByUserIndexKey('ada@example.com', 'o1')).toEqual({
      GSI1PK: 'USER#ada@example.com',
      GSI1SK: 'ORG#o1',
    });
    expect(userKey('ada@example.com')).toEqual({ PK: 'USER#ada@example.com', SK: 'USER' });
    expect(childLinkKey('p1', 'c1')).toEqual({ PK: 'ORG#p1', SK: 'CHILD#c1' });
    expect(childNameKey('p1', 'big co')).toEqual({ PK: 'ORG#p1', SK: 'CHILDNAME#big co' });
    expect(apiKeyKey('k1')).toEqual({ PK: 'KEY#k1', SK: 'KEY' });
    expect(usageSeriesKey('o1', 'aws', 'i-123', '2025-01')).toEqual({
      PK: 'ORG#o1#USAGE#aws',
      SK: '2025-01#i-123',
    });
    expect(usageStateKey('o1', 'aws')).toEqual({ PK: 'ORG#o1', SK: 'USAGE#aws' });
    expect(planSetKey('o1', 'aws')).toEqual({ PK: 'ORG#o1', SK: 'PLANSET#aws' });
    expect(planKey('o1', 'aws', 'pl1')).toEqual({ PK: 'ORG#o1', SK: 'PLAN#aws#pl1' });
    expect(purchasePlanPartKey('pl1', 12)).toEqual({ PK: 'PLAN#pl1', SK: 'V2PLAN#0012' });
    expect(planByIdIndexKey('pl1')).toEqual({ GSI1PK: 'PLAN#pl1', GSI1SK: 'PLAN' });
    expect(lineItemKey('pl1', 'l1')).toEqual({ PK: 'PLAN#pl1', SK: 'LINE#l1' });
    expect(resourceMatchKey('pl1', 'l1', 'm1')).toEqual({ PK: 'PLAN#pl1', SK: 'MATCH#l1#m1' });
    expect(commitmentKey('o1', 'aws', '2026-01-31', 'c1')).toEqual({
      PK: 'ORG#o1#COMMIT',
      SK: 'aws#2026-01-31#c1',
    });
    expect(purchaseKey('pl1', 'l1')).toEqual({ PK: 'PLAN#pl1', SK: 'PURCHASE#l1' });
    expect(onboardingKey('o1')).toEqual({ PK: 'ORG#o1', SK: 'ONBOARDING' });
    expect(usageSyncKey('o1', 'aws')).toEqual({ PK: 'ORG#o1', SK: 'USAGE_SYNC#aws' });
    // Beside the usage state, never under its prefix (a query of `USAGE#` does not find it).
    expect(usageSyncKey('o1', 'aws').SK.startsWith(usageStatePrefix)).toBe(false);
    expect(oauthClientKey('cl1')).toEqual({ PK: 'OAUTH#CLIENT#cl1', SK: 'OAUTH#CLIENT#cl1' });
    expect(oauthCodeKey('ab12')).toEqual({ PK: 'OAUTH#CODE#ab12', SK: 'OAUTH#CODE#ab12' });
    expect(oauthRefreshTokenKey('cd34')).toEqual({ PK: 'OAUTH#RT#cd34', SK: 'OAUTH#RT#cd34' });
    expect(oauthFamilyKey('f1')).toEqual({ PK: 'OAUTH#FAMILY#f1', SK: 'FAMILY' });
    expect(idempotencyRecordKey('user:o1:ada@example.com', 'req-1')).toEqual({
      PK: 'IDEM#user:o1:ada@example.com#req-1',
      SK: 'IDEM',
    });
    expect(idempotencyResponsePartKey('partner:o1', 'req-1', 'a1', 2)).toEqual({
      PK: 'IDEM#partner:o1#req-1',
      SK: 'IDEM#PART#a1#0002',
    });
  });

  it('gives the partitions and prefixes that queries use the same text as the item keys', () => {
    expect(membershipKey('o1', 'a@b.c').SK.startsWith(membershipPrefix)).toBe(true);
    expect(childLinkKey('p1', 'c1').SK.startsWith(childLinkPrefix)).toBe(true);
    expect(childNameKey('p1', 'x').SK.startsWith(childLinkPrefix)).toBe(false);
    expect(planKey('o1', 'aws', 'pl1').SK.startsWith(planPrefix('aws'))).toBe(true);
    expect(planSetKey('o1', 'aws').SK.startsWith(planSetPrefix)).toBe(true);
    // A plan set is not one of the provider's plans, nor a part of a purchase one.
    expect(planSetKey('o1', 'aws').SK.startsWith(planPrefix('aws'))).toBe(false);
    expect(purchasePlanPartKey('pl1', 0).SK.startsWith(purchasePlanPartPrefix)).toBe(true);
    expect(purchasePlanPartKey('pl1', 0).SK.startsWith('PURCHASE#')).toBe(false);
    expect(lineItemKey('pl1', 'l1').SK.startsWith(lineItemPrefix)).toBe(true);
    expect(resourceMatchKey('pl1', 'l1', 'm1').SK.startsWith(resourceMatchPrefix)).toBe(true);
    expect(usageSeriesKey('o1', 'gcp', 'r', '2025-01').PK).toBe(usagePartition('o1', 'gcp'));
    expect(usageSeriesKey('o1', 'gcp', 'r', '2025-01').SK.startsWith(usageMonthPrefix('2025-01'))).toBe(true);
    expect(usageSeriesKey('o1', 'gcp', 'r', '2025-01').SK.startsWith(usageMonthPrefix('2025-1'))).toBe(false);
    expect(usageStateKey('o1', 'gcp').SK.startsWith(usageStatePrefix)).toBe(true);
    expect(
      commitmentKey('o1', 'aws', '2026-01-31', 'c1').SK.startsWith(commitmentProviderPrefix('aws')),
    ).toBe(true);
    expect(commitmentKey('o1', 'aws', '2026-01-31', 'c1').PK).toBe(commitmentPartition('o1'));
    // A response part lives in its record's partition, under its attempt's prefix only.
    expect(idempotencyResponsePartKey('p1', 'k', 'a1', 1).PK).toBe(idempotencyRecordKey('p1', 'k').PK);
    expect(
      idempotencyResponsePartKey('p1', 'k', 'a1', 1).SK.startsWith(idempotencyResponsePartPrefix('a1')),
    ).toBe(true);
    expect(
      idempotencyResponsePartKey('p1', 'k', 'a12', 1).SK.startsWith(idempotencyResponsePartPrefix('a1')),
    ).toBe(false);
  });

  it('keys e-mails trimmed and lower-cased', () => {
    expect(userKey('  Ada@Example.COM ')).toEqual(userKey('ada@example.com'));
    expect(membershipKey('o1', 'Ada@Example.COM')).toEqual(membershipKey('o1', 'ada@example.com'));
    expect(membershipByUserIndexKey(' ADA@example.com', 'o1')).toEqual(
      membershipByUserIndexKey('ada@example.com', 'o1'),
    );
  });

  it('rejects identifiers containing # so that no two items can share a key', () => {
    expect(() => orgKey('o1#USAGE#aws')).toThrow(RangeError);
    expect(() => usageSeriesKey('o1', 'aws', 'res#1', '2025-01')).toThrow(RangeError);
    expect(() => resourceMatchKey('pl1', 'l#1', 'm1')).toThrow(RangeError);
    expect(() => idempotencyRecordKey('user#o1', 'k')).toThrow(RangeError);
  });

  it('accepts # in free text that ends a key', () => {
    expect(userKey('a#b@example.com').PK).toBe('USER#a#b@example.com');
    expect(childNameKey('p1', 'c# shop').SK).toBe('CHILDNAME#c# shop');
    expect(idempotencyRecordKey('p1', 'key#1').PK).toBe('IDEM#p1#key#1');
  });

  it('numbers purchase plan parts so that they sort in order, and only 0 to 9999', () => {
    expect(purchasePlanPartKey('pl1', 9).SK < purchasePlanPartKey('pl1', 10).SK).toBe(true);
    expect(() => purchasePlanPartKey('pl1', 10_000)).toThrow(RangeError);
    expect(() => purchasePlanPartKey('pl1', -1)).toThrow(RangeError);
    expect(() => purchasePlanPartKey('pl1', 1.5)).toThrow(RangeError);
  });

  it('numbers idempotent response parts so that they sort in order, from 1 (part 0 is the record)', () => {
    expect(
      idempotencyResponsePartKey('p1', 'k', 'a1', 9).SK < idempotencyResponsePartKey('p1', 'k', 'a1', 10).SK,
    ).toBe(true);
    expect(() => idempotencyResponsePartKey('p1', 'k', 'a1', 0)).toThrow(RangeError);
    expect(() => idempotencyResponsePartKey('p1', 'k', 'a1', 10_000)).toThrow(RangeError);
  });

  it('keeps the authorization server items apart, a family where the authorizer reads it', () => {
    expect(oauthFamilyKey('f1')).toEqual({ PK: 'OAUTH#FAMILY#f1', SK: 'FAMILY' });
    expect(oauthClientFamilyKey('c1', 'f1')).toEqual({ PK: oauthClientKey('c1').PK, SK: 'FAMILY#f1' });
    expect(oauthRequestKey('r1').PK).toBe('OAUTH#REQ#r1');
    expect(oauthSessionKey('ab').PK).toBe('OAUTH#SESSION#ab');
    expect(oauthSignInCodeKey('r1').PK).toBe('OAUTH#OTP#r1');
    expect(oauthFamilyByUserIndexKey(' Ann@Example.com ', '2026-01-01T00:00:00.000Z', 'f1')).toEqual({
      GSI1PK: 'OAUTH#USER#ann@example.com',
      GSI1SK: '2026-01-01T00:00:00.000Z#f1',
    });
  });

  it('rejects empty segments', () => {
    expect(() => orgKey('')).toThrow(RangeError);
    expect(() => userKey('   ')).toThrow(RangeError);
    expect(() => childNameKey('p1', '')).toThrow(RangeError);
    expect(() => idempotencyRecordKey('p1', '')).toThrow(RangeError);
  });
});
