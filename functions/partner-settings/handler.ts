import { awsPartnerSettingsContext } from '../../shared/runtime/partner-settings';
import { createPartnerSettingsHandler } from './partner-settings-handler';

export const handler = createPartnerSettingsHandler(awsPartnerSettingsContext);
