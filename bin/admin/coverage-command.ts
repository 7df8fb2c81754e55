import { usageCoverage } from '../../shared/app/usage-coverage';
import { cloudProviders } from '../../shared/domain/cloud-providers';
import type { Provider } from '../../shared/domain/engine';
import { type AdminCommand, defineCommand, optional, required } from './admin-command';

/** `admin coverage --org <org_id> [--provider <p>]`: the usage no offer covers (docs/plans-api.md). */
export const coverageCommand: AdminCommand = defineCommand({
  name: 'coverage',
  summary:
    "list the org's usage that no offer of the catalog covers (provider, region, instance type, hours, on-demand cost over the plans' window): why a plan saves nothing",
  options: [
    { name: 'org', value: '<org_id>', required: true },
    {
      name: 'provider',
      value: '<provider>',
      choices: cloudProviders,
      help: 'one provider (default: every one with usage)',
    },
  ],
  needs: ['store'],
  async run({ store }, { options }) {
    const orgId = required(options, 'org');
    const coverage = await usageCoverage(
      store.ctx,
      orgId,
      optional(options, 'provider') as Provider | undefined,
    );
    return {
      org_id: orgId,
      providers: coverage.map((each) => ({
        provider: each.provider,
        window_start: each.window.start,
        window_hours: each.window.hours,
        resources: each.resources,
        without_offer: each.withoutOffer.map((usage) => ({
          region: usage.region,
          instance_type: usage.instanceType,
          operating_system: usage.operatingSystem,
          tenancy: usage.tenancy,
          resources: usage.resources,
          hours: Number(usage.hours.toFixed(6)),
          ondemand_cost: Number(usage.ondemandCost.toFixed(4)),
        })),
      })),
    };
  },
});
