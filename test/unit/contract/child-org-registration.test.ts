import { describe, expect, it } from 'vitest';
import { toChildOrgRegistration } from '../../../functions/partner-orgs/registration-forms';
import { registerChildOrgBody } from '../../../shared/contract/child-org-registration';
import { registeredOrganization } from '../../../shared/contract/partners';
import { parseInput } from '../../../shared/contract/validation-errors';

describe('child org registration (#14)', () => {
  it('accepts the reference form and reads it as a registration', () => {
    // Prepare
    const body = {
      name: '  Acme Corp ',
      partner_subscription_id: 'sub-42',
      users: [{ email: 'Ann@Acme.example', role: 'admin' }],
      domain: 'Acme.example',
      primary_address: { line1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' },
      aws_marketplace_offer_link: 'https://aws.amazon.com/marketplace/pp/prodview-acme',
    };

    // Act
    const registration = toChildOrgRegistration(registerChildOrgBody.parse(body));

    // Assess
    expect(registration).toEqual({
      name: 'Acme Corp',
      partnerSubscriptionId: 'sub-42',
      members: [{ email: 'ann@acme.example', role: 'admin', name: null }],
      domain: 'acme.example',
      primaryAddress: {
        line1: '1 Main St',
        line2: null,
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
      },
      offerLinks: { aws: 'https://aws.amazon.com/marketplace/pp/prodview-acme', azure: null, gcp: null },
    });
  });

  it('accepts the second form, pairing names with e-mail addresses and adding the org e-mail as a member', () => {
    // Prepare
    const body = {
      org_name: 'Globex',
      org_email: 'it@globex.example',
      user_emails: ['Hank@globex.example', 'mona@globex.example'],
      user_names: ['Hank Scorpio'],
    };

    // Act
    const registration = toChildOrgRegistration(registerChildOrgBody.parse(body));

    // Assess
    expect(registration).toEqual({
      name: 'Globex',
      partnerSubscriptionId: null,
      members: [
        { email: 'it@globex.example', role: 'admin', name: null },
        { email: 'hank@globex.example', role: 'admin', name: 'Hank Scorpio' },
        { email: 'mona@globex.example', role: 'admin', name: null },
      ],
      domain: null,
      primaryAddress: null,
      offerLinks: { aws: null, azure: null, gcp: null },
    });
  });

  it('does not add the org e-mail twice when it is also a user', () => {
    // Act
    const registration = toChildOrgRegistration(
      registerChildOrgBody.parse({
        org_name: 'Globex',
        org_email: 'IT@globex.example',
        user_emails: ['it@globex.example'],
      }),
    );

    // Assess
    expect(registration.members).toEqual([{ email: 'it@globex.example', role: 'admin', name: null }]);
  });

  it('names the fields of the second form when the body uses its names', () => {
    // Act
    const result = parseInput(
      registerChildOrgBody,
      { org_name: 'Globex', users: [{ email: 'hank@globex.example', role: 'admin' }] },
      'body',
    );

    // Assess
    expect(result).toEqual({ success: false, errors: { users: ['is not an allowed field'] } });
  });

  it('names the fields of the second form when its own fields are invalid', () => {
    // Act
    const result = parseInput(
      registerChildOrgBody,
      { org_name: 42, user_emails: ['not-an-address'] },
      'body',
    );

    // Assess
    expect(result.success).toBe(false);
    expect(Object.keys(result.success ? {} : result.errors).sort()).toEqual(['org_name', 'user_emails.0']);
  });

  it('names the fields of the reference form when the body uses its names', () => {
    // Act
    const result = parseInput(
      registerChildOrgBody,
      { name: 'Acme', users: [{ email: 'not-an-address', role: 'owner' }] },
      'body',
    );

    // Assess
    expect(result.success).toBe(false);
    expect(Object.keys(result.success ? {} : result.errors).sort()).toEqual([
      'users.0.email',
      'users.0.role',
    ]);
  });

  it('asks for the reference form when the body names neither', () => {
    // Act
    const result = parseInput(registerChildOrgBody, {}, 'body');

    // Assess
    expect(result).toEqual({ success: false, errors: { name: ['is required'] } });
  });

  it('rejects more names than e-mail addresses', () => {
    // Act
    const result = parseInput(
      registerChildOrgBody,
      { org_name: 'Globex', user_emails: ['hank@globex.example'], user_names: ['Hank', 'Mona'] },
      'body',
    );

    // Assess
    expect(result).toEqual({
      success: false,
      errors: { user_names: ['must not list more names than user_emails lists addresses'] },
    });
  });

  it('answers the organization with its id also as child_org_id', () => {
    // Prepare
    const id = '0b6f1c1e-3d5a-4c8e-9f7a-2b1c0d9e8f7a';
    const organization = {
      id,
      name: 'Acme',
      memberships: [],
      domain: null,
      primary_address: null,
      aws_marketplace_offer_link: null,
      azure_marketplace_offer_link: null,
      gcp_marketplace_offer_link: null,
    };

    // Act
    const withBoth = registeredOrganization.safeParse({ ...organization, child_org_id: id });
    const withoutChildOrgId = registeredOrganization.safeParse(organization);

    // Assess
    expect(withBoth.success).toBe(true);
    expect(withoutChildOrgId.success).toBe(false);
  });
});
