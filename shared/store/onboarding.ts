import type { OnboardingRepository } from '../app/ports';
import type { CostExplorerProbe } from '../domain/onboarding/cost-explorer-probe';
import type {
  AwsOnboarding,
  AzureOnboarding,
  OnboardingProvider,
  OnboardingRecord,
} from '../domain/onboarding/onboarding-record';
import { putIfAbsent, updateIf } from './conditional-writes';
import { onboardingKey } from './keys';
import { getItem, type StoredItem, type TableClient } from './table-client';

/**
 * The onboarding record (`ORG#<org>` / `ONBOARDING`, docs/data-model.md): the ids and external id
 * as attributes, each provider's inputs and last verification as one map, written whole.
 */
export function createOnboardingRepository(table: TableClient): OnboardingRepository {
  const read = async (orgId: string) => {
    const item = await getItem(table, onboardingKey(orgId));
    return item ? toRecord(item) : null;
  };
  return {
    get: read,

    async createOrGet(record) {
      const existing = await putIfAbsent(table, onboardingKey(record.orgId), {
        type: 'onboarding',
        version: 1,
        orgId: record.orgId,
        onboardingId: record.onboardingId,
        provider: record.provider,
        externalId: record.externalId,
        ...(record.aws ? { aws: record.aws } : {}),
        ...(record.azure ? { azure: record.azure } : {}),
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      });
      return existing ? toRecord(existing) : record;
    },

    async update(orgId, onboardingId, change) {
      const sets: [string, unknown][] = [['updatedAt', change.at]];
      if (change.provider) sets.push(['provider', change.provider]);
      if (change.aws) sets.push(['aws', change.aws]);
      if (change.azure) sets.push(['azure', change.azure]);
      if (change.costExplorerProbe !== undefined) sets.push(['costExplorerProbe', change.costExplorerProbe]);
      const written = await updateIf(table, {
        key: onboardingKey(orgId),
        expression: `SET ${sets.map((_, index) => `#s${index} = :s${index}`).join(', ')}`,
        condition: [
          'onboardingId = :onboarding',
          ...(change.consumingConsentNonce === undefined ? [] : ['azure.consentNonce = :nonce']),
          ...(change.consumingSignInNonce === undefined ? [] : ['azure.signIn.stateNonce = :signIn']),
          ...(change.claimingSignInNonce === undefined
            ? []
            : ['azure.signIn.stateNonce = :claim AND attribute_not_exists(azure.signIn.claimed)']),
        ].join(' AND '),
        names: Object.fromEntries(sets.map(([name], index) => [`#s${index}`, name])),
        values: {
          ':onboarding': onboardingId,
          ...(change.consumingConsentNonce === undefined ? {} : { ':nonce': change.consumingConsentNonce }),
          ...(change.consumingSignInNonce === undefined ? {} : { ':signIn': change.consumingSignInNonce }),
          ...(change.claimingSignInNonce === undefined ? {} : { ':claim': change.claimingSignInNonce }),
          ...Object.fromEntries(sets.map(([, value], index) => [`:s${index}`, value])),
        },
      });
      return written ? read(orgId) : null;
    },

    claimCostExplorerProbe(orgId, onboardingId, probe, notBefore) {
      return updateIf(table, {
        key: onboardingKey(orgId),
        expression: 'SET costExplorerProbe = :probe',
        condition:
          'onboardingId = :onboarding AND (attribute_not_exists(costExplorerProbe) OR attribute_type(costExplorerProbe, :null) OR costExplorerProbe.accountId <> :account OR costExplorerProbe.#at <= :notBefore)',
        names: { '#at': 'at' },
        values: {
          ':probe': { accountId: probe.accountId, at: probe.at, result: null },
          ':onboarding': onboardingId,
          ':null': 'NULL',
          ':account': probe.accountId,
          ':notBefore': notBefore,
        },
      });
    },
  };
}

function toRecord(item: StoredItem): OnboardingRecord {
  return {
    orgId: item.orgId as string,
    onboardingId: item.onboardingId as string,
    provider: item.provider as OnboardingProvider,
    externalId: item.externalId as string,
    aws: (item.aws as AwsOnboarding | undefined) ?? null,
    azure: (item.azure as AzureOnboarding | undefined) ?? null,
    costExplorerProbe: (item.costExplorerProbe as CostExplorerProbe | null | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
