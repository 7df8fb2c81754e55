import { describe, expect, it } from 'vitest';
import { paginationHeaderName } from '../../../shared/http/pagination';
import { admin, capturedLogs, jsonOf, partnerOrgsHandler } from '../../support/partner-orgs-group';
import { lambdaContext, proxyEvent } from './proxy-event';

describe('group handler: answers and errors', () => {
  const logs = capturedLogs();

  it('hands repeated query keys to the schema as an array and pages with an X-Pagination header', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      resource: '/partners/{partner_org_id}/orgs',
      pathParameters: { partner_org_id: 'partner-1' },
      queryStringParameters: { ids: 'c', page_size: '2' },
      multiValueQueryStringParameters: { ids: ['a', 'b', 'c'], page_size: ['2'] },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonOf(result)).toEqual(['a', 'b']);
    expect(JSON.parse(String(result.headers?.[paginationHeaderName]))).toEqual({
      total: 3,
      total_pages: 2,
      first_page: 1,
      last_page: 2,
      page: 1,
      previous_page: null,
      next_page: 2,
    });
  });

  it('answers 204 with no body and no content type for noContent()', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      httpMethod: 'DELETE',
      resource: '/orgs/{org_id}',
      pathParameters: { org_id: 'org-1' },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(204);
    expect(result.body).toBe('');
    expect(result.headers?.['content-type']).toBeUndefined();
  });

  it('maps a domain error thrown by the operation to its status', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      httpMethod: 'DELETE',
      resource: '/orgs/{org_id}',
      pathParameters: { org_id: 'busy' },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(409);
    expect(jsonOf(result)).toEqual({
      code: 409,
      status: 'Conflict',
      message: 'The org has running purchases.',
      errors: {},
    });
  });

  it('answers an unexpected error with a generic 500 and logs its cause', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      resource: '/orgs/{org_id}/broken',
      pathParameters: { org_id: 'org-1' },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(500);
    expect(jsonOf(result)).toEqual({
      code: 500,
      status: 'Internal Server Error',
      message: 'The service failed to handle the request.',
      errors: {},
    });
    expect(result.body).not.toContain('db-secret-host');
    const failure = logs.lines().find((line) => line.level === 'ERROR');
    expect(JSON.stringify(failure)).toContain('db-secret-host');
    expect(failure?.request_id).toBe('gateway-request-id');
  });

  it('answers 404 for a resource the group does not serve', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    const result = await handler(proxyEvent({ resource: '/openapi.json' }), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(404);
    expect(jsonOf(result)).toMatchObject({ code: 404, status: 'Not Found' });
  });
});
