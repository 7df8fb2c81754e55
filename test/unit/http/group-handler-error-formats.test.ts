import type { APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { OperationList } from '../../../shared/contract/operation-contract';
import { createGroupHandler } from '../../../shared/http/group-handler';
import { oauthErrorAnswer } from '../../../shared/http/oauth-error-answer';
import type { Implementations } from '../../../shared/http/operation';
import { pageErrorAnswer } from '../../../shared/http/page-error-answer';
import { formBodies } from '../../../shared/http/request-bodies';
import { lambdaContext, proxyEvent } from './proxy-event';

describe('answering errors in the format an operation states', () => {
  /** A page for browsers and an OAuth endpoint: public, as the sign-in pages and the token endpoint are. */
  const formats = {
    showPage: {
      method: 'GET',
      path: '/oauth/page',
      group: 'oauth-sign-in',
      summary: 'A page',
      tag: 'OAuth',
      public: true,
      html: true,
      query: z.strictObject({ request_id: z.string().min(1) }),
      responses: { 200: null },
    },
    exchange: {
      method: 'POST',
      path: '/oauth/exchange',
      group: 'oauth-sign-in',
      summary: 'An OAuth endpoint',
      tag: 'OAuth',
      public: true,
      oauth: true,
      bodyMediaType: 'application/x-www-form-urlencoded',
      body: z.strictObject({ grant_type: z.literal('authorization_code') }),
      clientErrorBody: z.object({ error: z.string() }),
      responses: { 200: z.object({}) },
    },
  } satisfies OperationList;
  const formatImplementations: Implementations<typeof formats> = {
    showPage: async () => ({}),
    exchange: async () => ({}),
  };
  const answering = () =>
    createGroupHandler(formats, formatImplementations, {
      bodies: formBodies,
      errors: { page: pageErrorAnswer, oauth: oauthErrorAnswer },
    });

  it('answers a page operation refused by its schemas with an error page, never framed', async () => {
    // Act
    const response = (await answering()(
      proxyEvent({ resource: '/oauth/page', queryStringParameters: {} }),
      lambdaContext(),
    )) as APIGatewayProxyResult;

    // Assess
    expect(response.statusCode).toBe(422);
    expect(response.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers?.['x-frame-options']).toBe('DENY');
    expect(response.body).toContain('<p role="alert">');
  });

  it("answers an OAuth endpoint's refused request as RFC 6749's invalid_request, not cached", async () => {
    // Act
    const response = (await answering()(
      proxyEvent({
        resource: '/oauth/exchange',
        httpMethod: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&extra=1',
      }),
      lambdaContext(),
    )) as APIGatewayProxyResult;

    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.headers?.['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).toMatchObject({ code: 400, error: 'invalid_request' });
  });

  it('fails to load when an operation answers with pages and the group was given no page answer', () => {
    // Act
    const create = () =>
      createGroupHandler(formats, formatImplementations, {
        bodies: formBodies,
        errors: { oauth: oauthErrorAnswer },
      });

    // Assess
    expect(create).toThrow(/showPage answers its errors with pages: createGroupHandler needs errors.page/);
  });

  it('fails to load when an operation answers OAuth errors and the group was given no OAuth answer', () => {
    // Act
    const create = () =>
      createGroupHandler(formats, formatImplementations, {
        bodies: formBodies,
        errors: { page: pageErrorAnswer },
      });

    // Assess
    expect(create).toThrow(
      /exchange answers its errors as OAuth errors: createGroupHandler needs errors.oauth/,
    );
  });
});
