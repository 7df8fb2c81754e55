/**
 * The owned commitments booked before they are applied (existing-commitments.ts): each one's pool,
 * quantity in pool units and amortized hourly cost, and the pools in the order the provider applies
 * them (zonal, then regional reservations, then instance plans, then other spend commitments), each
 * pool's commitments in the order they were bought (docs/plan-engine.md, Owned first). Independent
 * of usage values and plan profiles.
 */

import { buildPool, type CoveragePool } from '../groups/coverage-pool';
import { type GroupIndex, sharingKey } from '../groups/groups';
import {
  type RateSubjects,
  rateTableKey,
  spendPool,
  subjectDiscounts,
  subjectStreams,
} from '../groups/spend-pools';
import type { CommitmentSharing, ExistingCommitment, Offer, UsageStream } from '../shapes/model';
import { HOUR_MS } from '../shapes/window-time';
import { commitmentOffer, commitmentTermHours } from './commitment-offer';
import { reservedScope } from './reserved-scope';

export interface BookedCommitment {
  readonly commitment: ExistingCommitment;
  /** Pool units reserved: instances x units per instance, or dollars per hour for spend commitments. */
  readonly quantity: number;
  /** Amortized cost per active hour: upfrontCost / term hours + recurringCost. */
  readonly hourlyCost: number;
  /** Fee rate of the catalog offer it was bought from (0 when none is found). */
  readonly feeRate: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly lockinEndMs: number;
}

export interface CommitmentPool {
  readonly pool: CoveragePool;
  /** 0 zonal, 1 regional reservations, 2 instance plans, 3 other spend commitments. */
  readonly rank: number;
  /** Indices into CommitmentBook.commitments. */
  readonly commitments: readonly number[];
}

export interface CommitmentBook {
  readonly commitments: readonly BookedCommitment[];
  /** In application order; each pool's commitments in order of seniority (owned first). */
  readonly pools: readonly CommitmentPool[];
}

interface PoolDraft {
  readonly key: string;
  readonly rank: number;
  readonly pool: CoveragePool;
  readonly commitments: number[];
}

/**
 * When a commitment was bought, to the hour (epoch hours): its `purchasedAt`, else its start. Of
 * the commitments sharing a pool, the one bought first is used first.
 */
function seniority(commitment: ExistingCommitment): number {
  return Math.ceil(Date.parse(commitment.purchasedAt ?? commitment.start) / HOUR_MS);
}

/**
 * The pool an owned reservation covers (reservedScope), keyed so that reservations of one scope
 * share it; null when it covers no usage. Zonal ones rank before regional ones, as AWS applies them.
 */
function reservationPool(
  streams: readonly UsageStream[],
  prices: Float64Array,
  index: GroupIndex,
  commitment: ExistingCommitment,
  sharing: CommitmentSharing,
): { key: string; rank: number; build: () => CoveragePool | null; unitsPerInstance: number } | null {
  const { groups, onlyType, unitsPerInstance } = reservedScope(
    index,
    commitment,
    sharingKey(commitment.accountId, sharing),
  );
  if (groups.length === 0) return null;
  const build = () => {
    const members: number[] = [];
    const weights: number[] = [];
    for (const group of groups) {
      group.members.forEach((stream, at) => {
        if (onlyType !== null && streams[stream]?.instanceType !== onlyType) return;
        members.push(stream);
        weights.push(group.weights[at] ?? 1);
      });
    }
    if (members.length === 0) return null;
    const values = members.map((stream, at) => (prices[stream] ?? 0) / (weights[at] ?? 1));
    return buildPool(members, weights, values);
  };
  const scope = groups.map((group) => group.key).join(',');
  return onlyType === null
    ? { key: `reservation:${scope}`, rank: 1, build, unitsPerInstance }
    : { key: `zonal:${onlyType}:${scope}`, rank: 0, build, unitsPerInstance };
}

/** Prepares each commitment's pool, quantity and cost; independent of usage values and plan profiles. */
export function bookCommitments(
  streams: readonly UsageStream[],
  prices: Float64Array,
  subjects: RateSubjects,
  index: GroupIndex,
  commitments: readonly ExistingCommitment[],
  offers: readonly Offer[],
  sharing: CommitmentSharing,
): CommitmentBook {
  const drafts = new Map<string, PoolDraft>();
  // The streams a spend commitment may cover, by provider and sharing key.
  const sharedStreams = new Map<string, number[]>();
  streams.forEach((stream, position) => {
    const key = `${stream.provider}:${sharingKey(stream.accountId, sharing)}`;
    const members = sharedStreams.get(key);
    if (members) members.push(position);
    else sharedStreams.set(key, [position]);
  });
  const addToPool = (key: string, rank: number, build: () => CoveragePool | null, position: number) => {
    let draft = drafts.get(key);
    if (!draft) {
      const pool = build();
      if (!pool) return;
      draft = { key, rank, pool, commitments: [] };
      drafts.set(key, draft);
    }
    draft.commitments.push(position);
  };

  const booked = commitments.map((commitment, position): BookedCommitment => {
    const offer = commitmentOffer(commitment, offers);
    let quantity = commitment.hourlyCommitment;
    if (commitment.instanceType !== null) {
      const reserved = reservationPool(streams, prices, index, commitment, sharing);
      quantity = commitment.quantity * (reserved?.unitsPerInstance ?? 1);
      if (reserved) addToPool(reserved.key, reserved.rank, reserved.build, position);
    } else if (offer?.scope.kind === 'spend') {
      const rates = offer.scope.rates;
      const shared = `${commitment.provider}:${sharingKey(commitment.accountId, sharing)}`;
      const candidates = sharedStreams.get(shared) ?? [];
      const rank = commitment.contractType === 'instance_plans' ? 2 : 3;
      const key = `spend:${shared}:${rateTableKey(rates)}`;
      addToPool(
        key,
        rank,
        () =>
          spendPool(
            prices,
            subjects,
            subjectStreams(subjects, candidates),
            subjectDiscounts(subjects, rates),
          ),
        position,
      );
    }
    return {
      commitment,
      quantity,
      hourlyCost: commitment.upfrontCost / commitmentTermHours(commitment) + commitment.recurringCost,
      feeRate: offer?.feeRate ?? 0,
      startMs: Date.parse(commitment.start),
      endMs: Date.parse(commitment.end),
      lockinEndMs: Date.parse(commitment.lockinEnd),
    };
  });
  const senior = commitments.map(seniority);
  const pools = [...drafts.values()]
    .sort((a, b) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ pool, rank, commitments: members }) => ({
      pool,
      rank,
      commitments: members.sort((a, b) => (senior[a] as number) - (senior[b] as number) || a - b),
    }));
  return { commitments: booked, pools };
}
