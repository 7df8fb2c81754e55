import {
  permits,
  reservationPurchaseAction,
  savingsPlanPurchaseAction,
} from '../shared/domain/onboarding/azure-checks';
import {
  type ArmPriceList,
  emptyArmOrders,
  placeReservationOrder,
  placeSavingsPlanOrder,
  pollOrder,
  type ReservationPurchase,
  type SavingsPlanPurchase,
  type SimulatedArmOrders,
} from './simulated-arm-orders';
import type { SimulatedAzureSubscription, SimulatedAzureTenant, SimulatedCloud } from './simulated-cloud';
import { azureRoles } from './simulated-cloud';

/**
 * The simulated tenant's Azure Resource Manager for purchases (docs/purchases.md, Locally): the
 * calls the `azure` marketplace makes, answered as ARM documents them (Microsoft.Capacity
 * 2022-11-01: calculatePrice, reservation orders PUT and GET, their reservations, the tenant's
 * reservations; Microsoft.BillingBenefits 2022-11-01: validate, savings plan order aliases,
 * orders, the tenant's savings plans), on the simulated cloud document: what is bought stays in
 * the tenant (`arm`), and the subscription's `purchase` settings make it refuse.
 */

/** How a subscription's purchases are refused (`admin simulate-cloud azure --deny purchase`, `--throttle purchase`; tests set the rest). */
export interface SimulatedArmBehaviour {
  /** 403 AuthorizationFailed on the purchase calls, naming the action. */
  deny?: boolean;
  /** 429s answered (with Retry-After) before a purchase call passes: a count, or always. */
  throttle?: number | 'always';
  /** The quote (calculatePrice, validate) refuses with this ARM code. */
  refuse_with?: string;
  /** Orders end in this state. */
  order_outcome?: 'Succeeded' | 'Failed';
  /** Quotes are this multiple of the price list's (a price change). */
  price_factor?: number;
  /** GETs an order answers before it ends. */
  polls?: number;
}

export interface ArmHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly authorization: string | null;
}

export interface ArmHttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** The bearer token the simulated identity platform issues the service's app in a tenant. */
export function simulatedArmToken(tenantId: string): string {
  return `simulated-arm.${Buffer.from(tenantId).toString('base64url')}`;
}

