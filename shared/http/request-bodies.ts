import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { formBody } from './form-body';
import { type JsonBodyContext, jsonBody } from './json-body';
import { jsonContentType } from './json-content-type';

export type BodyMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & JsonBodyContext
>;

/**
 * How a group reads request bodies: the middlewares for its JSON bodies, for its form-encoded
 * ones, or both. Only operations whose method carries a body (POST, PUT, PATCH) use them, even
 * without a body schema (a body sent anyway is checked and refused: 415, 400, then 422); a group
 * of GET operations passes none, and so bundles no body parser.
 */
export interface BodyParsers {
  readonly json?: () => BodyMiddleware[];
  readonly form?: () => BodyMiddleware[];
}

/** JSON bodies: `Content-Type: application/json` (415 otherwise), then parsed (400 when malformed). */
export const jsonBodies: BodyParsers = { json: () => [jsonContentType(), jsonBody()] };

/** Form-encoded bodies (the OAuth forms and token requests). */
export const formBodies: BodyParsers = { form: () => [formBody()] };
