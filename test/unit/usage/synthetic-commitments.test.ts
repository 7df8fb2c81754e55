import { describe, expect, it } from 'vitest';
import { generateCommitments } from '../../../local/demo/synthetic-commitments';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { ExistingCommitment, Provider } from '../../../shared/domain/engine/shapes/model';
import { ValidationError } from '../../../shared/domain/errors';

const catalog = loadCatalog();
const window = { start: '2026-06-01T00:00:00Z', hours: 720 };
const windowStart = Date.parse(window.start);
const windowEnd = windowStart + window.hours * 3_600_000;

function commitmentsFor(provider: Provider, count = 6): ExistingCommitment[] {
  const streams = generateFleet({ seed: 'commitments', provider, streams: 1500, window, catalog });
  return generateCommitments({ seed: 'commitments', provider, streams, window, catalog, count });
}

describe('synthetic existing commitments', () => {
  it('are identical for the same seed', () => {
    expect(commitmentsFor('aws')).toEqual(commitmentsFor('aws'));
  });

  it.each(['aws', 'azure'] as const)('give %s one savings plan, not tied to a region', (provider) => {
    // Act
    const plans = commitmentsFor(provider).filter((commitment) => commitment.instanceType === null);

    // Assess
    expect(plans).toHaveLength(1);
    const [plan] = plans;
    expect(plan?.contractType).toBe('compute_plans');
    expect(plan?.hourlyCommitment).toBeGreaterThan(0);
    expect(plan?.quantity).toBe(0);
    expect(plan?.region).toBe('');
    expect(Date.parse(plan?.end ?? '')).toBeGreaterThanOrEqual(windowEnd);
  });

  it.each(['aws', 'azure', 'gcp'] as const)(
    'give %s reservations that expired, expire in the window, or cover it',
    (provider) => {
      // Act
      const reservations = commitmentsFor(provider).filter((commitment) => commitment.instanceType !== null);
      const ends = reservations.map((commitment) => Date.parse(commitment.end));

      // Assess
      expect(reservations.length).toBeGreaterThanOrEqual(3);
      expect(ends.some((end) => end <= windowStart)).toBe(true);
      expect(ends.some((end) => end > windowStart && end < windowEnd)).toBe(true);
      expect(
        reservations.some(
          (commitment) =>
            Date.parse(commitment.start) <= windowStart && Date.parse(commitment.end) >= windowEnd,
        ),
      ).toBe(true);
    },
  );

  it('give GCP no savings plan: its catalog has none', () => {
    expect(commitmentsFor('gcp').every((commitment) => commitment.instanceType !== null)).toBe(true);
  });

  it.each(['aws', 'azure', 'gcp'] as const)(
    'price %s reservations below on-demand for instances the fleet runs',
    (provider) => {
      // Prepare
      const streams = generateFleet({ seed: 'commitments', provider, streams: 1500, window, catalog });

      // Act
      const reservations = generateCommitments({
        seed: 'commitments',
        provider,
        streams,
        window,
        catalog,
        count: 6,
      }).filter((commitment) => commitment.instanceType !== null);

      // Assess
      for (const commitment of reservations) {
        const instance = streams.find(
          (stream) => stream.instanceType === commitment.instanceType && stream.region === commitment.region,
        );
        expect(instance).toBeDefined();
        const termHours = (Date.parse(commitment.end) - Date.parse(commitment.start)) / 3_600_000;
        expect([8760, 26280]).toContain(termHours);
        expect(commitment.quantity).toBeGreaterThanOrEqual(1);
        expect(commitment.hourlyCommitment).toBe(0);
        expect(commitment.lockinEnd).toBe(commitment.end);
        const hourly = commitment.upfrontCost / termHours + commitment.recurringCost;
        expect(hourly).toBeGreaterThan(0);
        expect(hourly).toBeLessThan(commitment.quantity * (instance?.ondemandPrice ?? 0));
      }
    },
  );

  it('stop at the requested count and reject a negative one', () => {
    expect(commitmentsFor('aws', 2)).toHaveLength(2);
    expect(commitmentsFor('aws', 0)).toEqual([]);
    expect(() => commitmentsFor('aws', -1)).toThrow(ValidationError);
  });
});
