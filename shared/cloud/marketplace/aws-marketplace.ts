/**
 * The `aws` marketplace: buys in the customer's account through the role it granted (an assumed
 * role with an ExternalId; the role comes from onboarding, and until then from configuration).
 * Reservations and savings plans are bought with the provider's APIs; guaranteed (leased) offers
 * and Azure/GCP lines become `manual`, for an operator to fulfil.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import { RDSClient } from '@aws-sdk/client-rds';
import { SavingsplansClient } from '@aws-sdk/client-savingsplans';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import {
  checkPurchaseRequest,
  InvalidPurchaseRequest,
  isGuaranteedOffer,
  type Marketplace,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { purchaseEc2Reservation } from './aws-ec2-reservations';
import { purchaseRdsReservation } from './aws-rds-reservations';
import { purchaseSavingsPlan } from './aws-savings-plans';

export interface AwsMarketplaceOptions {
  /** The customer's role the purchases are made with. */
  readonly roleArn: string;
  /** The ExternalId the role's trust policy requires (confused-deputy protection). */
  readonly externalId: string;
  /** Savings Plans is a global service answered in us-east-1. */
  readonly savingsPlansRegion?: string;
}

const ROLE_SESSION_NAME = 'commitment-purchase';
/** A purchase is a handful of calls: the shortest session STS grants is plenty. */
const ROLE_SESSION_SECONDS = 900;

export class AwsMarketplace implements Marketplace {
  readonly #credentials: ReturnType<typeof fromTemporaryCredentials>;
  readonly #savingsPlansRegion: string;
  readonly #ec2 = new Map<string, EC2Client>();
  readonly #rds = new Map<string, RDSClient>();
  #savingsPlans: SavingsplansClient | undefined;

  constructor(options: AwsMarketplaceOptions) {
    this.#credentials = fromTemporaryCredentials({
      params: {
        RoleArn: options.roleArn,
        ExternalId: options.externalId,
        RoleSessionName: ROLE_SESSION_NAME,
        DurationSeconds: ROLE_SESSION_SECONDS,
      },
    });
    this.#savingsPlansRegion = options.savingsPlansRegion ?? 'us-east-1';
  }

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    checkPurchaseRequest(request);
    const { offer } = request;
    if (offer.provider !== 'aws') {
      return { status: 'manual', reason: `${offer.provider} commitments are bought by an operator` };
    }
    if (isGuaranteedOffer(offer)) {
      return { status: 'manual', reason: 'guaranteed offers are fulfilled by an operator' };
    }
    if (offer.scope.kind === 'spend') return purchaseSavingsPlan(this.#savingsPlansClient(), request);
    const { region } = offer.scope;
    switch (offer.contractType) {
      case 'db_ris':
        return purchaseRdsReservation(this.#rdsClient(region), request);
      case 'standard_ris':
      case 'convertible_ris':
        return purchaseEc2Reservation(this.#ec2Client(region), request);
      default:
        throw new InvalidPurchaseRequest(`AWS sells no ${offer.contractType} reservation`);
    }
  }

  #ec2Client(region: string): EC2Client {
    return clientOf(this.#ec2, region, () => new EC2Client({ region, credentials: this.#credentials }));
  }

  #rdsClient(region: string): RDSClient {
    return clientOf(this.#rds, region, () => new RDSClient({ region, credentials: this.#credentials }));
  }

  #savingsPlansClient(): SavingsplansClient {
    this.#savingsPlans ??= new SavingsplansClient({
      region: this.#savingsPlansRegion,
      credentials: this.#credentials,
    });
    return this.#savingsPlans;
  }
}

/** One client per region, created on first use and kept for the process. */
function clientOf<Client>(clients: Map<string, Client>, region: string, create: () => Client): Client {
  let client = clients.get(region);
  if (!client) {
    client = create();
    clients.set(region, client);
  }
  return client;
}
