import { orgRepository, orgUpdateRepository } from '../store/store';
import { awsFunctionContext } from './function-context';

/** The partner-settings function on AWS: its repositories on the service's table, built on the first invocation. */
export const awsPartnerSettingsContext = awsFunctionContext({
  orgs: orgRepository,
  orgUpdates: orgUpdateRepository,
});
