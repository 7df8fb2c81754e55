import { describe, expect, it } from 'vitest';
import { awsVerifyBody, registerChildBody } from '../../../shared/contract/onboarding';
import { inviteUsersBody, membership, partnerSettingsBody } from '../../../shared/contract/partners';
import { purchasePlanBody } from '../../../shared/contract/purchase-plans';
import { parseInput } from '../../../shared/contract/validation-errors';

/** An address of exactly `length` characters. */
function emailOfLength(length: number): string {
  const domain = '@example.com';
  return `${'a'.repeat(length - domain.length)}${domain}`;
}

describe('request bodies', () => {
  it('reject unknown fields, naming them', () => {
    // Act
    const result = parseInput(purchasePlanBody, { email: 'ann@example.com', is_admin: true }, 'body');

    // Assess
    expect(result).toEqual({ success: false, errors: { is_admin: ['is not an allowed field'] } });
  });

  it('reject unknown fields of nested objects, naming their path', () => {
    // Act
    const result = parseInput(
      inviteUsersBody,
      { users: [{ email: 'ann@example.com', role: 'admin', nickname: 'Ann' }] },
      'body',
    );

    // Assess
    expect(result).toEqual({ success: false, errors: { 'users.0.nickname': ['is not an allowed field'] } });
  });

  it('name a missing required field', () => {
    // Act
    const result = parseInput(purchasePlanBody, {}, 'body');

    // Assess
    expect(result).toEqual({ success: false, errors: { email: ['is required'] } });
  });

  it('file a body that is not an object under `body`', () => {
    // Act
    const result = parseInput(purchasePlanBody, ['ann@example.com'], 'body');

    // Assess
    expect(result.success).toBe(false);
    expect(Object.keys(result.success ? {} : result.errors)).toEqual(['body']);
  });

  it.each([
    ['purchase', (email: string) => purchasePlanBody.safeParse({ email })],
    ['invite', (email: string) => inviteUsersBody.safeParse({ users: [{ email, role: 'user' }] })],
    ['register_child', (email: string) => registerChildBody.safeParse({ company: 'Acme', email })],
    ['membership', (email: string) => membership.safeParse({ role: 'user', username: email })],
  ])('accept %s e-mail addresses of 255 characters and reject 256', (_name, parse) => {
    // Act
    const longest = parse(emailOfLength(255));
    const tooLong = parse(emailOfLength(256));

    // Assess
    expect(longest.success).toBe(true);
    expect(tooLong.success).toBe(false);
  });

  it('reject malformed e-mail addresses and trim surrounding spaces', () => {
    // Assess
    expect(purchasePlanBody.safeParse({ email: 'not-an-address' }).success).toBe(false);
    expect(purchasePlanBody.parse({ email: '  Ann@Example.com ' })).toEqual({ email: 'Ann@Example.com' });
  });

  it('reject an e-mail address listed twice in one invite, naming the repeat', () => {
    // Act
    const result = parseInput(
      inviteUsersBody,
      {
        users: [
          { email: 'ann@example.com', role: 'admin' },
          { email: 'ANN@example.com ', role: 'user' },
        ],
      },
      'body',
    );

    // Assess
    expect(result).toEqual({
      success: false,
      errors: { 'users.1.email': ['repeats the e-mail address of entry 0'] },
    });
  });

  it('reject an invite without users', () => {
    // Assess
    expect(inviteUsersBody.safeParse({ users: [] }).success).toBe(false);
  });
});

describe('marketplace offer links', () => {
  it('accept https URLs and null (clears the link)', () => {
    // Act
    const result = partnerSettingsBody.safeParse({
      aws_marketplace_offer_link: 'https://aws.amazon.com/marketplace/pp/prodview-abc123',
      gcp_marketplace_offer_link: null,
    });

    // Assess
    expect(result.success).toBe(true);
  });

  it.each([
    'http://aws.amazon.com/marketplace/pp/x',
    'javascript:alert(1)',
    'ftp://example.com/offer',
    'aws.amazon.com/x',
    'https://localhost/x',
    'https://aws.amazon.com@evil.example/',
    'https://user:secret@aws.amazon.com/marketplace/pp/x',
    'https://:secret@aws.amazon.com/x',
  ])('reject %s', (link) => {
    // Act
    const result = parseInput(partnerSettingsBody, { azure_marketplace_offer_link: link }, 'body');

    // Assess
    expect(result.success).toBe(false);
    expect(result.success ? {} : result.errors).toHaveProperty(['azure_marketplace_offer_link']);
  });
  it('say why a plain http link is refused', () => {
    // Act
    const result = parseInput(
      partnerSettingsBody,
      { aws_marketplace_offer_link: 'http://aws.amazon.com/x' },
      'body',
    );

    // Assess
    expect(result).toEqual({
      success: false,
      errors: { aws_marketplace_offer_link: ['must be an https URL'] },
    });
  });

  it('say why a link with userinfo is refused: the host it names is not the one a browser opens', () => {
    // Act
    const result = parseInput(
      partnerSettingsBody,
      { gcp_marketplace_offer_link: 'https://aws.amazon.com@evil.example/' },
      'body',
    );

    // Assess
    expect(result).toEqual({
      success: false,
      errors: {
        gcp_marketplace_offer_link: ['must not carry a user name or password (userinfo) before the host'],
      },
    });
  });
});

describe('AWS onboarding verification', () => {
  const valid = { onboarding_id: '3f0c2d9e-8a4b-4c1d-9e2f-1a2b3c4d5e6f', account_id: '123456789012' };

  it('accepts a version-4 onboarding id', () => {
    // Assess
    expect(awsVerifyBody.safeParse(valid).success).toBe(true);
  });

  it.each([
    ['a version-1 UUID', '3f0c2d9e-8a4b-1c1d-9e2f-1a2b3c4d5e6f'],
    ['a UUID of the wrong variant', '3f0c2d9e-8a4b-4c1d-7e2f-1a2b3c4d5e6f'],
    ['no UUID', 'onboarding-1'],
  ])('rejects %s as onboarding id', (_name, onboardingId) => {
    // Act
    const result = parseInput(awsVerifyBody, { ...valid, onboarding_id: onboardingId }, 'body');

    // Assess
    expect(result.success ? {} : result.errors).toHaveProperty(['onboarding_id']);
  });

  it('checks the existing Cost and Usage Report location', () => {
    // Act
    const result = parseInput(
      awsVerifyBody,
      {
        ...valid,
        existing_cur: { region: 'us-east-1', bucket: 'Not A Bucket', prefix: '', report_name: 'cur' },
      },
      'body',
    );

    // Assess
    expect(result).toEqual({
      success: false,
      errors: { 'existing_cur.bucket': ['must be an S3 bucket name'] },
    });
  });
});
