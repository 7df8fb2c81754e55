import type { Provider } from '../domain/engine';

/**
 * What the plan-serving functions send the plan-computation function (an event of a synchronous
 * Invoke): the org and provider whose plans are missing or stale.
 */
export interface PlanComputationRequest {
  readonly orgId: string;
  readonly provider: Provider;
}

const providers: readonly string[] = ['aws', 'azure', 'gcp'] satisfies readonly Provider[];

/** The request in `event`; a TypeError naming the field when it is not one. */
export function planComputationRequest(event: unknown): PlanComputationRequest {
  const { orgId, provider } = (event ?? {}) as Record<string, unknown>;
  if (typeof orgId !== 'string' || orgId === '') {
    throw new TypeError('A plan computation request needs orgId, a non-empty string');
  }
  if (typeof provider !== 'string' || !providers.includes(provider)) {
    throw new TypeError(`A plan computation request needs provider, one of ${providers.join(', ')}`);
  }
  return { orgId, provider: provider as Provider };
}
