import { randomUUID } from 'node:crypto';
import type { Organization } from '../../shared/domain/orgs';

/** An org as the repository stores it: a new id, every field set, `overrides` over them. */
export function anOrg(overrides: Partial<Organization> = {}): Organization {
  return {
    id: randomUUID(),
    name: 'Acme',
    domain: 'acme.example',
    primaryAddress: {
      line1: '1 Main St',
      line2: null,
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    },
    offerLinks: { aws: 'https://aws.example/offer', azure: null, gcp: null },
    partnerSubscriptionId: null,
    parentOrgId: null,
    isPartner: false,
    commitmentSharing: 'organization',
    renewalHorizonDays: 30,
    maxUpfrontCost: null,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    version: 1,
    ...overrides,
  };
}
