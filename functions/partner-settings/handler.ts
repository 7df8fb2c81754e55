import { updatePartnerSettings } from '../../shared/app/partner-settings';
import { partnerSettingsOperations } from '../../shared/contract/operations/partner-settings';
import { partnerSettingsView } from '../../shared/contract/organization-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';
import { functionContext } from '../../shared/runtime/current';
import { orgRepository, orgUpdateRepository } from '../../shared/store/store';

/** The repositories this function's use cases read and write; it bundles no other. */
const appContext = functionContext({ orgs: orgRepository, orgUpdates: orgUpdateRepository });
/** An org's partner settings: its marketplace offer links (#11). */
export const handler = createGroupHandler(
  partnerSettingsOperations,
  {
    updatePartnerSettings: async ({ principal, pathParams, body }) => {
      const org = await updatePartnerSettings(appContext(), principal, pathParams.org_id, {
        aws: body.aws_marketplace_offer_link,
        azure: body.azure_marketplace_offer_link,
        gcp: body.gcp_marketplace_offer_link,
      });
      return partnerSettingsView(org);
    },
  },
  { bodies: jsonBodies },
);
