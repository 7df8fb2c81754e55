import { awsPartnerOrgsContext } from '../../shared/runtime/partner-orgs';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createPartnerOrgsHandler } from './partner-orgs-handler';

export const handler = createPartnerOrgsHandler(awsPartnerOrgsContext, awsRequestThrottle);
