import type { ProviderFailure } from '../../domain/onboarding/aws-checks';

/** The name and message of whatever a provider call threw (SDK errors carry the error code as `name`). */
export function providerFailureOf(error: unknown): ProviderFailure {
  if (error instanceof Error) return { name: error.name || 'Error', message: error.message };
  return { name: 'Error', message: String(error) };
}

/** An error as a provider reports it: the code as `name`, the provider's message. */
export class ProviderError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}
