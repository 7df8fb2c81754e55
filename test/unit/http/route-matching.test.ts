import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '../../../local/http/route-matching';
import { MalformedRequestError } from '../../../shared/domain/errors';

const routes = [
  { method: 'GET', path: '/v1/org/{org_id}/plans/{plan_id}', group: 'partner-orgs', operationId: 'getPlan' },
  {
    method: 'GET',
    path: '/v1/org/{org_id}/plans/recommended',
    group: 'partner-orgs',
    operationId: 'recommended',
  },
  {
    method: 'POST',
    path: '/v1/org/{org_id}/plans/{plan_id}',
    group: 'partner-orgs',
    operationId: 'updatePlan',
  },
  {
    method: 'DELETE',
    path: '/v1/org/{org_id}/plans/{plan_id}',
    group: 'partner-orgs',
    operationId: 'deletePlan',
  },
];

const match = createRouteMatcher(routes);

describe('route matching', () => {
  it('matches a template and decodes its path parameters', () => {
    // Act
    const result = match('GET', '/v1/org/acme%20corp/plans/p%2F1');

    // Assess
    expect(result).toEqual({
      kind: 'matched',
      route: routes[0],
      pathParameters: { org_id: 'acme corp', plan_id: 'p/1' },
    });
  });

  it('prefers a literal segment over a parameter', () => {
    // Act
    const result = match('GET', '/v1/org/acme/plans/recommended');

    // Assess
    expect(result).toMatchObject({ kind: 'matched', route: routes[1], pathParameters: { org_id: 'acme' } });
  });

  it('reports the methods of the matched template, sorted, for a wrong method', () => {
    // Act
    const result = match('PUT', '/v1/org/acme/plans/p1');

    // Assess
    expect(result).toEqual({ kind: 'method-not-allowed', allowedMethods: ['DELETE', 'GET', 'POST'] });
  });

  it('looks the method up on the most specific template only, as API Gateway does', () => {
    // Act
    const result = match('POST', '/v1/org/acme/plans/recommended');

    // Assess
    expect(result).toEqual({ kind: 'method-not-allowed', allowedMethods: ['GET'] });
  });

  it('finds nothing for an unknown path, an empty parameter or a trailing slash', () => {
    // Assess
    expect(match('GET', '/v1/org/acme')).toEqual({ kind: 'not-found' });
    expect(match('GET', '/v1/org//plans/p1')).toEqual({ kind: 'not-found' });
    expect(match('GET', '/v1/org/acme/plans/p1/')).toEqual({ kind: 'not-found' });
  });

  it('refuses a path that is not validly percent-encoded', () => {
    // Assess
    expect(() => match('GET', '/v1/org/%E0%A4%A/plans/p1')).toThrow(MalformedRequestError);
  });
});
