import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../shared/domain/errors';
import {
  errorBodyOf,
  errorResponseOf,
  methodNotAllowedResponse,
  routeNotFoundResponse,
  unauthorizedResponse,
} from '../../../shared/http/error-response';

describe('error mapping', () => {
  const cases: [DomainError, number, string][] = [
    [new MalformedRequestError('m'), 400, 'Bad Request'],
    [new UnauthenticatedError('m'), 401, 'Unauthorized'],
    [new ForbiddenError('m'), 403, 'Forbidden'],
    [new NotFoundError('m'), 404, 'Not Found'],
    [new ConflictError('m'), 409, 'Conflict'],
    [new PayloadTooLargeError('m'), 413, 'Payload Too Large'],
    [new UnsupportedMediaTypeError('m'), 415, 'Unsupported Media Type'],
    [new ValidationError('m'), 422, 'Unprocessable Entity'],
  ];

  it.each(cases)('maps %o to %i %s', (error, code, status) => {
    // Act
    const body = errorBodyOf(error);

    // Assess
    expect(body).toEqual({ code, status, message: 'm', errors: {} });
  });

  it('carries the fields of a validation error', () => {
    // Prepare
    const error = new ValidationError('invalid', { 'users.0.email': ['Invalid email address'] });

    // Act
    const body = errorBodyOf(error);

    // Assess
    expect(body.errors).toEqual({ 'users.0.email': ['Invalid email address'] });
  });

  it('answers any other error with a generic 500 that does not reveal it', () => {
    // Prepare
    const error = new TypeError("Cannot read properties of undefined (reading 'secretKey')");

    // Act
    const response = errorResponseOf(error);

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(response.body)).toEqual({
      code: 500,
      status: 'Internal Server Error',
      message: 'The service failed to handle the request.',
      errors: {},
    });
  });

  it('answers something thrown that is not an Error with a generic 500', () => {
    // Act
    const body = errorBodyOf('a string');

    // Assess
    expect(body.code).toBe(500);
  });
});

describe('gateway-style responses', () => {
  it('answers an unknown route with 404 in the error body shape', () => {
    // Act
    const response = routeNotFoundResponse();

    // Assess
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({
      code: 404,
      status: 'Not Found',
      message: 'No such resource.',
      errors: {},
    });
  });

  it('answers a wrong method with 405 and an Allow header listing the methods', () => {
    // Act
    const response = methodNotAllowedResponse(['GET', 'POST']);

    // Assess
    expect(response.statusCode).toBe(405);
    expect(response.headers?.allow).toBe('GET, POST');
    expect(JSON.parse(response.body)).toMatchObject({ code: 405, status: 'Method Not Allowed', errors: {} });
  });

  it('answers refused credentials with 401 in the error body shape and a challenge naming the resource metadata', () => {
    // Act
    const response = unauthorizedResponse('https://api.example.com');

    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.headers?.['www-authenticate']).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
    );
    expect(JSON.parse(response.body)).toEqual({
      code: 401,
      status: 'Unauthorized',
      message: 'Missing or invalid credentials.',
      errors: {},
    });
  });
});
