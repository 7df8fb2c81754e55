import { describe, expect, it } from 'vitest';
import { functionGroups, routes } from '../../functions/routes';

describe('route manifest', () => {
  it('serves each method and path once', () => {
    // Prepare
    const keys = routes.map((route) => `${route.method} ${route.path}`);

    // Assess
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every route a distinct operation id', () => {
    const ids = routes.map((route) => route.operationId);

    expect(new Set(ids).size).toBe(ids.length);
  });

  it('writes path parameters in API Gateway template syntax', () => {
    for (const route of routes) {
      expect(route.path).toMatch(/^(\/([a-z0-9._-]+|\{[a-z_]+\}))+$/);
    }
  });

  it('lists each function group once', () => {
    expect(new Set(functionGroups).size).toBe(functionGroups.length);
    expect(functionGroups).toEqual(expect.arrayContaining(routes.map((route) => route.group)));
  });
});
