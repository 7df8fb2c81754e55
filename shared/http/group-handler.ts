import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RequestThrottle } from '../app/ports/request-throttle';
import {
  type OperationContract,
  type OperationList,
  runsWithoutAuthorizer,
} from '../contract/operation-contract';
import { NotFoundError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { authorizerPrincipal, type PrincipalContext, requiredScope } from './authorizer-principal';
import { bearerThrottle } from './bearer-throttle';
import { bodyLimit } from './body-limit';
import { type ErrorAnswer, httpErrorHandler, jsonErrorAnswer } from './error-handler';
import { routeNotFoundBody } from './error-response';
import { type IdempotencyContext, type IdempotencyMiddleware, idempotentReplayOf } from './idempotency';
import type { JsonBodyContext } from './json-body';
import { type Implementations, type OperationInput, operationResult, successStatusOf } from './operation';
import type { BodyMiddleware, BodyParsers } from './request-bodies';
import { methodReadsBody } from './request-body';
import { lowerCaseHeaders } from './request-headers';
import { type RequestIdContext, requestId } from './request-id';
import { type LoggerContext, lambdaContextLogging, requestLogging } from './request-logging';
import { type ValidatedRequestContext, validateRequest } from './request-validation';

/** A REST (v1) proxy Lambda handler, as API Gateway and the local server call it. */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface GroupHandlerOptions {
  /** The function's logger; each request's lines carry its request id. */
  readonly logger?: Logger;
  /**
   * The `Idempotency-Key` middleware (`idempotency()`, shared/http/idempotency.ts) for the group's
   * operations with `idempotent: true`, required when it has any. The groups that have one pass
   * it in, so that the others bundle none of its code.
   */
  readonly idempotency?: IdempotencyMiddleware;
  /**
   * The body parsers (`jsonBodies`, `formBodies`: request-bodies.ts) for the group's operations
   * whose method carries a body, required when it has any; a group of GET operations passes none
   * and bundles none.
   */
  readonly bodies?: BodyParsers;
  /**
   * How the group's operations that do not answer with the common JSON error body answer their
   * errors: `oauth` (oauthErrorAnswer: oauth-error-answer.ts) for those whose contract gives an
   * OAuth error body, `page` (pageErrorAnswer: page-error-answer.ts) for those answering browsers
   * with pages; required when the group has such operations, so the others bundle neither.
   */
  readonly errors?: { readonly oauth?: ErrorAnswer; readonly page?: ErrorAnswer };
  /**
   * Where Bearer requests are counted per OAuth client and org (bearer-throttle.ts): the
   * function's table on AWS (shared/runtime/request-throttle.ts), the local table locally;
   * needed by the groups with operations behind the authorizer.
   */
  readonly requestThrottle?: () => RequestThrottle;
}

/**
 * An implementation with its types erased, as the stack runs it: it receives exactly what the
 * operation's schemas produced, which is what its typed signature promised.
 */
type ErasedImplementation = (
  input: OperationInput<unknown, unknown, unknown, Principal | null>,
) => Promise<unknown>;

type OperationContext = Context &
  RequestIdContext &
  LoggerContext &
  PrincipalContext &
  JsonBodyContext &
  ValidatedRequestContext &
  IdempotencyContext;

/**
 * The one Lambda handler of a function group: finds the operation by `resource` and `httpMethod`,
 * then runs the HTTP middleware stack and the operation's implementation. `operations` is the
 * group's part of the operation list (shared/contract/operations); the types demand an
 * implementation for each, and a missing one (through a cast) throws here, when the handler module
 * loads, not on some later request; so does an idempotent operation without the `idempotency` option.
 */
export function createGroupHandler<Ops extends OperationList>(
  operations: Ops,
  implementations: Implementations<Ops>,
  options: GroupHandlerOptions = {},
): ProxyHandler {
  const logger = options.logger ?? new Logger();
  const handlers = new Map<string, ProxyHandler>();
  for (const [operationId, operation] of Object.entries(operations)) {
    const implementation: unknown = Object.hasOwn(implementations, operationId)
      ? implementations[operationId]
      : undefined;
    if (typeof implementation !== 'function') {
      throw new Error(`No implementation of ${operationId} (${operation.method} ${operation.path})`);
    }
    if (!runsWithoutAuthorizer(operation) && operation.scope === undefined) {
      throw new Error(`${operationId} runs behind the authorizer, so it must state its OAuth scope`);
    }
    handlers.set(
      routeKey(operation.method, operation.path),
      operationHandler(operationId, operation, implementation as ErasedImplementation, logger, {
        idempotency: idempotencyOf(operationId, operation, options),
        bodyParsers: bodyParsersOf(operationId, operation, options),
        errorAnswer: errorAnswerOf(operationId, operation, options),
        requestThrottle: requestThrottleOf(operationId, operation, options),
      }),
    );
  }
  const unrouted = unroutedHandler(logger);

  return (event, context) => {
    const handler = handlers.get(routeKey(event.httpMethod, event.resource)) ?? unrouted;
    return handler(event, context);
  };
}

function routeKey(method: string, resource: string): string {
  return `${method.toUpperCase()} ${resource}`;
}

/** The idempotency middleware of an operation with `idempotent: true`; null for the others. */
function idempotencyOf(
  operationId: string,
  operation: OperationContract,
  options: GroupHandlerOptions,
): IdempotencyMiddleware | null {
  if (operation.idempotent !== true) return null;
  if (runsWithoutAuthorizer(operation)) {
    throw new Error(
      `${operationId} is idempotent, so it needs a caller to scope its keys: it cannot be public`,
    );
  }
  if (options.idempotency === undefined) {
    throw new Error(`${operationId} is idempotent: createGroupHandler needs the idempotency option`);
  }
  return options.idempotency;
}

/**
 * The Bearer throttle of an operation behind the authorizer; null for the public ones. Without the
 * option, a request that names an OAuth client fails rather than go unthrottled (API-key requests,
 * which API Gateway throttles, never ask for it).
 */
function requestThrottleOf(
  operationId: string,
  operation: OperationContract,
  options: GroupHandlerOptions,
): (() => RequestThrottle) | null {
  if (runsWithoutAuthorizer(operation)) return null;
  return (
    options.requestThrottle ??
    (() => {
      throw new Error(
        `${operationId} got a Bearer request, but its group handler was given no requestThrottle`,
      );
    })
  );
}

/** The body middlewares of an operation whose method carries a body; none for the others. */
function bodyParsersOf(
  operationId: string,
  operation: OperationContract,
  options: GroupHandlerOptions,
): BodyMiddleware[] {
  if (!methodReadsBody(operation.method)) return [];
  const form = operation.bodyMediaType === 'application/x-www-form-urlencoded';
  const parsers = form ? options.bodies?.form : options.bodies?.json;
  if (parsers === undefined) {
    throw new Error(
      `${operationId} (${operation.method}) reads a ${form ? 'form' : 'JSON'} body: createGroupHandler needs the bodies option`,
    );
  }
  return parsers();
}

function operationHandler(
  operationId: string,
  operation: OperationContract,
  implementation: ErasedImplementation,
  logger: Logger,
  extras: {
    readonly idempotency: IdempotencyMiddleware | null;
    readonly bodyParsers: BodyMiddleware[];
    readonly errorAnswer: ErrorAnswer;
    readonly requestThrottle: (() => RequestThrottle) | null;
  },
): ProxyHandler {
  const successStatus = successStatusOf(operation);
  const base = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, OperationContext>()
    .use(lambdaContextLogging(logger))
    .use(requestId())
    .use(requestLogging({ logger, operationId }))
    .use(httpErrorHandler({ logger, answer: extras.errorAnswer }))
    .use(authorizerPrincipal({ required: !runsWithoutAuthorizer(operation) }))
    // Right after the principal: a throttled request costs one write and nothing more.
    .use(extras.requestThrottle ? [bearerThrottle(extras.requestThrottle)] : [])
    .use(requiredScope(operation.scope))
    .use(bodyLimit())
    .use(extras.bodyParsers)
    .use(validateRequest(operation));
  // After validation and the principal: a request refused by them never touches its key.
  const stack = (extras.idempotency ? base.use(extras.idempotency) : base).handler(async (event, context) => {
    const replay = idempotentReplayOf(context);
    if (replay !== null) return replay;
    const result = await implementation({
      pathParams: context.validated.pathParams,
      query: context.validated.query,
      body: context.validated.body,
      principal: context.principal,
      requestId: context.requestId,
      headers: lowerCaseHeaders(event.headers),
      sourceIp: event.requestContext?.identity?.sourceIp ?? '',
      logger: context.logger,
    });
    return operationResult(result, successStatus);
  });
  // The middlewares fill in the context's extra fields before the operation runs.
  return (event, context) => stack(event, context as OperationContext);
}

/**
 * How the operation's errors are answered: pages for browsers, RFC 6749 errors where the contract
 * gives an OAuth error body, the common JSON error body everywhere else.
 */
function errorAnswerOf(
  operationId: string,
  operation: OperationContract,
  options: GroupHandlerOptions,
): ErrorAnswer {
  const kind = operation.html ? 'page' : operation.clientErrorBody ? 'oauth' : null;
  if (kind === null) return jsonErrorAnswer;
  const answer = options.errors?.[kind];
  if (answer === undefined) {
    throw new Error(
      `${operationId} answers its errors ${kind === 'page' ? 'with pages' : 'as OAuth errors'}: createGroupHandler needs errors.${kind}`,
    );
  }
  return answer;
}

/** An event for a resource the group does not serve: API Gateway never sends one, a direct invocation might. */
function unroutedHandler(logger: Logger): ProxyHandler {
  type UnroutedContext = Context & RequestIdContext & LoggerContext;
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, UnroutedContext>()
    .use(lambdaContextLogging(logger))
    .use(requestId())
    .use(requestLogging({ logger }))
    .use(httpErrorHandler({ logger }))
    .handler(async () => {
      throw new NotFoundError(routeNotFoundBody().message);
    });
  return (event, context) => stack(event, context as UnroutedContext);
}
