import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../../shared/runtime/function-context';

describe('a dependency built on first use', () => {
  it('is built once, on the first call, and kept', () => {
    // Prepare
    let builds = 0;
    const dependency = onFirstUse(() => ({ build: ++builds }));

    // Act
    const beforeAnyCall = builds;
    const first = dependency();
    const second = dependency();

    // Assess
    expect(beforeAnyCall).toBe(0);
    expect(builds).toBe(1);
    expect(second).toBe(first);
  });

  it('is built again on the next call after a build that threw', () => {
    // Prepare: the environment is missing a variable on the first call only.
    let calls = 0;
    const dependency = onFirstUse(() => {
      calls += 1;
      if (calls === 1) throw new Error('TABLE_NAME is not set');
      return { calls };
    });

    // Act
    const first = () => dependency();

    // Assess
    expect(first).toThrow('TABLE_NAME is not set');
    expect(dependency()).toEqual({ calls: 2 });
  });
});
