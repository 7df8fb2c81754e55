import { awsPartnerSettingsContext } from '../../shared/runtime/partner-settings';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createPartnerSettingsHandler } from './partner-settings-handler';

export const handler = createPartnerSettingsHandler(awsPartnerSettingsContext, awsRequestThrottle);
