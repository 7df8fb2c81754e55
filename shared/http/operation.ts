import type { APIGatewayProxyResult } from 'aws-lambda';
import type { z } from 'zod';
import {
  type BodyOf,
  type OperationContract,
  type OperationId,
  operations,
  type PathParamsOf,
  type QueryOf,
} from '../contract/operations';
import type { Principal } from '../domain/principal';
import { applicationJson } from './error-response';
import type { QueryValues } from './query-parameters';
import type { RequestLogger } from './request-logging';
import type { RequestSchemas } from './request-validation';
import { SerializedJson } from './serialized-json';

/** Path parameters as API Gateway passes them, for operations that declare no schema for them. */
export type PathParams = Record<string, string>;

export type SuccessStatus = 200 | 201 | 202;

export interface OperationInput<P, Q, B, Caller extends Principal | null> {
  readonly pathParams: P;
  readonly query: Q;
  readonly body: B;
  /** Who is calling; null exactly on public operations. */
  readonly principal: Caller;
  readonly requestId: string;
  /** The request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request's logger: its lines carry the request id. Never log credentials or bodies. */
  readonly logger: RequestLogger;
}

/** A response that is more than a JSON value: 204 No Content, or JSON with extra headers. */
export class OperationResponse {
  constructor(
    /** The JSON value to send; undefined for 204 No Content. */
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

/** 204 with no body and no content type. */
export function noContent(headers: Readonly<Record<string, string>> = {}): OperationResponse {
  return new OperationResponse(undefined, headers);
}

/** The JSON value with extra response headers (such as `x-pagination`), at the operation's success status. */
export function withHeaders(body: unknown, headers: Readonly<Record<string, string>>): OperationResponse {
  if (body === undefined) {
    throw new TypeError('withHeaders needs a JSON value; use noContent() for an empty response.');
  }
  return new OperationResponse(body, headers);
}

export interface OperationDefinition<P, Q, B, Public extends boolean> {
  /** Must match the route's `public` flag in the manifest (checked when the group handler is created). */
  readonly public?: Public;
  readonly pathParams?: z.ZodType<P>;
  readonly query?: z.ZodType<Q>;
  /** Without a body schema the operation takes no body: one sent anyway is a 422. */
  readonly body?: z.ZodType<B>;
  /** Status of a JSON answer; 200 unless given. */
  readonly successStatus?: SuccessStatus;
  /** Answers a JSON value, `noContent()` or `withHeaders(value, headers)`. */
  readonly handle: (
    input: OperationInput<P, Q, B, Public extends true ? null : Principal>,
  ) => Promise<unknown>;
}

/** An operation with its types erased, as the group handler runs it. */
export interface Operation {
  readonly public: boolean;
  readonly schemas: RequestSchemas;
  readonly successStatus: SuccessStatus;
  readonly handle: (input: OperationInput<unknown, unknown, unknown, Principal | null>) => Promise<unknown>;
}

/**
 * Declares one operation: its request schemas and what it does with the parsed request. The
 * handler receives exactly what the schemas produced, so the erasure below is sound.
 */
export function defineOperation<
  P = PathParams,
  Q = QueryValues,
  B = undefined,
  Public extends boolean = false,
>(definition: OperationDefinition<P, Q, B, Public>): Operation {
  return {
    public: definition.public === true,
    schemas: { pathParams: definition.pathParams, query: definition.query, body: definition.body },
    successStatus: definition.successStatus ?? 200,
    handle: definition.handle as Operation['handle'],
  };
}

/** Shapes what an operation answered into the proxy result. */
export function operationResult(result: unknown, successStatus: SuccessStatus): APIGatewayProxyResult {
  const response = result instanceof OperationResponse ? result : new OperationResponse(result, {});
  if (response.body === undefined) {
    if (!(result instanceof OperationResponse)) {
      throw new TypeError('An operation answered undefined; it must answer a JSON value or noContent().');
    }
    return { statusCode: 204, headers: { ...response.headers }, body: '' };
  }
  return {
    statusCode: successStatus,
    headers: { 'content-type': applicationJson, ...response.headers },
    body: response.body instanceof SerializedJson ? response.body.text : JSON.stringify(response.body),
  };
}

type CallerOf<Id extends OperationId> = (typeof operations)[Id]['public'] extends true ? null : Principal;

/**
 * Implements an operation of the contract: its request schemas come from the contract's registry,
 * so a handler validates exactly what the OpenAPI document describes.
 */
export function implement<Id extends OperationId>(
  id: Id,
  handle: (
    input: OperationInput<PathParamsOf<Id>, QueryOf<Id>, BodyOf<Id>, CallerOf<Id>>,
  ) => Promise<unknown>,
): Operation {
  const contract: OperationContract = operations[id];
  return {
    public: contract.public,
    schemas: { pathParams: contract.pathParams, query: contract.query, body: contract.body },
    successStatus: 200,
    handle: handle as Operation['handle'],
  };
}
