import { describe, expect, it } from 'vitest';
import { mergeQueryParameters } from '../../../shared/http/query-parameters';

describe('query parameter merging', () => {
  it('gives a key sent once as a string and a repeated key as an array in order', () => {
    // Act
    const query = mergeQueryParameters({ page: '2', ids: 'c' }, { page: ['2'], ids: ['a', 'b', 'c'] });

    // Assess
    expect(query).toEqual({ page: '2', ids: ['a', 'b', 'c'] });
  });

  it('answers an empty record when API Gateway passes null for both views', () => {
    // Assess
    expect(mergeQueryParameters(null, null)).toEqual({});
  });

  it('keeps keys that only the single-value view has', () => {
    // Assess
    expect(mergeQueryParameters({ provider: 'aws' }, null)).toEqual({ provider: 'aws' });
  });

  it('keeps a key named __proto__ as an ordinary key', () => {
    // Prepare
    const multi: Record<string, string[]> = Object.fromEntries([['__proto__', ['a', 'b']]]);

    // Act
    const query = mergeQueryParameters(null, multi);

    // Assess
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(query, '__proto__')?.value).toEqual(['a', 'b']);
  });
});
