import { describe, expect, it } from 'vitest';
import {
  type IdempotencyRecordState,
  idempotencyScope,
  inFlightExpiryMs,
  isValidIdempotencyKey,
  recordStanding,
  requestFingerprint,
} from '../../../shared/domain/idempotency';

const apply = {
  method: 'POST',
  resource: '/v2/org/{org_id}/partners/purchase-plans-v2/{plan_id}/purchase',
  pathParams: { org_id: 'o1', plan_id: 'p1' },
  body: { email: 'ada@example.com', note: { a: 1, b: [1, 2] } },
};

describe('idempotency scope', () => {
  it('scopes a user to its org and a partner to its org', () => {
    expect(
      idempotencyScope({ kind: 'user', orgId: 'o1', userId: 'ada@example.com', role: 'admin', scopes: [] }),
    ).toBe('user:o1:ada@example.com');
    expect(idempotencyScope({ kind: 'partner', orgId: 'o1', scopes: [] })).toBe('partner:o1');
  });

  it('gives distinct callers distinct scopes, free of #, whatever their ids hold', () => {
    // Prepare: ids that would collide if joined as they are.
    const first = idempotencyScope({ kind: 'user', orgId: 'o1:x', userId: 'y', role: 'user', scopes: [] });
    const second = idempotencyScope({ kind: 'user', orgId: 'o1', userId: 'x:y', role: 'user', scopes: [] });
    const hashed = idempotencyScope({
      kind: 'user',
      orgId: 'o1',
      userId: 'a#b@example.com',
      role: 'user',
      scopes: [],
    });

    // Assess
    expect(first).not.toBe(second);
    expect(hashed).toBe('user:o1:a%23b@example.com');
  });
});

describe('idempotency key', () => {
  it('accepts 1 to 255 printable ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('Order 42 #retry ~!')).toBe(true);
  });

  it('refuses an empty key, a longer one, control characters and non-ASCII', () => {
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('k'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey('a\tb')).toBe(false);
    expect(isValidIdempotencyKey('clé')).toBe(false);
  });
});

describe('request fingerprint', () => {
  it('is a SHA-256 hex that ignores the order of body fields', () => {
    // Act
    const fingerprint = requestFingerprint(apply);
    const reordered = requestFingerprint({
      ...apply,
      body: { note: { b: [1, 2], a: 1 }, email: 'ada@example.com' },
    });

    // Assess
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(reordered).toBe(fingerprint);
  });

  it('tells apart requests differing in method, path parameter, body value or list order', () => {
    // Prepare
    const variants = [
      { ...apply, method: 'PUT' },
      { ...apply, pathParams: { org_id: 'o1', plan_id: 'p2' } },
      { ...apply, body: { ...apply.body, email: 'bob@example.com' } },
      { ...apply, body: { ...apply.body, note: { a: 1, b: [2, 1] } } },
      { ...apply, body: undefined },
    ];

    // Act
    const fingerprints = new Set([apply, ...variants].map(requestFingerprint));

    // Assess
    expect(fingerprints.size).toBe(variants.length + 1);
  });
});

describe('record standing', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  const live: IdempotencyRecordState = {
    fingerprint: 'f1',
    status: 'completed',
    inFlightUntil: now - 1000,
    expiresAt: now / 1000 + 3600,
  };

  it('replays a completed record of the same request and refuses it to another request', () => {
    expect(recordStanding(live, 'f1', now)).toBe('replay');
    expect(recordStanding(live, 'f2', now)).toBe('reused');
  });

  it('reports the same request in flight until its in-flight expiry, then frees the key', () => {
    // Prepare
    const inFlight: IdempotencyRecordState = {
      ...live,
      status: 'in_flight',
      inFlightUntil: now + inFlightExpiryMs,
    };

    // Assess
    expect(recordStanding(inFlight, 'f1', now)).toBe('in_flight');
    expect(recordStanding(inFlight, 'f2', now)).toBe('reused');
    expect(recordStanding(inFlight, 'f1', now + inFlightExpiryMs)).toBe('free');
    expect(recordStanding(inFlight, 'f2', now + inFlightExpiryMs)).toBe('free');
  });

  it('frees the key of an expired record the TTL has not deleted yet', () => {
    expect(recordStanding({ ...live, expiresAt: now / 1000 }, 'f1', now)).toBe('free');
    expect(recordStanding({ ...live, expiresAt: now / 1000 }, 'f2', now)).toBe('free');
  });
});
