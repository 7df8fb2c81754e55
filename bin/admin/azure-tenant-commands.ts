import { userInfo } from 'node:os';
import { rebindAzureTenant } from '../../shared/app/azure-tenant-rebind';
import { type AdminCommand, defineCommand, optional, required } from './admin-command';

/** One Azure tenant, one org (docs/onboarding.md): the operator moves a tenant at a partner's request. */
export const azureTenantCommands: readonly AdminCommand[] = [
  defineCommand({
    name: 'rebind-azure-tenant',
    summary:
      "move an Azure tenant (and its subscriptions) to another org at a partner's request; the previous org's consent is withdrawn, an audit item kept and an audit line written on stderr",
    options: [
      { name: 'tenant', value: '<tenant_id>', required: true, help: 'the tenant id (a GUID)' },
      { name: 'org', value: '<org_id>', required: true, help: 'the org the tenant moves to' },
      {
        name: 'reason',
        value: '<text>',
        required: true,
        help: 'why (the request, a ticket): kept in the audit item',
      },
      { name: 'by', value: '<operator>', help: 'who moves it; default: the user running the CLI' },
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const by = optional(options, 'by') ?? userInfo().username;
      const moved = await rebindAzureTenant(store.ctx, {
        tenantId: required(options, 'tenant'),
        toOrgId: required(options, 'org'),
        reason: required(options, 'reason'),
        by,
      });
      const answer = {
        tenant_id: moved.tenantId,
        from_org_id: moved.fromOrgId,
        to_org_id: moved.toOrgId,
        subscription_ids: moved.subscriptionIds,
        previous_consent_withdrawn: moved.previousConsentWithdrawn,
        at: moved.at,
      };
      process.stderr.write(`${JSON.stringify({ audit: 'rebind-azure-tenant', by, ...answer })}\n`);
      return answer;
    },
  }),
];
