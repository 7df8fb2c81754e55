import { describe, expect, it } from 'vitest';
import {
  type CoverageGroup,
  groupStreams,
  ORGANIZATION_WIDE,
  sharingKey,
} from '../../../shared/domain/engine/groups/groups';
import type { UsageStream } from '../../../shared/domain/engine/shapes/model';
import { stream } from './builders';

describe('coverage groups', () => {
  const awsStreams = [
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
  ];
  const summarize = (streams: readonly UsageStream[], groups: readonly CoverageGroup[]) =>
    groups.map((group) => ({
      kind: group.kind,
      covered: group.coveredType,
      sharing: group.sharingKey,
      members: group.members.map((index) => streams[index]?.resourceId),
      weights: group.weights,
      step: group.step,
    }));

  it('groups AWS Linux/Shared EC2 of every account by family in normalization units, everything else exactly', () => {
    // Act
    const groups = summarize(awsStreams, groupStreams(awsStreams));

    // Assess
    expect(groups).toHaveLength(3);
    expect(groups).toContainEqual({
      kind: 'family',
      covered: 'm5',
      sharing: ORGANIZATION_WIDE,
      members: ['a', 'b', 'e'],
      weights: [4, 16, 4],
      step: 4,
    });
    expect(groups.filter((group) => group.kind === 'instance').map((group) => group.members)).toEqual(
      expect.arrayContaining([['c'], ['d']]),
    );
  });

  it('keeps each account in groups of its own under account sharing', () => {
    // Act
    const groups = summarize(awsStreams, groupStreams(awsStreams, 'account'));

    // Assess
    expect(groups).toHaveLength(4);
    expect(groups).toContainEqual({
      kind: 'family',
      covered: 'm5',
      sharing: sharingKey('111111111111', 'account'),
      members: ['a', 'b'],
      weights: [4, 16],
      step: 4,
    });
    expect(groups).toContainEqual({
      kind: 'family',
      covered: 'm5',
      sharing: sharingKey('other', 'account'),
      members: ['e'],
      weights: [4],
      step: 4,
    });
  });

  it('groups RDS MySQL, PostgreSQL and MariaDB by family and engine in normalization units, other engines exactly', () => {
    // Prepare
    const rds = { service: 'AmazonRDS', tenancy: 'Shared', usage: [1] };
    const streams = [
      stream({ ...rds, resourceId: 'my-large', operatingSystem: 'MySQL', instanceType: 'db.r5.large' }),
      stream({ ...rds, resourceId: 'my-4xl', operatingSystem: 'MySQL', instanceType: 'db.r5.4xlarge' }),
      stream({ ...rds, resourceId: 'pg', operatingSystem: 'PostgreSQL', instanceType: 'db.r5.xlarge' }),
      stream({ ...rds, resourceId: 'maria', operatingSystem: 'MariaDB', instanceType: 'db.r5.large' }),
      stream({ ...rds, resourceId: 'oracle', operatingSystem: 'Oracle', instanceType: 'db.r5.large' }),
    ];

    // Act
    const groups = summarize(streams, groupStreams(streams));

    // Assess
    expect(groups).toHaveLength(4);
    expect(groups).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'family',
          covered: 'db.r5',
          members: ['my-large', 'my-4xl'],
          weights: [4, 32],
          step: 4,
        }),
        expect.objectContaining({ kind: 'family', covered: 'db.r5', members: ['pg'], weights: [8] }),
        expect.objectContaining({ kind: 'family', covered: 'db.r5', members: ['maria'], weights: [4] }),
        expect.objectContaining({
          kind: 'instance',
          covered: 'db.r5.large',
          members: ['oracle'],
          weights: [1],
        }),
      ]),
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
