import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiKeyRecord, issueApiKey } from '../../../shared/auth/api-keys';
import { ConflictError, NotFoundError } from '../../../shared/domain/errors';
import { startTestTable, type TestTable } from '../../support/dynalite';

const createdAt = '2025-01-01T00:00:00.000Z';

function aUserKey(): ApiKeyRecord {
  return issueApiKey({ kind: 'user', orgId: randomUUID(), email: 'ada@example.com' }, createdAt).record;
}

describe('API key repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  it('reads back a user key and a partner key as created', async () => {
    // Prepare
    const userKey = aUserKey();
    const partnerKey = issueApiKey({ kind: 'partner', orgId: randomUUID() }, createdAt).record;

    // Act
    await table.store.apiKeys.create(userKey);
    await table.store.apiKeys.create(partnerKey);

    // Assess
    expect(await table.store.apiKeys.get(userKey.keyId)).toEqual(userKey);
    expect(await table.store.apiKeys.get(partnerKey.keyId)).toEqual(partnerKey);
  });

  it('stores the owner’s e-mail normalized', async () => {
    // Prepare
    const record = issueApiKey(
      { kind: 'user', orgId: randomUUID(), email: ' Ada@Example.COM' },
      createdAt,
    ).record;

    // Act
    await table.store.apiKeys.create(record);

    // Assess
    expect((await table.store.apiKeys.get(record.keyId))?.owner).toEqual({
      kind: 'user',
      orgId: record.owner.orgId,
      email: 'ada@example.com',
    });
  });

  it('refuses a second key with the same id, keeping the first', async () => {
    // Prepare
    const record = aUserKey();
    await table.store.apiKeys.create(record);

    // Act
    const duplicate = table.store.apiKeys.create({ ...record, secretHash: 'f'.repeat(64) });

    // Assess
    await expect(duplicate).rejects.toBeInstanceOf(ConflictError);
    expect((await table.store.apiKeys.get(record.keyId))?.secretHash).toBe(record.secretHash);
  });

  it('answers null for an unknown key id', async () => {
    expect(await table.store.apiKeys.get('0123456789abcdef')).toBeNull();
  });

  it('revokes a key and answers the revoked record', async () => {
    // Prepare
    const record = aUserKey();
    await table.store.apiKeys.create(record);

    // Act
    const revoked = await table.store.apiKeys.revoke(record.keyId, '2025-02-01T00:00:00.000Z');

    // Assess
    expect(revoked).toEqual({ ...record, revokedAt: '2025-02-01T00:00:00.000Z' });
    expect(await table.store.apiKeys.get(record.keyId)).toEqual(revoked);
  });

  it('keeps the first revocation time when revoked twice', async () => {
    // Prepare
    const record = aUserKey();
    await table.store.apiKeys.create(record);
    await table.store.apiKeys.revoke(record.keyId, '2025-02-01T00:00:00.000Z');

    // Act
    const again = await table.store.apiKeys.revoke(record.keyId, '2025-03-01T00:00:00.000Z');

    // Assess
    expect(again.revokedAt).toBe('2025-02-01T00:00:00.000Z');
  });

  it('rejects revoking an unknown key with a NotFoundError and creates nothing', async () => {
    // Act
    const revoke = table.store.apiKeys.revoke('unknownkey000000', '2025-02-01T00:00:00.000Z');

    // Assess
    await expect(revoke).rejects.toBeInstanceOf(NotFoundError);
    expect(await table.store.apiKeys.get('unknownkey000000')).toBeNull();
  });

  it('records when a key was last used', async () => {
    // Prepare
    const record = aUserKey();
    await table.store.apiKeys.create(record);

    // Act
    await table.store.apiKeys.markUsed(record.keyId, '2025-02-01T00:00:00.000Z');

    // Assess
    expect(await table.store.apiKeys.get(record.keyId)).toEqual({
      ...record,
      lastUsedAt: '2025-02-01T00:00:00.000Z',
    });
  });

  it('keeps the latest use when an earlier one is recorded after it', async () => {
    // Prepare
    const record = aUserKey();
    await table.store.apiKeys.create(record);
    await table.store.apiKeys.markUsed(record.keyId, '2025-02-02T00:00:00.000Z');

    // Act
    await table.store.apiKeys.markUsed(record.keyId, '2025-02-01T00:00:00.000Z');

    // Assess
    expect((await table.store.apiKeys.get(record.keyId))?.lastUsedAt).toBe('2025-02-02T00:00:00.000Z');
  });

  it('rejects marking an unknown key used with a NotFoundError and creates nothing', async () => {
    // Act
    const markUsed = table.store.apiKeys.markUsed('unknownkey000001', '2025-02-01T00:00:00.000Z');

    // Assess
    await expect(markUsed).rejects.toBeInstanceOf(NotFoundError);
    expect(await table.store.apiKeys.get('unknownkey000001')).toBeNull();
  });
});
