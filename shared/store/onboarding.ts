import type { OnboardingRepository } from '../app/ports';
import type { CheckResult } from '../domain/onboarding/checklist';
import type {
  AwsOnboarding,
  AzureOnboarding,
  OnboardingProvider,
  OnboardingRecord,
} from '../domain/onboarding/onboarding-record';
import { deleteIf, putIfAbsent, updateIf } from './conditional-writes';
import { costExplorerProbeKey, onboardingKey } from './keys';
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

    async getCostExplorerProbe(orgId, accountId) {
      const item = await getItem(table, costExplorerProbeKey(orgId, accountId));
      if (!item) return null;
      return {
        accountId: item.accountId as string,
        at: item.at as string,
        result: (item.result as CheckResult | null | undefined) ?? null,
      };
    },

    claimCostExplorerProbe(orgId, probe, notBefore) {
      return updateIf(table, {
        key: costExplorerProbeKey(orgId, probe.accountId),
        expression:
          'SET #type = :type, accountId = :account, #at = :at, #result = :null, expiresAt = :expires',
        condition: 'attribute_not_exists(PK) OR #at <= :notBefore',
        names: { '#type': 'type', '#at': 'at', '#result': 'result' },
        values: {
          ':type': 'cost_explorer_probe',
          ':account': probe.accountId,
          ':at': probe.at,
          ':null': null,
          // Kept a day past its hour (TTL): it bounds the items a stream of account ids leaves.
          ':expires': Math.floor(Date.parse(probe.at) / 1000) + 25 * 3600,
          ':notBefore': notBefore,
        },
      });
    },

    async settleCostExplorerProbe(orgId, claim, result) {
      const key = costExplorerProbeKey(orgId, claim.accountId);
      if (result === null) {
        await deleteIf(table, {
          key,
          condition: '#at = :at',
          names: { '#at': 'at' },
          values: { ':at': claim.at },
        });
        return;
      }
      await updateIf(table, {
        key,
        expression: 'SET #result = :result',
        condition: '#at = :at',
        names: { '#at': 'at', '#result': 'result' },
        values: { ':at': claim.at, ':result': result },
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
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
