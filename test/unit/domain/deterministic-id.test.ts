import { describe, expect, it } from 'vitest';
import { deterministicUuid, deterministicUuids } from '../../../shared/domain/deterministic-id';

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

  it('matches version-5 UUIDs computed independently (Python uuid.uuid5 over the parts joined by U+001F)', () => {
    // Known answers: uuid.uuid5(UUID('6f1c2a9e-4b7d-4c1e-9a3f-5b8d2e7c4a10'), '\x1f'.join(parts)).
    expect(deterministicUuid('org-1', 'aws', 'Recommended')).toBe('4a5badde-dfd3-5f76-9f98-789703d78b5e');
    expect(deterministicUuid('resource', 'org-1', 'aws', 'vm-é€😀')).toBe(
      '67449ec7-4f61-5b35-a173-96f584099033',
    );
    expect(deterministicUuid('')).toBe('d84c1af4-e63c-5fd1-8da4-2ce536351ec6');
  });
});

describe('deterministicUuids', () => {
  it('names each last part as deterministicUuid names all the parts, multi-byte text included', () => {
    // Prepare
    const leading = ['resource', 'org-1', 'aws'] as const;
    const lasts = ['i-0abc', 'arn:aws:ec2:us-east-1:123456789012:instance/i-0def', 'vm-é€😀', ''];

    // Act
    const named = deterministicUuids(...leading);
    const ids = lasts.map((last) => named(last));
    const withoutLeading = deterministicUuids()('i-0abc');

    // Assess
    expect(ids).toEqual(lasts.map((last) => deterministicUuid(...leading, last)));
    expect(withoutLeading).toBe(deterministicUuid('i-0abc'));
  });
});
