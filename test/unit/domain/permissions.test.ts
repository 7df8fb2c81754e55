import { describe, expect, it } from 'vitest';
import type { MembershipRole, Organization } from '../../../shared/domain/orgs';
import { decideOrgAccess, type Permission } from '../../../shared/domain/permissions';
import type { Principal } from '../../../shared/domain/principal';

function org(id: string, parentOrgId: string | null = null): Organization {
  return {
    id,
    name: id,
    domain: null,
    primaryAddress: null,
    offerLinks: { aws: null, azure: null, gcp: null },
    partnerSubscriptionId: null,
    parentOrgId,
    isPartner: parentOrgId === null,
    commitmentSharing: 'organization',
    renewalHorizonDays: 30,
    maxUpfrontCost: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
  };
}

const partner = (orgId: string): Principal => ({ kind: 'partner', orgId, scopes: ['*'] });
const member = (orgId: string, role: MembershipRole): Principal => ({
  kind: 'user',
  orgId,
  userId: 'someone@example.com',
  role,
  scopes: ['*'],
});

describe('decideOrgAccess', () => {
  it('lets a partner act on its own org and on the orgs it registered', () => {
    expect(decideOrgAccess(partner('p1'), org('p1'), 'manage')).toBe('allowed');
    expect(decideOrgAccess(partner('p1'), org('c1', 'p1'), 'manage')).toBe('allowed');
  });

  it("hides another partner's child org and unrelated orgs from a partner", () => {
    expect(decideOrgAccess(partner('p1'), org('c2', 'p2'), 'read')).toBe('hidden');
    expect(decideOrgAccess(partner('p1'), org('p2'), 'read')).toBe('hidden');
  });

  it('hides every other org from a user, whatever its role', () => {
    expect(decideOrgAccess(member('o1', 'admin'), org('o2'), 'read')).toBe('hidden');
  });

  it.each<[MembershipRole, Permission, 'allowed' | 'forbidden']>([
    ['admin', 'read', 'allowed'],
    ['admin', 'apply', 'allowed'],
    ['admin', 'manage', 'allowed'],
    ['user', 'read', 'allowed'],
    ['user', 'apply', 'allowed'],
    ['user', 'manage', 'forbidden'],
    ['support', 'read', 'allowed'],
    ['support', 'apply', 'forbidden'],
    ['cloud_rep', 'manage', 'forbidden'],
    ['restricted_user', 'read', 'allowed'],
    ['restricted_user', 'apply', 'forbidden'],
  ])('gives a member with role %s %s access: %s', (role, permission, expected) => {
    expect(decideOrgAccess(member('o1', role), org('o1'), permission)).toBe(expected);
  });
});
