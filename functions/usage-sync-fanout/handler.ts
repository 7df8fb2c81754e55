import { awsUsageSyncContext } from '../../shared/runtime/usage-sync';
import { createUsageSyncFanoutHandler } from './usage-sync-fanout-handler';

export const handler = createUsageSyncFanoutHandler(awsUsageSyncContext);
