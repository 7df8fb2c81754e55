import { EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { marketplace } from '../../support/aws-ec2-reservations';
import { catalogOffer, purchaseRequest } from './marketplace-requests';

describe('AwsMarketplace: lines an operator fulfils', () => {
  it('answers guaranteed offers and Azure/GCP lines as manual, calling no AWS API', async () => {
    const ec2 = mockClient(EC2Client);
    const leased = catalogOffer((offer) => offer.contractType.startsWith('leased_'));
    const azure = catalogOffer((offer) => offer.provider === 'azure');
    const gcp = catalogOffer((offer) => offer.provider === 'gcp');
    for (const offer of [leased, azure, gcp]) {
      expect(await marketplace().purchase(purchaseRequest(offer, 1))).toMatchObject({ status: 'manual' });
    }
    expect(ec2.calls()).toHaveLength(0);
    ec2.restore();
  });
});
