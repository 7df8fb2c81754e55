import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthFamilyKey } from '../../../shared/store/oauth/oauth-keys';
import { startTestTable, type TestTable } from '../../support/dynalite';

describe('token family revocations', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  /** An `oauth_family` item as the authorization server writes it (docs/data-model.md). */
  async function putFamily(familyId: string, revoked: boolean) {
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...oauthFamilyKey(familyId),
          type: 'oauth_family',
          version: 1,
          familyId,
          revoked,
          ...(revoked ? { revokedAt: '2026-11-24T12:00:00.000Z' } : {}),
        },
      }),
    );
  }

  it('tells a revoked family from an active one, and counts a family never stored as revoked', async () => {
    // Prepare
    await putFamily('active-family', false);
    await putFamily('revoked-family', true);

    // Act
    const answers = await Promise.all(
      ['active-family', 'revoked-family', 'unknown-family'].map((id) =>
        table.store.tokenFamilyRevocations.isRevoked(id),
      ),
    );

    // Assess
    expect(answers).toEqual([false, true, true]);
  });
});
