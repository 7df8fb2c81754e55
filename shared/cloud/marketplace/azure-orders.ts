/**
 * What Azure reservation orders and savings plan orders share (docs/purchases.md, Azure): the
 * scope a commitment applies to, the term, the quote's price check, and polling a long-running
 * order until ARM says it ended.
 */
import {
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import type { Offer } from '../../domain/engine/shapes/model';
import { effectiveHourly } from '../../domain/purchases/purchase-orders';
import { ARM_MAX_WAIT_SECONDS, type ArmAnswer, type ArmRequester, armRequest } from './azure-arm-requests';

/** The subscription that buys, and whether the commitment applies to it alone (the org's sharing `account`). */
export interface AzureScope {
  readonly subscriptionId: string;
  readonly single: boolean;
}

/**
 * How far above the plan's price a quote may be and still be bought: 1% (Azure quotes whole
 * orders rounded to the cent in the pricing currency; a move beyond this is a price change).
 */
export const AZURE_PRICE_TOLERANCE = 0.01;

/** Polls of one order before the attempt gives up (the next attempt follows the same order). */
export const ARM_MAX_POLLS = 12;
/** The wait between polls when ARM names none. */
const DEFAULT_POLL_SECONDS = 5;

export function azureTerm(offer: Offer): 'P1Y' | 'P3Y' {
  return offer.term === 'three_year' ? 'P3Y' : 'P1Y';
}

export interface QuotedTotal {
  readonly amount: number;
  readonly currencyCode: string;
}

/** `pricingCurrencyTotal` of a quote's or an order's plan information: the whole order's price. */
export function azurePricingTotal(properties: Record<string, unknown>): QuotedTotal | null {
  const total = properties.pricingCurrencyTotal as { amount?: unknown; currencyCode?: unknown } | undefined;
  if (typeof total?.amount !== 'number' || !Number.isFinite(total.amount)) return null;
  return { amount: total.amount, currencyCode: String(total.currencyCode ?? 'USD') };
}

/**
 * The quote must still hold the plan's price: per unit and hour (the order's total over the term
 * and the quantity in the plan's units), at most AZURE_PRICE_TOLERANCE above the limit price.
 * Answers the refusal (`price_changed`), or null to buy.
 */
export function checkQuote(request: PurchaseRequest, quoted: QuotedTotal | null): PurchaseResult | null {
  if (quoted === null) {
    return {
      status: 'failed',
      message: 'Azure quoted no price for the order: nothing was bought; retry the purchase',
      providerCode: 'price_changed',
    };
  }
  if (quoted.currencyCode !== 'USD') {
    return {
      status: 'failed',
      message: `Azure quoted the order in ${quoted.currencyCode}, and the plan's prices are in USD: nothing was bought; buy it by hand`,
      providerCode: 'price_changed',
    };
  }
  const hourly = quoted.amount / request.offer.termHours / request.quantity;
  const limit = request.limitPrice.hourly;
  if (hourly > limit * (1 + AZURE_PRICE_TOLERANCE) + Number.EPSILON) {
    return {
      status: 'failed',
      message: `Azure quotes ${quoted.amount.toFixed(2)} USD for the order, ${hourly.toFixed(6)} per unit-hour against the plan's ${limit.toFixed(6)} (${effectiveHourlyText(request)}): nothing was bought; compute a new plan`,
      providerCode: 'price_changed',
    };
  }
  return null;
}

function effectiveHourlyText(request: PurchaseRequest): string {
  return `catalog ${effectiveHourly(request.offer).toFixed(6)}, tolerance ${AZURE_PRICE_TOLERANCE * 100}%`;
}

export interface PollTarget {
  readonly path: string;
  readonly apiVersion: string;
  readonly query?: Readonly<Record<string, string>>;
  /** The `Retry-After` of the answer that started the operation. */
  readonly firstWaitSeconds: number | null;
  readonly failedStates: readonly string[];
}

/** `properties.provisioningState` of an ARM resource. */
export function provisioningState(body: Record<string, unknown>): string {
  return String(((body.properties ?? {}) as { provisioningState?: unknown }).provisioningState ?? '');
}

/**
 * GETs the resource until its provisioning state is `Succeeded` or one of the failed states,
 * waiting what ARM asks (`Retry-After`, bounded) between polls. The order was accepted, so
 * anything that stops the polling leaves the outcome unknown, never `failed`: the next attempt
 * follows the same order.
 */
export async function pollToEnd(arm: ArmRequester, target: PollTarget): Promise<ArmAnswer> {
  let wait = target.firstWaitSeconds;
  for (let poll = 0; poll < ARM_MAX_POLLS; poll++) {
    if (wait !== null) await arm.sleep(Math.min(wait, ARM_MAX_WAIT_SECONDS) * 1000);
    let answer: ArmAnswer;
    try {
      answer = await armRequest(arm, {
        method: 'GET',
        path: target.path,
        apiVersion: target.apiVersion,
        ...(target.query ? { query: target.query } : {}),
      });
    } catch (error) {
      throw new PurchaseOutcomeUnknown(
        `polling ${target.path} failed (${error instanceof Error ? error.message : String(error)}): the next attempt follows it`,
      );
    }
    const state = provisioningState(answer.body);
    if (state === 'Succeeded' || target.failedStates.includes(state)) return answer;
    wait = answer.retryAfterSeconds ?? DEFAULT_POLL_SECONDS;
  }
  throw new PurchaseOutcomeUnknown(
    `${target.path} had not ended after ${ARM_MAX_POLLS} polls: the next attempt follows it`,
  );
}
