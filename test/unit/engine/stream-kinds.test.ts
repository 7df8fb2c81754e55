import { describe, expect, it } from 'vitest';
import { streamKinds } from '../../../shared/domain/engine/groups/stream-kinds';
import { stream } from './builders';

describe('stream kinds', () => {
  it('puts streams alike in provider, service, region, type, OS and tenancy in one kind, whatever their account', () => {
    // Prepare
    const base = { usage: [1] };
    const streams = [
      stream({ ...base, resourceId: 'a' }),
      stream({ ...base, resourceId: 'b', accountId: 'other' }),
      stream({ ...base, resourceId: 'c', provider: 'azure' }),
      stream({ ...base, resourceId: 'd', service: 'AmazonRDS' }),
      stream({ ...base, resourceId: 'e', region: 'eu-west-1' }),
      stream({ ...base, resourceId: 'f', instanceType: 'm5.xlarge' }),
      stream({ ...base, resourceId: 'g', operatingSystem: 'Linux' }),
      stream({ ...base, resourceId: 'h', tenancy: 'Dedicated' }),
      stream({ ...base, resourceId: 'i', ondemandPrice: 2 }),
    ];

    // Act
    const { kindOf, samples } = streamKinds(streams);

    // Assess: a and b (accounts differ) and i (price differs) share a kind; every other field splits.
    expect(Array.from(kindOf)).toEqual([0, 0, 1, 2, 3, 4, 5, 6, 0]);
    expect(samples.map((sample) => sample.resourceId)).toEqual(['a', 'c', 'd', 'e', 'f', 'g', 'h']);
  });
});
