import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cdkJsonContext } from './service-app';

/** The feature flags the installed aws-cdk-lib recommends (what `cdk init` writes into cdk.json). */
function recommendedFlags(): Record<string, unknown> {
  const path = createRequire(import.meta.url).resolve('aws-cdk-lib/recommended-feature-flags.json');
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** Flags deliberately set to another value than the recommended one, each with its reason in docs/deploy.md. */
const keptOtherwise = new Set(['@aws-cdk/core:defaultCrossStackReferences']);

describe('cdk.json feature flags', () => {
  it('configures every flag the installed aws-cdk-lib recommends, so synth has none to warn about', () => {
    const context = cdkJsonContext();
    const missing = Object.keys(recommendedFlags()).filter((flag) => !(flag in context));
    expect(missing).toEqual([]);
  });

  it('sets each recommended flag to its recommended value, but for the ones docs/deploy.md explains', () => {
    const context = cdkJsonContext();
    const differing = Object.entries(recommendedFlags())
      .filter(([flag, value]) => JSON.stringify(context[flag]) !== JSON.stringify(value))
      .map(([flag]) => flag);
    expect(differing).toEqual([...keptOtherwise]);
  });
});
