import { awsUsageSyncContext } from '../../shared/runtime/usage-sync';
import { createUsageSyncHandler } from './usage-sync-handler';

export const handler = createUsageSyncHandler(awsUsageSyncContext);
