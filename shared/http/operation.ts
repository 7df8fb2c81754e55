import type { APIGatewayProxyResult } from 'aws-lambda';
import type {
  BodyOf,
  OperationContract,
  OperationList,
  PathParamsOf,
  QueryOf,
} from '../contract/operation-contract';
import type { Principal } from '../domain/principal';
import { applicationJson } from './error-response';
import type { RequestLogger } from './request-logging';
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
  /** The client's network address, as API Gateway saw it (rate limits). */
  readonly sourceIp: string;
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

/**
 * A response the operation shaped itself, sent as it is: an HTML page, a redirect, a body with
 * its own status (the OAuth endpoints' and pages' answers).
 */
export class RawResponse {
  constructor(
    readonly statusCode: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: string = '',
  ) {}
}

/** RFC 6749 §5.1: the token endpoint's answers, errors included, are never cached. */
export const noStoreHeaders: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
};

/** A redirect: 302 (from a GET) or 303 (after a POST: the browser follows it with a GET). */
export function redirectTo(
  location: string,
  status: 302 | 303,
  headers: Readonly<Record<string, string>> = {},
): RawResponse {
  return new RawResponse(status, { ...headers, location, 'cache-control': 'no-store' });
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

/** Who calls an operation: nobody in particular on public ones, an authenticated principal otherwise. */
export type CallerOf<Op extends OperationContract> = Op['public'] extends true
  ? null
  : Op extends { oauth: true }
    ? null
    : Principal;

/** What implements one operation of the list: it receives exactly what the operation's schemas produced. */
export type OperationImplementation<Op extends OperationContract> = (
  input: OperationInput<PathParamsOf<Op>, QueryOf<Op>, BodyOf<Op>, CallerOf<Op>>,
) => Promise<unknown>;

/** An implementation for every operation of a function group's list, and nothing else. */
export type Implementations<Ops extends OperationList> = {
  readonly [Id in keyof Ops]: OperationImplementation<Ops[Id]>;
};

/** The status of a JSON answer: the operation's first successful status that has a body. */
export function successStatusOf(operation: OperationContract): SuccessStatus {
  const statuses = Object.keys(operation.responses)
    .map(Number)
    .filter((status): status is SuccessStatus => status === 200 || status === 201 || status === 202);
  return statuses.length > 0 ? (Math.min(...statuses) as SuccessStatus) : 200;
}

/** Shapes what an operation answered into the proxy result. */
export function operationResult(result: unknown, successStatus: SuccessStatus): APIGatewayProxyResult {
  if (result instanceof RawResponse) {
    return { statusCode: result.statusCode, headers: { ...result.headers }, body: result.body };
  }
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
