import type { ApiKeyRepository, Clock } from '../../app/ports';

/** A key's last use is recorded at most once per this interval by one process. */
export const keyUseRecordIntervalMs = 60_000;

/** Most keys whose last recorded use one process remembers; beyond, the oldest are forgotten. */
const maxRememberedKeys = 10_000;

/**
 * Records an API key's use at most once a minute per key and process, instead of on every
 * request: `lastUsedAt` is then accurate to a minute, and a busy key costs one write a minute
 * rather than one per request. Only this bookkeeping is throttled: key records are read on
 * every request, so a revoked key stops working at once (docs/plans-api.md, Storage calls).
 */
export function withThrottledKeyUse(
  apiKeys: ApiKeyRepository,
  clock: Clock,
  intervalMs = keyUseRecordIntervalMs,
): ApiKeyRepository {
  const recordedAt = new Map<string, number>();
  return {
    ...apiKeys,
    async markUsed(keyId, at) {
      const now = clock.now().getTime();
      const last = recordedAt.get(keyId);
      if (last !== undefined && now - last < intervalMs) return;
      recordedAt.delete(keyId);
      recordedAt.set(keyId, now);
      if (recordedAt.size > maxRememberedKeys) recordedAt.delete(recordedAt.keys().next().value as string);
      try {
        await apiKeys.markUsed(keyId, at);
      } catch (error) {
        // Not recorded: the next use tries again.
        recordedAt.delete(keyId);
        throw error;
      }
    },
  };
}
