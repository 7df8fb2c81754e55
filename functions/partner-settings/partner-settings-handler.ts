import { updatePartnerSettings } from '../../shared/app/partner-settings';
import type { ContextWith } from '../../shared/app/ports';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { partnerSettingsOperations } from '../../shared/contract/operations/partner-settings';
import { partnerSettingsView } from '../../shared/contract/organization-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';

/** What the partner-settings function runs with: the repositories its use cases read and write. */
export type PartnerSettingsContext = ContextWith<'orgs' | 'orgUpdates'>;

/** An org's partner settings: its marketplace offer links (#11). */
export function createPartnerSettingsHandler(
  appContext: () => PartnerSettingsContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
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
    { bodies: jsonBodies, requestThrottle },
  );
}
