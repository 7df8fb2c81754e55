import { awsPartnerOrgsContext } from '../../shared/runtime/partner-orgs';
import { createPartnerOrgsHandler } from './partner-orgs-handler';

export const handler = createPartnerOrgsHandler(awsPartnerOrgsContext);
