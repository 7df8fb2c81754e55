import { describe, expect, it } from 'vitest';
import type { OrgRepository } from '../../../../shared/app/ports';
import type { OrgPlacement } from '../../../../shared/domain/orgs';
import { withOrgPlacementCache } from '../../../../shared/store/caching/org-placement-cache';

/** An org repository that only answers placements, counting how often it is asked. */
function countingPlacements(known: Record<string, OrgPlacement>) {
  const asked: string[] = [];
  const repository = {
    placement: async (orgId: string) => {
      asked.push(orgId);
      return known[orgId] ?? null;
    },
  } as unknown as OrgRepository;
  return { repository, asked };
}

const clock = { now: () => new Date('2026-11-21T10:00:00Z') };
const child: OrgPlacement = { id: 'child', parentOrgId: 'partner', isPartner: false };

describe('withOrgPlacementCache', () => {
  it('reads a placement once and answers it from memory afterwards', async () => {
    // Prepare
    const { repository, asked } = countingPlacements({ child });
    const cached = withOrgPlacementCache(repository, clock);

    // Act
    const answers = [await cached.placement('child'), await cached.placement('child')];

    // Assess
    expect(answers).toEqual([child, child]);
    expect(asked).toEqual(['child']);
  });

  it('asks again for an org it did not find, so an org created since is found', async () => {
    // Prepare
    const known: Record<string, OrgPlacement> = {};
    const { repository, asked } = countingPlacements(known);
    const cached = withOrgPlacementCache(repository, clock);

    // Act
    const before = await cached.placement('child');
    known.child = child;
    const after = await cached.placement('child');

    // Assess
    expect(before).toBeNull();
    expect(after).toEqual(child);
    expect(asked).toEqual(['child', 'child']);
  });
});