function tenantOfToken(authorization: string | null): string | null {
  const match = /^Bearer simulated-arm\.([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  return match ? Buffer.from(match[1] as string, 'base64url').toString() : null;
}

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): ArmHttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const armError = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  answer(status, { error: { code, message } }, headers);

const documented: Readonly<Record<string, string>> = {
  NonsupportedAccountId: 'The subscription offer type is not eligible to purchase reservations.',
  CustomerCannotPurchaseSavingsPlan:
    'Your provider has not enabled Savings Plan purchase on this subscription.',
  QuotaExceeded: 'The reservation quantity exceeds the quota of the subscription.',
};

export interface SimulatedArmOptions {
  readonly clientId: string;
  readonly prices: ArmPriceList;
  readonly now: () => number;
}

/**
 * Answers one ARM request against `cloud`, changing it in place (a placed order, a poll, a
 * throttle used up). The caller stores the document when it changed.
 */
export function answerArm(cloud: SimulatedCloud, request: ArmHttpRequest, options: SimulatedArmOptions) {
  const tenantId = tenantOfToken(request.authorization);
  const tenant = tenantId ? cloud.azure[tenantId] : undefined;
  if (!tenantId || !tenant?.consent) {
    return armError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
  }
  tenant.arm ??= emptyArmOrders();
  return route(tenant as SimulatedAzureTenant & { arm: SimulatedArmOrders }, request, options);
}

const capacity = /^\/providers\/microsoft\.capacity\/(.+)$/i;
const benefits = /^\/providers\/microsoft\.billingbenefits\/(.+)$/i;

function route(
  tenant: SimulatedAzureTenant & { arm: SimulatedArmOrders },
  request: ArmHttpRequest,
  options: SimulatedArmOptions,
): ArmHttpAnswer {
  const { method, path } = request;
  const body = (request.body ?? {}) as Record<string, never>;
  const capacityPath = capacity.exec(path)?.[1];
  const benefitsPath = benefits.exec(path)?.[1];
  if (capacityPath !== undefined) {
    if (method === 'GET' && /^reservations$/i.test(capacityPath)) {
      return answer(200, {
        value: Object.values(tenant.arm.reservation_orders).map((placed) => placed.reservation),
      });
    }
    if (method === 'POST' && /^calculatePrice$/i.test(capacityPath)) {
      return purchaseCall(tenant, body, reservationPurchaseAction, options, () =>
        quote(body, subscriptionOf(tenant, body), options),
      );
    }
    const order = /^reservationOrders\/([^/]+)(\/reservations\/[^/]+)?$/i.exec(capacityPath);
    if (order) {
      const key = (order[1] as string).toLowerCase();
      const placed = tenant.arm.reservation_orders[key];
      if (method === 'PUT' && !order[2]) {
        return purchaseCall(tenant, body, reservationPurchaseAction, options, () => {
          if (placed) {
            return JSON.stringify(placed.request) === JSON.stringify(body)
              ? answer(200, placed.order)
              : armError(409, 'ReservationOrderIdAlreadyExists', `Reservation order ${key} already exists.`);
          }
          const refused = quote(body, subscriptionOf(tenant, body), options);
          if (refused.status !== 200) return refused;
          const total = (refused.body as { properties: { pricingCurrencyTotal: { amount: number } } })
            .properties.pricingCurrencyTotal.amount;
          const settings = subscriptionOf(tenant, body)?.purchase ?? {};
          const made = placeReservationOrder(
            key,
            body as unknown as ReservationPurchase,
            total,
            options.now(),
            settings.polls ?? 1,
            settings.order_outcome ?? 'Succeeded',
          );
          tenant.arm.reservation_orders[key] = made;
          return answer(202, made.order, {
            location: `/providers/Microsoft.Capacity/reservationOrders/${key}`,
            'retry-after': '1',
          });
        });
      }
      if (method === 'GET') {
        if (!placed)
          return armError(404, 'ReservationOrderNotFound', `Reservation order ${key} was not found.`);
        if (order[2]) {
          return placed.reservation.id?.toLowerCase().endsWith(order[2].toLowerCase())
            ? answer(200, placed.reservation)
            : armError(404, 'ReservationNotFound', `Reservation ${order[2]} was not found.`);
        }
        pollOrder(placed);
        return answer(200, placed.order, pending(placed.order));
      }
    }
  }
  if (benefitsPath !== undefined) {
    if (method === 'GET' && /^savingsPlans$/i.test(benefitsPath)) {
      return answer(200, {
        value: Object.values(tenant.arm.savings_plan_aliases).map((placed) => placed.plan),
      });
    }
    if (method === 'POST' && /^validate$/i.test(benefitsPath)) {
      const [benefit] = ((body as { benefits?: Record<string, never>[] }).benefits ?? []) as Record<
        string,
        never
      >[];
      return purchaseCall(tenant, benefit ?? {}, savingsPlanPurchaseAction, options, () => {
        const refusal = subscriptionOf(tenant, benefit ?? {})?.purchase?.refuse_with;
        return answer(200, {
          benefits: [
            refusal
              ? { valid: false, reasonCode: refusal, reason: documented[refusal] ?? refusal }
              : { valid: true },
          ],
        });
      });
    }
    const alias = /^savingsPlanOrderAliases\/([^/]+)$/i.exec(benefitsPath)?.[1];
    if (alias !== undefined) {
      const placed = tenant.arm.savings_plan_aliases[alias];
      if (method === 'PUT') {
        return purchaseCall(tenant, body, savingsPlanPurchaseAction, options, () => {
          if (placed) return answer(200, placed.alias);
          const settings = subscriptionOf(tenant, body)?.purchase ?? {};
          const made = placeSavingsPlanOrder(
            alias,
            body as unknown as SavingsPlanPurchase,
            options.now(),
            settings.polls ?? 1,
            settings.order_outcome ?? 'Succeeded',
          );
          tenant.arm.savings_plan_aliases[alias] = made;
          return answer(201, made.alias, { 'retry-after': '1' });
        });
      }
      if (method === 'GET') {
        if (!placed) return armError(404, 'NotFound', `Savings plan order alias ${alias} was not found.`);
        pollOrder(placed);
        return answer(200, placed.alias, pending(placed.alias));
      }
    }
    const order = /^savingsPlanOrders\/([^/]+)$/i.exec(benefitsPath)?.[1];
    if (method === 'GET' && order !== undefined) {
      const placed = Object.values(tenant.arm.savings_plan_aliases).find((each) => each.order.name === order);
      return placed
        ? answer(200, placed.order)
        : armError(404, 'NotFound', `Savings plan order ${order} was not found.`);
    }
  }
  return armError(404, 'InvalidResourceType', `The resource type could not be found: ${method} ${path}`);
}

/** ARM asks a poller of a resource still provisioning to wait a second. */
function pending(resource: Record<string, unknown>): Record<string, string> {
  const state = (resource.properties as { provisioningState?: string }).provisioningState;
  return state === 'Succeeded' || state === 'Failed' ? {} : { 'retry-after': '1' };
}

/** The subscription named by the body's billing scope (`/subscriptions/<id>`). */
function subscriptionOf(tenant: SimulatedAzureTenant, body: Record<string, never>) {
  const scope = ((body as { properties?: { billingScopeId?: string } }).properties?.billingScopeId ??
    '') as string;
  const id = /^\/subscriptions\/([^/]+)$/i.exec(scope)?.[1];
  return id ? tenant.subscriptions[id] : undefined;
}

/** A purchase call: the subscription's throttle, then its permissions, then the call. */
function purchaseCall(
  tenant: SimulatedAzureTenant,
  body: Record<string, never>,
  action: string,
  options: SimulatedArmOptions,
  call: () => ArmHttpAnswer,
): ArmHttpAnswer {
  const subscription = subscriptionOf(tenant, body);
  if (!subscription)
    return armError(400, 'InvalidSubscriptionId', 'The billing scope names no subscription of the tenant.');
  const settings = subscription.purchase ?? {};
  if (settings.throttle === 'always' || (typeof settings.throttle === 'number' && settings.throttle > 0)) {
    if (typeof settings.throttle === 'number') settings.throttle -= 1;
    return armError(429, 'TooManyRequests', 'The request is being throttled.', { 'retry-after': '1' });
  }
  if (settings.deny || !allows(subscription, action)) {
    return armError(
      403,
      'AuthorizationFailed',
      `The client '${options.clientId}' does not have authorization to perform action '${action}' over scope '/providers/${action.split('/')[0]}' or the scope is invalid.`,
    );
  }
  return call();
}

function allows(subscription: SimulatedAzureSubscription, action: string): boolean {
  return permits(
    subscription.role_assignments.flatMap((role) => (azureRoles[role] ? [azureRoles[role]] : [])),
    action,
  );
}

/** calculatePrice: the price list's price of the order, or the refusal the subscription is set to give. */
function quote(
  body: Record<string, never>,
  subscription: SimulatedAzureSubscription | undefined,
  options: SimulatedArmOptions,
): ArmHttpAnswer {
  const settings = subscription?.purchase ?? {};
  if (settings.refuse_with) {
    return armError(400, settings.refuse_with, documented[settings.refuse_with] ?? settings.refuse_with);
  }
  const order = body as unknown as {
    sku?: { name?: string };
    location?: string;
    properties?: { term?: string; billingPlan?: string; quantity?: number };
  };
  const sku = order.sku?.name ?? '';
  const location = order.location ?? '';
  const term = order.properties?.term ?? '';
  const hourly = options.prices(sku, location, term, order.properties?.billingPlan ?? '');
  if (hourly === null) {
    return armError(
      400,
      'SkuNotAvailable',
      `The sku '${sku}' is not available for reservation in location '${location}'.`,
    );
  }
  const hours = term === 'P3Y' ? 3 * 8760 : 8760;
  const total =
    Math.round(hourly * hours * (order.properties?.quantity ?? 0) * (settings.price_factor ?? 1) * 100) / 100;
  return answer(200, {
    properties: {
      billingCurrencyTotal: { currencyCode: 'USD', amount: total },
      pricingCurrencyTotal: { currencyCode: 'USD', amount: total },
      skuTitle: `Reserved VM Instance, ${sku}, ${location}, ${term}`,
      skuDescription: sku,
    },
  });
}
