import type { SignInRepository } from '../../app/ports';
import { deleteIf } from '../conditional-writes';
import { countIf, countPacedEvent, countRateEvent, refundPacedEvent } from '../rate-counters';
import { deleteItem, getItem, putItem, type TableClient } from '../table-client';
import { readClient } from './client-items';
import { codeItems, requestItems, sessionItems, signInCodeItems } from './oauth-items';
import {
  oauthCodeKey,
  oauthRateKey,
  oauthRequestKey,
  oauthSessionKey,
  oauthSignInCodeKey,
} from './oauth-keys';

/**
 * Signing in (docs/oauth.md, docs/data-model.md): the sign-in function's repository. Every item
 * carries the TTL `expiresAt` (epoch seconds); DynamoDB deletes expired items within days, so
 * readers check expiry themselves (dynalite never deletes them).
 */
export function createSignInRepository(table: TableClient): SignInRepository {
  return {
    getClient: (clientId) => readClient(table, clientId),

    putRequest: (request) => putItem(table, oauthRequestKey(request.requestId), requestItems.write(request)),

    async getRequest(requestId) {
      const item = await getItem(table, oauthRequestKey(requestId));
      return item ? requestItems.read(item) : null;
    },

    takeRequest: (requestId) =>
      deleteIf(table, { key: oauthRequestKey(requestId), condition: 'attribute_exists(PK)' }),

    putSession: (session) =>
      putItem(table, oauthSessionKey(session.sessionHash), sessionItems.write(session)),

    async getSession(sessionHash) {
      const item = await getItem(table, oauthSessionKey(sessionHash));
      return item ? sessionItems.read(item, { sessionHash }) : null;
    },

    deleteSession: (sessionHash) => deleteItem(table, oauthSessionKey(sessionHash)),

    putSignInCode: (code) => putItem(table, oauthSignInCodeKey(code.requestId), signInCodeItems.write(code)),

    async getSignInCode(requestId) {
      const item = await getItem(table, oauthSignInCodeKey(requestId));
      return item ? signInCodeItems.read(item, { requestId }) : null;
    },

    countSignInAttempt: (requestId, maxAttempts) =>
      countIf(table, oauthSignInCodeKey(requestId), 'attempts', maxAttempts, { mustExist: true }),

    deleteSignInCode: (requestId) => deleteItem(table, oauthSignInCodeKey(requestId)),

    countRateEvent: (bucket, limit, expiresAt) => countRateEvent(table, bucket, limit, expiresAt),
    countPacedEvent: (bucket, pacing) => countPacedEvent(table, oauthRateKey(bucket), pacing),
    refundPacedEvent: (bucket) => refundPacedEvent(table, oauthRateKey(bucket)),

    putCode: (code) => putItem(table, oauthCodeKey(code.codeHash), codeItems.write(code)),
  };
}
