import type { OperationList } from '../operation-contract';
import { partnerSettings, partnerSettingsBody } from '../partners';
import { orgPath } from './path-params';

/** The partner settings of an org: marketplace offer links (#11). */
export const partnerSettingsOperations = {
  updatePartnerSettings: {
    method: 'PATCH',
    path: '/v2/org/{org_id}/partners',
    group: 'partner-settings',
    summary: "Set the partner's marketplace offer links",
    tag: 'Partners',
    public: false,
    scope: 'org:write',
    pathParams: orgPath,
    body: partnerSettingsBody,
    responses: { 200: partnerSettings },
  },
} satisfies OperationList;
