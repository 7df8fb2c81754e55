import { describe, expect, it } from 'vitest';
import { installable } from '../../../shared/runtime/installable';

describe('an installable dependency', () => {
  it('is built from the environment once, on first use', () => {
    // Prepare
    let builds = 0;
    const dependency = installable(() => ({ build: ++builds }));

    // Act
    const first = dependency.get();
    const second = dependency.get();

    // Assess
    expect(builds).toBe(1);
    expect(second).toBe(first);
  });

  it('answers what was installed, building nothing from the environment', () => {
    // Prepare
    const dependency = installable<{ readonly from: string }>(() => {
      throw new Error('no environment here');
    });

    // Act
    dependency.install({ from: 'local runtime' });

    // Assess
    expect(dependency.get()).toEqual({ from: 'local runtime' });
  });
});
