import {
  type Marketplace,
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
  purchaseClientToken,
  queuesPurchase,
} from '../../shared/cloud/marketplace/marketplace';
import { Crash } from './purchase-model-scenario';

/** The provider: buys once per client token, and remembers every call. */
export class ModelProvider implements Marketplace {
  readonly bought = new Map<string, Extract<PurchaseResult, { status: 'completed' }>>();
  readonly violations: string[] = [];
  readonly inFlight = new Set<string>();
  loseAnswer: 'before' | 'after' | null = null;
  crashNext: 'before' | 'after' | null = null;

  constructor(
    private readonly refusedOffers: ReadonlySet<string>,
    private readonly recordStatus: (lineItemId: string) => string | undefined,
    /** Per line item: when it starts, epoch ms; absent: bought now. */
    private readonly starts: ReadonlyMap<string, number>,
    private readonly now: () => number,
  ) {}

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const token = request.clientToken;
    if (token !== purchaseClientToken(request.planId, request.lineItemId))
      this.violations.push(`foreign token ${token}`);
    if (this.inFlight.has(token)) this.violations.push(`two calls at once for ${request.lineItemId}`);
    if (this.recordStatus(request.lineItemId) !== 'purchasing') {
      this.violations.push(
        `call for ${request.lineItemId} while its record is ${this.recordStatus(request.lineItemId)}`,
      );
    }
    // A call after the token bought, without saying an earlier attempt may have bought, would buy
    // twice at a provider that cannot look a purchase up by its token (EC2).
    if (this.bought.has(token) && request.earlierAttemptsSince === undefined) {
      this.violations.push(`repeat call for ${request.lineItemId} without earlierAttemptsSince`);
    }
    // A delayed line is never bought to start before its start: queued to it where the provider
    // queues purchases, else not called before it.
    const start = this.starts.get(request.lineItemId);
    const effectiveStart = request.startsAt ? Date.parse(request.startsAt) : this.now();
    if (start !== undefined && effectiveStart < start) {
      this.violations.push(`${request.lineItemId} bought to start before ${new Date(start).toISOString()}`);
    }
    if (request.startsAt !== undefined && !queuesPurchase(request.offer)) {
      this.violations.push(`startsAt sent for ${request.lineItemId}, whose provider queues nothing`);
    }
    this.inFlight.add(token);
    try {
      await Promise.resolve();
      if (this.crashNext === 'before') {
        this.crashNext = null;
        throw new Crash('crash before the provider call');
      }
      if (this.loseAnswer === 'before') {
        this.loseAnswer = null;
        throw new PurchaseOutcomeUnknown('timeout before the provider answered');
      }
      let result: PurchaseResult;
      if (this.refusedOffers.has(request.offer.id)) {
        result = { status: 'failed', message: 'refused', providerCode: 'Refused' };
      } else {
        const earlier = this.bought.get(token);
        const made = earlier ?? {
          status: 'completed' as const,
          providerIds: [`ri-${request.lineItemId}`],
          upfrontCost: request.offer.upfront * request.quantity,
          recurringCost: request.offer.recurring * request.quantity,
          providerQuantity: request.quantity,
        };
        this.bought.set(token, made);
        result = made;
      }
      if (this.crashNext === 'after') {
        this.crashNext = null;
        throw new Crash('crash after the provider call');
      }
      if (this.loseAnswer === 'after') {
        this.loseAnswer = null;
        throw new PurchaseOutcomeUnknown('the answer was lost after buying');
      }
      return result;
    } finally {
      this.inFlight.delete(token);
    }
  }
}
