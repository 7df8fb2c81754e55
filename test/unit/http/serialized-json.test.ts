import { describe, expect, it } from 'vitest';
import { operationResult, withHeaders } from '../../../shared/http/operation';
import { serializedArray } from '../../../shared/http/serialized-json';

describe('serialized JSON', () => {
  it('joins serialized elements into the text JSON.stringify gives their array', () => {
    // Prepare
    const arrays: unknown[][] = [[], [{ a: 1, b: [null, 'x"y'] }], [1, 'two', { three: 3.5 }, [], null]];

    // Act
    const texts = arrays.map((array) => serializedArray(array.map((value) => JSON.stringify(value))).text);

    // Assess
    expect(texts).toEqual(arrays.map((array) => JSON.stringify(array)));
  });

  it('is sent as it is, as JSON, with the extra headers', () => {
    // Act
    const result = operationResult(withHeaders(serializedArray(['{"id":1}']), { 'x-pagination': '{}' }), 200);

    // Assess
    expect(result).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'x-pagination': '{}' },
      body: '[{"id":1}]',
    });
  });
});
