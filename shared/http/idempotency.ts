import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Clock, IdempotencyClaim, IdempotencyRepository } from '../app/ports';
import { ConflictError, ValidationError } from '../domain/errors';
import {
  idempotencyKeyHeader,
  idempotencyScope,
  idempotentReplayedHeader,
  invalidIdempotencyKeyMessage,
  isValidIdempotencyKey,
  requestFingerprint,
  reusedIdempotencyKeyMessage,
  type StoredResponse,
} from '../domain/idempotency';
import type { PrincipalContext } from './authorizer-principal';
import type { JsonBodyContext } from './json-body';
import { headerValue } from './request-headers';
import type { LoggerContext } from './request-logging';

export interface IdempotencyOptions {
  /** The records, asked for on the first request with a key (a handler module builds no client at load). */
  readonly records: () => IdempotencyRepository;
  readonly clock?: Clock;
  /** A new attempt id per request with a key; random UUIDs unless given. */
  readonly attemptIds?: () => string;
}

export interface IdempotencyContext {
  /**
   * Set by `idempotency()`: `replay` is the response to answer instead of running the operation;
   * `claim` is this request's hold on its key, completed or released when the request ends.
   */
  idempotency?: { readonly replay: APIGatewayProxyResult } | { readonly claim: IdempotencyClaim };
}

type IdempotencyRequestContext = Context &
  PrincipalContext &
  JsonBodyContext &
  LoggerContext &
  IdempotencyContext;

/** The middleware `idempotency()` makes: one per function, for each of its idempotent operations. */
export type IdempotencyMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  IdempotencyRequestContext
>;

const systemClock: Clock = { now: () => new Date() };

/**
 * Stripe's `Idempotency-Key` rules for one operation (docs/purchases.md, Idempotency-Key): a
 * request with a key it has seen replays that key's first response, a 2xx. Placed after request
 * validation and the principal: a request refused before it is not recorded.
 *
 * A replay does not answer early from `before`: middy 6 then skips every `after` (request id,
 * request log), so the middleware leaves the replay on the context and the handler answers it in
 * the operation's place (`idempotentReplayOf`).
 */
export function idempotency(options: IdempotencyOptions): IdempotencyMiddleware {
  const clock = options.clock ?? systemClock;
  const newAttemptId = options.attemptIds ?? randomUUID;

  /** Takes the request's claim off the context, so that it is completed or released once. */
  function takeClaim(context: IdempotencyRequestContext): IdempotencyClaim | null {
    const state = context.idempotency;
    if (state === undefined || !('claim' in state)) return null;
    context.idempotency = undefined;
    return state.claim;
  }

  async function release(claim: IdempotencyClaim, context: IdempotencyRequestContext) {
    try {
      await options.records().release(claim);
    } catch (error) {
      // The record stays in flight until its in-flight expiry; retries get 409 until then.
      context.logger.error('idempotency record not released', toError(error));
    }
  }

  return {
    before: async (request) => {
      const { event, context } = request;
      context.idempotency = undefined;
      const key = headerValue(event.headers, idempotencyKeyHeader);
      if (key === undefined) return;
      if (!isValidIdempotencyKey(key)) {
        throw new ValidationError(`The ${idempotencyKeyHeader} header is not valid.`, {
          [idempotencyKeyHeader]: [invalidIdempotencyKeyMessage],
        });
      }
      if (context.principal === null) {
        throw new Error('An idempotent operation needs an authenticated caller to scope its keys');
      }
      const claim: IdempotencyClaim = {
        scope: idempotencyScope(context.principal),
        key,
        fingerprint: requestFingerprint({
          method: event.httpMethod,
          resource: event.resource,
          pathParams: definedEntries(event.pathParameters),
          body: context.jsonBody,
        }),
        attemptId: newAttemptId(),
      };
      const beginning = await options.records().begin(claim, clock.now());
      switch (beginning.outcome) {
        case 'started':
          context.idempotency = { claim };
          return;
        case 'replay':
          context.logger.info('idempotent request replayed', { status: beginning.response.statusCode });
          context.idempotency = { replay: replayOf(beginning.response) };
          return;
        case 'in_flight':
          throw new ConflictError(
            `A request with this ${idempotencyKeyHeader} is still in progress; retry once it has ended.`,
          );
        case 'reused':
          throw new ValidationError(
            `The ${idempotencyKeyHeader} was used with another request; use a new key for a new request.`,
            { [idempotencyKeyHeader]: [reusedIdempotencyKeyMessage] },
          );
      }
    },

    after: async (request) => {
      const claim = takeClaim(request.context);
      if (claim === null) return;
      const response = request.response;
      if (response === null || response.statusCode < 200 || response.statusCode > 299) {
        await release(claim, request.context);
        return;
      }
      try {
        const stored = await options.records().complete(claim, storedResponseOf(response), clock.now());
        if (!stored) {
          request.context.logger.warn('idempotency record taken over before the request completed');
        }
      } catch (error) {
        // The operation succeeded: its answer stands. Without a stored response a retry runs it
        // again (and meets the state it left), so the record is released rather than left in flight.
        request.context.logger.error('idempotent response not stored', toError(error));
        await release(claim, request.context);
      }
    },

    onError: async (request) => {
      // A failed request leaves nothing behind: a retry with the same key runs again.
      const claim = takeClaim(request.context);
      if (claim !== null) await release(claim, request.context);
    },
  };
}

/** The response to answer instead of running the operation, when `idempotency()` found one to replay. */
export function idempotentReplayOf(context: IdempotencyContext): APIGatewayProxyResult | null {
  const state = context.idempotency;
  return state !== undefined && 'replay' in state ? state.replay : null;
}

function replayOf(response: StoredResponse): APIGatewayProxyResult {
  return {
    statusCode: response.statusCode,
    headers: { ...response.headers, [idempotentReplayedHeader]: 'true' },
    body: response.body,
  };
}

/** The operation's answer as it left the operation: its status, its headers, its body. */
function storedResponseOf(response: APIGatewayProxyResult): StoredResponse {
  return {
    statusCode: response.statusCode,
    headers: Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]),
    ),
    body: response.body,
  };
}

function definedEntries(values: Record<string, string | undefined> | null): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, value] as const],
    ),
  );
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
