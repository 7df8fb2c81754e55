import type { RequestThrottle } from '../app/request-throttle-ports';
import { readTenantThrottle } from '../http/tenant-rate-limit';
import { dynamoRequestThrottle } from '../store/request-throttle';
import { createAwsTable, readAwsConfig } from './aws';
import { installable } from './installable';

/**
 * The Bearer requests' throttle the group handlers count in (docs/http.md, "Throttling"): the one
 * the local server or a test installed, else on Lambda the table of `TABLE_NAME` with the limits
 * of `TENANT_RATE_LIMIT` and `TENANT_BURST_LIMIT` (set by CDK), built on first use.
 */
const throttle = installable<RequestThrottle>(() =>
  dynamoRequestThrottle(createAwsTable(readAwsConfig(process.env)), readTenantThrottle(process.env)),
);

export const installRequestThrottle = throttle.install;
export const requestThrottle = throttle.get;
