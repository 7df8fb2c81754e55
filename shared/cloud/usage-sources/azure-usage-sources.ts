import type {
  AzureUsageSources,
  AzureUsageSubscription,
  UsageSourceSession,
} from '../../app/ports/usage-sync';
import type { ExistingCommitment } from '../../domain/engine/shapes/model';
import { azureCostExportOf, type CostManagementExport } from '../../domain/usage-sources/azure-cost-exports';
import {
  type AzureOrderPrice,
  type AzureReservation,
  type AzureSavingsPlan,
  azureReservationCommitment,
  azureSavingsPlanCommitment,
} from '../../domain/usage-sources/azure-owned-commitments';
import {
  currentExportFiles,
  type ExportLayout,
  exportListingPrefix,
} from '../../domain/usage-sources/export-files';
import { armGet, type TokenSource } from '../verifiers/azure-arm-probe';
import { ProviderError } from '../verifiers/provider-failure';
import { azureBlobExports } from './azure-blob-exports';

/** The documented api-versions of the ARM reads. */
export const azureApiVersions = {
  exports: '2024-08-01',
  reservations: '2022-11-01',
  savingsPlans: '2022-11-01',
} as const;

/** Pages of ARM lists followed (`nextLink`) before giving up. */
const maxPages = 100;
const armTimeoutMs = 30_000;

export interface AzureUsageSourcesOptions {
  /** ARM tokens of the service's app, per tenant (the verifier's, azure-arm-probe.ts). */
  readonly armTokens: TokenSource;
  /** Blob Storage tokens of the same app (clientSecretTokens with storageScope). */
  readonly storageTokens: TokenSource;
  /** @default https://management.azure.com */
  readonly armEndpoint?: string;
  /** A storage account's Blob endpoint: @default `https://<account>.blob.core.windows.net` */
  readonly blobEndpoint?: (storageAccount: string) => string;
}

/**
 * A connected Azure subscription's Cost Management export and owned commitments, read with the
 * service's app in the customer's tenant (docs/onboarding.md, What the sync reads): the export
 * from ARM, its files from the storage account it delivers to, reservations
 * (Microsoft.Capacity) and savings plans (Microsoft.BillingBenefits) from ARM.
 */
export function azureUsageSources(options: AzureUsageSourcesOptions): AzureUsageSources {
  const arm = (options.armEndpoint ?? 'https://management.azure.com').replace(/\/$/, '');
  const blobEndpoint =
    options.blobEndpoint ?? ((account: string) => `https://${account}.blob.core.windows.net`);
  const armOrigin = new URL(arm).origin;
  // ARM's next page is followed, with the ARM token, only on ARM's own host: a `nextLink` that
  // names another host would receive the token (docs/usage-sync.md, What is refused).
  const onArm = (nextLink: string, path: string): string => {
    const next = URL.canParse(nextLink) ? new URL(nextLink) : null;
    if (next === null || next.origin !== armOrigin) {
      throw new ProviderError(
        'InvalidNextLink',
        `the nextLink of ${path} leaves ${armOrigin}; it is not followed`,
      );
    }
    return next.href;
  };
  return {
    async connect(subscription) {
      const token = await options.armTokens(subscription.tenantId);
      const list = async <T>(path: string, apiVersion: string): Promise<T[]> => {
        const found: T[] = [];
        let url: string | undefined = `${arm}${path}?api-version=${apiVersion}`;
        for (let page = 0; page < maxPages && url; page++) {
          const body = await armGet(url, token, armTimeoutMs);
          found.push(...((body.value ?? []) as T[]));
          url = typeof body.nextLink === 'string' && body.nextLink ? onArm(body.nextLink, path) : undefined;
        }
        if (url) throw new Error(`more than ${maxPages} pages of ${path}`);
        return found;
      };
      const exports = await list<CostManagementExport>(
        `/subscriptions/${encodeURIComponent(subscription.subscriptionId)}/providers/Microsoft.CostManagement/exports`,
        azureApiVersions.exports,
      );
      const found = azureCostExportOf(exports, subscription);
      const blobs = azureBlobExports({
        accountUrl: blobEndpoint(found.storageAccount),
        container: found.container,
        token: () => options.storageTokens(subscription.tenantId),
      });
      const layout: ExportLayout = {
        kind: 'azure-cost-export',
        directory: found.directory,
        name: found.name,
      };
      return subscriptionSession(subscription, layout, blobs, {
        reservations: () =>
          list<AzureReservation>('/providers/Microsoft.Capacity/reservations', azureApiVersions.reservations),
        order: (orderPath) =>
          armGet(
            `${arm}${orderPath}?api-version=${azureApiVersions.reservations}&$expand=planInformation`,
            token,
            armTimeoutMs,
          ),
        savingsPlans: () =>
          list<AzureSavingsPlan>(
            '/providers/Microsoft.BillingBenefits/savingsPlans',
            azureApiVersions.savingsPlans,
          ),
      });
    },
  };
}

