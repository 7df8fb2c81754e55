import type { RequestThrottle } from '../app/ports/request-throttle';
import { bearerThrottleWindow, type TenantThrottle } from '../http/tenant-rate-limit';
import { bearerThrottleKey } from './keys';
import { countIf } from './rate-counters';
import type { TableClient } from './table-client';

/**
 * The Bearer requests' fixed-window counters (docs/http.md, "Throttling"; docs/data-model.md): one
 * item per client, org and window, raised by one conditional update per request, gone by TTL a
 * minute after its window ends.
 */
export function dynamoRequestThrottle(table: TableClient, throttle: TenantThrottle): RequestThrottle {
  return {
    async admit(caller, now) {
      const window = bearerThrottleWindow(throttle, now.getTime());
      const counted = await countIf(
        table,
        bearerThrottleKey(caller.clientId, caller.orgId, window.index),
        'requests',
        window.limit,
        {
          mustExist: false,
          set: { type: 'request_throttle', expiresAt: Math.ceil(window.endsAtMs / 1000) + 60 },
        },
      );
      return counted
        ? { admitted: true }
        : {
            admitted: false,
            retryAfterSeconds: Math.max(1, Math.ceil((window.endsAtMs - now.getTime()) / 1000)),
          };
    },
  };
}
