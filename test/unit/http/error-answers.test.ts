import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import {
  InsufficientScopeError,
  NotFoundError,
  UnauthenticatedError,
  ValidationError,
} from '../../../shared/domain/errors';
import { OAuthError } from '../../../shared/domain/oauth/errors';
import { type ErrorAnswer, httpErrorHandler } from '../../../shared/http/error-handler';
import { oauthErrorAnswer } from '../../../shared/http/oauth-error-answer';
import { pageErrorAnswer } from '../../../shared/http/page-error-answer';
import { lambdaContext, proxyEvent } from './proxy-event';

/**
 * The error middleware with each of the three answers (the common JSON body, RFC 6749's OAuth
 * errors, pages): a handler that throws, run through middy as the group handler runs it.
 */
function failingWith(error: unknown, answer?: ErrorAnswer) {
  const logger = new Logger({ serviceName: 'error-answers-test', logLevel: 'SILENT' });
  const logged = { info: vi.spyOn(logger, 'info'), error: vi.spyOn(logger, 'error') };
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(httpErrorHandler({ logger, ...(answer ? { answer } : {}) }))
    .handler(async () => {
      throw error;
    });
  return {
    logged,
    respond: async () => (await handler(proxyEvent({}), lambdaContext())) as APIGatewayProxyResult,
  };
}

describe('the common JSON error answer (the default)', () => {
  it('answers a validation error as a 422 naming each field, and logs it as a refusal', async () => {
    // Prepare
    const { respond, logged } = failingWith(
      new ValidationError('Validation failed', { 'users.0.email': ['Invalid email address'] }),
    );

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body)).toEqual({
      code: 422,
      status: 'Unprocessable Entity',
      message: 'Validation failed',
      errors: { 'users.0.email': ['Invalid email address'] },
    });
    expect(logged.info).toHaveBeenCalledWith('request rejected', expect.objectContaining({ status: 422 }));
    expect(logged.error).not.toHaveBeenCalled();
  });

  it('answers a missing credential with a bare Bearer challenge (RFC 6750: the handler is not told the base URL)', async () => {
    // Prepare
    const { respond } = failingWith(new UnauthenticatedError('Missing credentials'));

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.headers?.['www-authenticate']).toBe('Bearer');
  });

  it('answers an unexpected error with a generic 500 and keeps its message for the log', async () => {
    // Prepare
    const { respond, logged } = failingWith(new Error('table name is arn:secret-detail'));

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret-detail');
    expect(logged.error).toHaveBeenCalledWith('request failed', expect.any(Error));
  });
});

describe('the OAuth error answer', () => {
  it("adds RFC 6749's error and error_description to the body and forbids caching", async () => {
    // Prepare
    const { respond } = failingWith(
      new OAuthError('invalid_grant', 'The code was used already'),
      oauthErrorAnswer,
    );

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.headers?.['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).toMatchObject({
      code: 400,
      message: 'The code was used already',
      error: 'invalid_grant',
      error_description: 'The code was used already',
    });
  });

  it('answers a client that fails to authenticate as a 401 invalid_client', async () => {
    // Prepare
    const { respond } = failingWith(new OAuthError('invalid_client', 'Unknown client'), oauthErrorAnswer);

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ error: 'invalid_client' });
  });

  it('answers a request the schemas refused as a 400 invalid_request that still names each field', async () => {
    // Prepare
    const { respond } = failingWith(
      new ValidationError('Validation failed', { redirect_uri: ['Required'] }),
      oauthErrorAnswer,
    );

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      error: 'invalid_request',
      errors: { redirect_uri: ['Required'] },
    });
  });

  it('answers a grant type the schemas do not know as unsupported_grant_type', async () => {
    // Prepare
    const { respond } = failingWith(
      new ValidationError('Validation failed', { grant_type: ['Invalid input'] }),
      oauthErrorAnswer,
    );

    // Act
    const response = await respond();

    // Assess
    expect(JSON.parse(response.body)).toMatchObject({ code: 400, error: 'unsupported_grant_type' });
  });

  it('leaves other domain errors their status, without OAuth fields, still not cached', async () => {
    // Prepare
    const { respond } = failingWith(new NotFoundError('No such client'), oauthErrorAnswer);

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.headers?.['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).not.toHaveProperty('error');
  });

  it('keeps the insufficient_scope challenge of a token without the scope', async () => {
    // Prepare
    const { respond } = failingWith(new InsufficientScopeError('plans:apply'), oauthErrorAnswer);

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.headers?.['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="plans:apply"',
    );
  });
});

describe('the page error answer', () => {
  it("answers a page with the status's words and the message, escaped, under the pages' headers", async () => {
    // Prepare
    const { respond } = failingWith(
      new NotFoundError('No request <script>alert(1)</script>'),
      pageErrorAnswer,
    );

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers?.['x-frame-options']).toBe('DENY');
    expect(response.headers?.['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.body).toContain('<h1>Not Found</h1>');
    expect(response.body).toContain('No request &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>');
  });

  it('answers an unexpected error with a page that tells nothing of it', async () => {
    // Prepare
    const { respond } = failingWith(new Error('connection string with password'), pageErrorAnswer);

    // Act
    const response = await respond();

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('password');
  });
});
