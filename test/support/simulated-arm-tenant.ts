/**
 * One simulated Azure tenant whose ARM (local/simulated-arm.ts) answers the `azure` marketplace in
 * this process, with every request it saw, and purchase requests for its subscription built from
 * the bundled catalog's Azure offers.
 */
import type { ArmHttpAnswer, ArmHttpRequest } from '../../local/simulated-arm';
import { answerArm, simulatedArmToken } from '../../local/simulated-arm';
import { catalogArmPrices } from '../../local/simulated-arm-orders';
import { armFetchOf } from '../../local/simulated-arm-service';
import {
  connectedAzureTenant,
  emptyCloud,
  type SimulatedAzureSubscription,
} from '../../local/simulated-cloud';
import { azureMarketplace } from '../../shared/cloud/marketplace/azure-marketplace';
import { type PurchaseRequest, purchaseClientToken } from '../../shared/cloud/marketplace/marketplace';
import { loadCatalog } from '../../shared/domain/catalog/catalog';
import type { Offer } from '../../shared/domain/engine/shapes/model';

export const armTenantId = 'contoso.onmicrosoft.com';
export const armSubscriptionId = '0d6a1c2e-3b4f-4a5d-8e9f-112233445566';
export const armClientId = '00000000-0000-4000-8000-00000000c0de';

const catalog = loadCatalog();

export function azureOffer(matches: (offer: Offer) => boolean): Offer {
  const offer = catalog.offers('azure').find(matches);
  if (!offer) throw new Error('no such Azure offer in the bundled catalog');
  return offer;
}

/** The Dsv5 size-flexible reservation in eastus, one year, paid monthly. */
export const dsv5Reservation = () =>
  azureOffer(
    (offer) =>
      offer.scope.kind === 'family' &&
      offer.scope.family === 'Dsv5' &&
      offer.scope.region === 'eastus' &&
      offer.term === 'one_year' &&
      offer.paymentOption === 'No Upfront',
  );

/** The Azure savings plan for compute, three years, paid up front. */
export const computeSavingsPlan = () =>
  azureOffer(
    (offer) =>
      offer.scope.kind === 'spend' && offer.term === 'three_year' && offer.paymentOption === 'All Upfront',
  );

/** A request of the tenant's subscription for the line item, limited to the offer's catalog price. */
export function azurePurchaseRequest(
  offer: Offer,
  quantity: number,
  lineItemId = 'line-1',
  extra: Partial<PurchaseRequest> = {},
): PurchaseRequest {
  const planId = 'plan-1';
  return {
    orgId: 'org-1',
    planId,
    lineItemId,
    provider: 'azure',
    accountId: armSubscriptionId,
    offer,
    quantity,
    ...(offer.scope.kind === 'family' ? { instanceType: 'Standard_D4s_v5' } : {}),
    limitPrice: { upfront: offer.upfront, hourly: offer.upfront / offer.termHours + offer.recurring },
    clientToken: purchaseClientToken(planId, lineItemId),
    ...extra,
  };
}

export interface ArmTenantOptions {
  /** The org's sharing is `account`: commitments apply to the subscription alone. */
  readonly single?: boolean;
  /** Called before ARM answers each request (a crash there: the request never arrived). */
  readonly before?: (request: ArmHttpRequest) => void;
  /** Called after ARM answered and before the answer reaches the caller (a crash: the answer is lost). */
  readonly after?: (request: ArmHttpRequest, answer: ArmHttpAnswer) => void;
  readonly now?: () => number;
}

export function simulatedArmTenant(options: ArmTenantOptions = {}) {
  const cloud = emptyCloud();
  cloud.azure[armTenantId] = connectedAzureTenant(armSubscriptionId);
  const requests: ArmHttpRequest[] = [];
  const sleeps: number[] = [];
  const answer = async (request: ArmHttpRequest): Promise<ArmHttpAnswer> => {
    requests.push(request);
    options.before?.(request);
    const answered = answerArm(cloud, request, {
      clientId: armClientId,
      prices: catalogArmPrices(catalog),
      now: options.now ?? (() => Date.parse('2026-11-24T10:00:00Z')),
    });
    options.after?.(request, answered);
    return answered;
  };
  const marketplace = azureMarketplace({
    armTokens: async (tenantId) => simulatedArmToken(tenantId),
    buyerOf: async (_orgId, subscriptionId) =>
      subscriptionId === armSubscriptionId
        ? { tenantId: armTenantId, single: options.single ?? false }
        : null,
    armEndpoint: 'https://management.azure.com',
    fetch: armFetchOf(answer),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const tenant = () => cloud.azure[armTenantId] as NonNullable<(typeof cloud.azure)[string]>;
  return {
    cloud,
    marketplace,
    requests,
    sleeps,
    answer,
    /** The subscription's settings, to make its ARM refuse. */
    subscription: () => tenant().subscriptions[armSubscriptionId] as SimulatedAzureSubscription,
    reservationOrders: () => Object.values(tenant().arm?.reservation_orders ?? {}),
    savingsPlanOrders: () => Object.values(tenant().arm?.savings_plan_aliases ?? {}),
    /** The requests that could buy (the order and alias PUTs). */
    puts: () => requests.filter((request) => request.method === 'PUT'),
  };
}
