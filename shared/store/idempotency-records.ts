import type { IdempotencyClaim, IdempotencyRepository } from '../app/ports';
import {
  type IdempotencyRecordState,
  idempotencyExpiresAt,
  inFlightExpiryMs,
  recordStanding,
  type StoredResponse,
} from '../domain/idempotency';
import { writeInBatches } from './batch-writes';
import { compressedParts, fromCompressedParts } from './compressed-parts';
import { deleteIf, putIfAbsent, updateIf } from './conditional-writes';
import { idempotencyRecordKey, idempotencyResponsePartKey, idempotencyResponsePartPrefix } from './keys';
import { queryAll, type StoredItem, type TableClient } from './table-client';

const IN_FLIGHT = 'in_flight';
const COMPLETED = 'completed';

/** Attributes of a completed record, removed when an attempt takes a stale record over. */
const RESPONSE_ATTRIBUTES = 'responseStatus, responseHeaders, responseBody, responseParts, completedAt';

/**
 * Idempotency records (docs/data-model.md, docs/purchases.md): `IDEM#<scope>#<key>` / `IDEM`,
 * holding the request's fingerprint, the attempt holding it, and once completed the response,
 * gzip-compressed (`responseBody`). A response too large for one item continues in part items in
 * the same partition, written before the record is completed, so a completed record always finds
 * them. Every item carries the TTL `expiresAt`.
 */
export function createIdempotencyRepository(table: TableClient): IdempotencyRepository {
  const keyOf = (claim: IdempotencyClaim) => idempotencyRecordKey(claim.scope, claim.key);

  async function storedResponse(claim: IdempotencyClaim, item: StoredItem): Promise<StoredResponse> {
    const parts = [item.responseBody as Uint8Array];
    if (Number(item.responseParts) > 1) {
      const partItems = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: {
          ':pk': keyOf(claim).PK,
          ':prefix': idempotencyResponsePartPrefix(String(item.attemptId)),
        },
        ConsistentRead: true,
      });
      parts.push(...partItems.map((part) => part.data as Uint8Array));
    }
    return {
      statusCode: Number(item.responseStatus),
      headers: item.responseHeaders as Record<string, string>,
      body: fromCompressedParts(parts) as string,
    };
  }

  return {
    async begin(claim, now) {
      const nowMs = now.getTime();
      const inFlight = {
        fingerprint: claim.fingerprint,
        attemptId: claim.attemptId,
        status: IN_FLIGHT,
        startedAt: now.toISOString(),
        inFlightUntil: nowMs + inFlightExpiryMs,
        expiresAt: idempotencyExpiresAt(nowMs),
      };
      const existing = await putIfAbsent(table, keyOf(claim), {
        type: 'idempotency_record',
        version: 1,
        scope: claim.scope,
        idempotencyKey: claim.key,
        ...inFlight,
      });
      if (!existing) return { outcome: 'started' };

      const standing = recordStanding(toRecordState(existing), claim.fingerprint, nowMs);
      if (standing === 'replay') {
        return { outcome: 'replay', response: await storedResponse(claim, existing) };
      }
      if (standing !== 'free') return { outcome: standing };
      // A stale record (expired, or its attempt abandoned): take it over, provided nobody wrote
      // it since it was read. Of two attempts taking it over at once, one writes; the other
      // finds the record in flight.
      const names = Object.keys(inFlight);
      const takenOver = await updateIf(table, {
        key: keyOf(claim),
        expression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')} REMOVE ${RESPONSE_ATTRIBUTES}`,
        condition: '#version = :seen',
        names: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        values: {
          ...Object.fromEntries(Object.entries(inFlight).map(([name, value]) => [`:${name}`, value])),
          ':seen': existing.version,
        },
      });
      return takenOver ? { outcome: 'started' } : { outcome: 'in_flight' };
    },

    async complete(claim, response, now) {
      const nowMs = now.getTime();
      const expiresAt = idempotencyExpiresAt(nowMs);
      const [first, ...rest] = compressedParts(response.body);
      await writeInBatches(
        table,
        rest.map((data, index) => ({
          put: {
            ...idempotencyResponsePartKey(claim.scope, claim.key, claim.attemptId, index + 1),
            type: 'idempotency_response_part',
            version: 1,
            data,
            expiresAt,
          },
        })),
      );
      return updateIf(table, {
        key: keyOf(claim),
        expression:
          'SET #status = :completed, responseStatus = :statusCode, responseHeaders = :headers, ' +
          'responseBody = :body, responseParts = :parts, completedAt = :at, expiresAt = :expiresAt',
        condition: 'attemptId = :attempt AND #status = :inFlight',
        names: { '#status': 'status' },
        values: {
          ':completed': COMPLETED,
          ':inFlight': IN_FLIGHT,
          ':attempt': claim.attemptId,
          ':statusCode': response.statusCode,
          ':headers': response.headers,
          ':body': first,
          ':parts': rest.length + 1,
          ':at': now.toISOString(),
          ':expiresAt': expiresAt,
        },
      });
    },

    async release(claim) {
      // False when another attempt holds the record (it took it over): not this attempt's to delete.
      await deleteIf(table, {
        key: keyOf(claim),
        condition: 'attemptId = :attempt AND #status = :inFlight',
        names: { '#status': 'status' },
        values: { ':attempt': claim.attemptId, ':inFlight': IN_FLIGHT },
      });
    },
  };
}

function toRecordState(item: StoredItem): IdempotencyRecordState {
  return {
    fingerprint: String(item.fingerprint),
    status: item.status === COMPLETED ? 'completed' : 'in_flight',
    inFlightUntil: Number(item.inFlightUntil),
    expiresAt: Number(item.expiresAt),
  };
}
