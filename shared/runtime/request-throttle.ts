import type { RequestThrottle } from '../app/ports/request-throttle';
import { readTenantThrottle } from '../http/tenant-rate-limit';
import { dynamoRequestThrottle } from '../store/request-throttle';
import { createAwsTable, readAwsConfig } from './aws';
import { onFirstUse } from './function-context';

/**
 * The Bearer requests' throttle of a function group on AWS (docs/http.md, "Throttling"): the table
 * of `TABLE_NAME` with the limits of `TENANT_RATE_LIMIT` and `TENANT_BURST_LIMIT` (set by CDK),
 * built on the first invocation. The groups behind the authorizer take it as a dependency.
 */
export const awsRequestThrottle: () => RequestThrottle = onFirstUse(() =>
  dynamoRequestThrottle(createAwsTable(readAwsConfig(process.env)), readTenantThrottle(process.env)),
);