interface ArmCommitmentReads {
  reservations(): Promise<AzureReservation[]>;
  /** `GET <order path>?$expand=planInformation`. */
  order(orderPath: string): Promise<Record<string, unknown>>;
  savingsPlans(): Promise<AzureSavingsPlan[]>;
}

/** `/providers/Microsoft.Capacity/reservationOrders/<order>/reservations/<id>` -> the order's path. */
const orderPathOf = (reservationId: string) =>
  /^(\/providers\/microsoft\.capacity\/reservationorders\/[^/]+)/i.exec(reservationId)?.[1] ?? null;

/** The order's total price and quantity, which its reservations share. */
function orderPrice(order: Record<string, unknown>): AzureOrderPrice {
  const properties = (order.properties ?? {}) as {
    originalQuantity?: number;
    planInformation?: { pricingCurrencyTotal?: { amount?: number } };
  };
  return {
    amount: properties.planInformation?.pricingCurrencyTotal?.amount ?? 0,
    quantity: properties.originalQuantity ?? 0,
  };
}

function subscriptionSession(
  subscription: AzureUsageSubscription,
  layout: ExportLayout,
  blobs: ReturnType<typeof azureBlobExports>,
  reads: ArmCommitmentReads,
): UsageSourceSession {
  const subscriptionId = subscription.subscriptionId;
  // A commitment scoped to another subscription of the tenant is not this subscription's.
  const ours = (commitment: ExistingCommitment | null): commitment is ExistingCommitment =>
    commitment !== null && commitment.accountId.toLowerCase() === subscriptionId.toLowerCase();
  return {
    async listExportFiles() {
      const listed = await blobs.listAll(exportListingPrefix(layout));
      return currentExportFiles(layout, listed, (name, maxBytes) => blobs.getText(name, maxBytes));
    },

    openExportFile(file) {
      return blobs.open(file);
    },

    async ownedCommitments() {
      const reservations = (await reads.reservations()).filter(
        (reservation) =>
          reservation.properties?.provisioningState === 'Succeeded' &&
          reservation.properties.reservedResourceType === 'VirtualMachines',
      );
      const prices = new Map<string, AzureOrderPrice>();
      for (const reservation of reservations) {
        const orderPath = orderPathOf(reservation.id ?? '');
        if (!orderPath)
          throw new Error(`the provider answered reservation ${reservation.id} outside an order`);
        const key = orderPath.toLowerCase();
        if (!prices.has(key)) prices.set(key, orderPrice(await reads.order(orderPath)));
      }
      const reserved = reservations
        .map((reservation) =>
          azureReservationCommitment(
            reservation,
            prices.get(orderPathOf(reservation.id ?? '')?.toLowerCase() ?? '') ?? { amount: 0, quantity: 0 },
            subscriptionId,
          ),
        )
        .filter(ours);
      const plans = (await reads.savingsPlans())
        .map((plan) => azureSavingsPlanCommitment(plan, subscriptionId))
        .filter(ours);
      return [...reserved, ...plans];
    },
  };
}
