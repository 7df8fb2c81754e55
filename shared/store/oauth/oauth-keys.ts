import { emailKeyPart, type IndexKey, type ItemKey, keyPart, selfKey } from '../keys';

/** The OAuth server's item keys (docs/data-model.md): clients, codes, sign-ins, token families, rate counters. */

export function oauthClientKey(clientId: string): ItemKey {
  return selfKey(`OAUTH#CLIENT#${keyPart(clientId)}`);
}

/** Authorization codes are stored under the hex SHA-256 of the code, never the code itself. */
export function oauthCodeKey(codeHash: string): ItemKey {
  return selfKey(`OAUTH#CODE#${keyPart(codeHash)}`);
}

/** Refresh tokens are stored under the hex SHA-256 of the token, never the token itself. */
export function oauthRefreshTokenKey(tokenHash: string): ItemKey {
  return selfKey(`OAUTH#RT#${keyPart(tokenHash)}`);
}

/** Every OAuth client, in the order they were registered (operators' listing). */
export const oauthClientsPartition = 'OAUTH#CLIENTS';

export function oauthClientListIndexKey(createdAt: string, clientId: string): IndexKey {
  return { GSI1PK: oauthClientsPartition, GSI1SK: `${keyPart(createdAt)}#${keyPart(clientId)}` };
}

/** A validated authorization request awaiting sign-in and consent (#1). */
export function oauthRequestKey(requestId: string): ItemKey {
  return selfKey(`OAUTH#REQ#${keyPart(requestId)}`);
}

/** A sign-in session, under the hex SHA-256 of its cookie's value. */
export function oauthSessionKey(sessionHash: string): ItemKey {
  return selfKey(`OAUTH#SESSION#${keyPart(sessionHash)}`);
}

/** The one-time sign-in code of an authorization request. */
export function oauthSignInCodeKey(requestId: string): ItemKey {
  return selfKey(`OAUTH#OTP#${keyPart(requestId)}`);
}

/**
 * A refresh-token family: the tokens of one authorization. The authorizer reads its `revoked`
 * attribute to refuse access tokens whose `fam` claim names a revoked family.
 */
export function oauthFamilyKey(familyId: string): ItemKey {
  return { PK: `OAUTH#FAMILY#${keyPart(familyId)}`, SK: 'FAMILY' };
}

/** A user's token families (`revoke-tokens --user`), oldest first. */
export function oauthFamilyByUserIndexKey(userEmail: string, createdAt: string, familyId: string): IndexKey {
  return {
    GSI1PK: `OAUTH#USER#${emailKeyPart(userEmail)}`,
    GSI1SK: `${keyPart(createdAt)}#${keyPart(familyId)}`,
  };
}

export function oauthFamiliesOfUserPartition(userEmail: string): string {
  return `OAUTH#USER#${emailKeyPart(userEmail)}`;
}

export const oauthClientFamilyPrefix = 'FAMILY#';

/** A client's link to one of its token families, in the client's partition (`revoke-oauth-client`). */
export function oauthClientFamilyKey(clientId: string, familyId: string): ItemKey {
  return { PK: oauthClientKey(clientId).PK, SK: `${oauthClientFamilyPrefix}${keyPart(familyId)}` };
}

/** A rate-limit counter: `bucket` names what is counted (e.g. an address's hash) and its window. */
export function oauthRateKey(bucket: string): ItemKey {
  return selfKey(`OAUTH#RATE#${keyPart(bucket)}`);
}
