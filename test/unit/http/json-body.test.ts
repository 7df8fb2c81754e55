import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MalformedRequestError } from '../../../shared/domain/errors';
import { type JsonBodyContext, jsonBody } from '../../../shared/http/json-body';
import { lambdaContext, proxyEvent } from './proxy-event';

/** The body the middleware hands on, or the error it throws. */
async function parsedBody(event: Partial<APIGatewayProxyEvent>): Promise<unknown> {
  let seen: unknown = 'not reached';
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context & JsonBodyContext>()
    .use(jsonBody())
    .handler(async (_event, context) => {
      seen = context.jsonBody;
      return { statusCode: 200, body: '' };
    });
  await handler(
    proxyEvent({ httpMethod: 'POST', headers: { 'content-type': 'application/json' }, ...event }),
    lambdaContext() as Context & JsonBodyContext,
  );
  return seen;
}

describe('jsonBody', () => {
  it('hands on the parsed body, decoding a base64 one first', async () => {
    // Prepare
    const body = JSON.stringify({ name: 'Acmé', users: [1, 2] });

    // Act
    const plain = await parsedBody({ body });
    const encoded = await parsedBody({ body: Buffer.from(body).toString('base64'), isBase64Encoded: true });

    // Assess
    expect(plain).toEqual({ name: 'Acmé', users: [1, 2] });
    expect(encoded).toEqual(plain);
  });

  it('reads whatever JSON value the body holds, not only objects', async () => {
    expect(await parsedBody({ body: '[1,"a",null]' })).toEqual([1, 'a', null]);
    expect(await parsedBody({ body: 'null' })).toBeNull();
  });

  it('hands on no body for an absent or empty body, and ignores the body of a GET', async () => {
    expect(await parsedBody({ body: null })).toBeUndefined();
    expect(await parsedBody({ body: '' })).toBeUndefined();
    expect(await parsedBody({ httpMethod: 'GET', body: '{not json' })).toBeUndefined();
  });

  it('refuses malformed JSON as a malformed request whose message does not quote the body', async () => {
    // Act
    const refusal = parsedBody({ body: '{"secret-marker": ' }).catch((error: unknown) => error);

    // Assess
    const error = await refusal;
    expect(error).toBeInstanceOf(MalformedRequestError);
    expect((error as Error).message).toBe('The request body is not valid JSON.');
    expect(JSON.stringify(error)).not.toContain('secret-marker');
    expect((error as Error).cause).toBeUndefined();
  });
});
