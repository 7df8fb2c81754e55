import { describe, expect, it } from 'vitest';
import { groupStreams } from '../../../shared/domain/engine/groups';
import { stream } from './builders';

describe('coverage groups', () => {
  it('groups AWS Linux/Shared EC2 by family in normalization units, everything else exactly', () => {
    // Prepare
    const streams = [
      stream({ resourceId: 'a', operatingSystem: 'Linux', instanceType: 'm5.large', usage: [1] }),
      stream({ resourceId: 'b', operatingSystem: 'Linux', instanceType: 'm5.2xlarge', usage: [1] }),
      stream({
        resourceId: 'c',
        operatingSystem: 'Linux',
        tenancy: 'Dedicated',
        instanceType: 'm5.large',
        usage: [1],
      }),
      stream({ resourceId: 'd', operatingSystem: 'Windows', instanceType: 'm5.large', usage: [1] }),
      stream({
        resourceId: 'e',
        operatingSystem: 'Linux',
        instanceType: 'm5.large',
        accountId: 'other',
        usage: [1],
      }),
      stream({
        resourceId: 'f',
        operatingSystem: 'MySQL',
        service: 'AmazonRDS',
        instanceType: 'db.r5.large',
        usage: [1],
      }),
    ];

    // Act
    const groups = groupStreams(streams);

    // Assess
    const summary = groups.map((group) => ({
      kind: group.kind,
      covered: group.coveredType,
      account: group.accountId,
      members: group.members.map((index) => streams[index]?.resourceId),
      weights: group.weights,
      step: group.step,
    }));
    expect(summary).toHaveLength(5);
    expect(summary).toContainEqual({
      kind: 'family',
      covered: 'm5',
      account: '111111111111',
      members: ['a', 'b'],
      weights: [4, 16],
      step: 4,
    });
    expect(summary).toContainEqual({
      kind: 'family',
      covered: 'm5',
      account: 'other',
      members: ['e'],
      weights: [4],
      step: 4,
    });
    expect(summary.filter((group) => group.kind === 'instance').map((group) => group.members)).toEqual(
      expect.arrayContaining([['c'], ['d'], ['f']]),
    );
  });

  it('groups Azure VMs by series in vCPUs, whatever their OS', () => {
    // Prepare
    const azure = { provider: 'azure' as const, region: 'eastus', service: 'Virtual Machines' };
    const streams = [
      stream({
        ...azure,
        resourceId: 'small',
        instanceType: 'Standard_D2s_v5',
        operatingSystem: 'Linux',
        usage: [1],
      }),
      stream({
        ...azure,
        resourceId: 'big',
        instanceType: 'Standard_D8s_v5',
        operatingSystem: 'Windows',
        usage: [1],
      }),
    ];

    // Act
    const groups = groupStreams(streams);

    // Assess
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ kind: 'family', coveredType: 'Dsv5', weights: [2, 8], step: 2 });
  });
});
