import { describe, expect, it } from 'vitest';
import { deterministicUuid } from '../../../shared/domain/deterministic-id';

describe('deterministicUuid', () => {
  it('gives the same version-5 UUID for the same parts', () => {
    // Act
    const first = deterministicUuid('org-1', 'aws', 'Recommended');
    const again = deterministicUuid('org-1', 'aws', 'Recommended');

    // Assess
    expect(first).toBe(again);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps part boundaries: different splits of the same text give different ids', () => {
    expect(deterministicUuid('ab', 'c')).not.toBe(deterministicUuid('a', 'bc'));
  });
});
