import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type FunctionGroup, routes as manifestRoutes, type Route } from '../../functions/routes';
import { NotFoundError } from '../domain/errors';
import { authorizerPrincipal, type PrincipalContext } from './authorizer-principal';
import { bodyLimit } from './body-limit';
import { httpErrorHandler } from './error-handler';
import { routeNotFoundBody } from './error-response';
import { type JsonBodyContext, jsonBody } from './json-body';
import { jsonContentType } from './json-content-type';
import { type Operation, operationResult } from './operation';
import { lowerCaseHeaders } from './request-headers';
import { type RequestIdContext, requestId } from './request-id';
import { type LoggerContext, lambdaContextLogging, requestLogging } from './request-logging';
import { type ValidatedRequestContext, validateRequest } from './request-validation';

/** A REST (v1) proxy Lambda handler, as API Gateway and the local server call it. */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface GroupHandlerOptions {
  /** The routes to serve; the manifest's unless given (tests inject their own). */
  readonly routes?: readonly Route[];
  /** The function's logger; each request's lines carry its request id. */
  readonly logger?: Logger;
}

type OperationContext = Context &
  RequestIdContext &
  LoggerContext &
  PrincipalContext &
  JsonBodyContext &
  ValidatedRequestContext;

/**
 * The one Lambda handler of a function group: finds the route by `resource` and `httpMethod`, then
 * runs the HTTP middleware stack and the route's operation. Every route of the group must have an
 * operation and every operation a route of the group, with the same `public` flag; a mismatch
 * throws here, when the handler module loads, not on some later request.
 */
export function createGroupHandler(
  group: FunctionGroup,
  operations: Readonly<Record<string, Operation>>,
  options: GroupHandlerOptions = {},
): ProxyHandler {
  const groupRoutes = (options.routes ?? manifestRoutes).filter((route) => route.group === group);
  const logger = options.logger ?? new Logger();
  checkOperationsMatchRoutes(group, groupRoutes, operations);

  const handlers = new Map<string, ProxyHandler>();
  for (const route of groupRoutes) {
    handlers.set(
      routeKey(route.method, route.path),
      routeHandler(route, operations[route.operationId] as Operation, logger),
    );
  }
  const unrouted = unroutedHandler(logger);

  return (event, context) => {
    const handler = handlers.get(routeKey(event.httpMethod, event.resource)) ?? unrouted;
    return handler(event, context);
  };
}

function checkOperationsMatchRoutes(
  group: FunctionGroup,
  groupRoutes: readonly Route[],
  operations: Readonly<Record<string, Operation>>,
): void {
  const routedIds = new Set(groupRoutes.map((route) => route.operationId));
  const strays = Object.keys(operations).filter((operationId) => !routedIds.has(operationId));
  if (strays.length > 0) {
    throw new Error(
      `Function group ${group} defines operations with no route of the group: ${strays.join(', ')}`,
    );
  }
  for (const route of groupRoutes) {
    const operation = Object.hasOwn(operations, route.operationId)
      ? operations[route.operationId]
      : undefined;
    if (operation === undefined) {
      throw new Error(
        `Function group ${group} has no operation ${route.operationId} for ${route.method} ${route.path}`,
      );
    }
    if (operation.public !== (route.public === true)) {
      throw new Error(
        `Operation ${route.operationId} is ${operation.public ? '' : 'not '}public but its route ${route.method} ${route.path} is ${route.public ? '' : 'not '}public`,
      );
    }
  }
}

function routeKey(method: string, resource: string): string {
  return `${method.toUpperCase()} ${resource}`;
}

function routeHandler(route: Route, operation: Operation, logger: Logger): ProxyHandler {
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, OperationContext>()
    .use(lambdaContextLogging(logger))
    .use(requestId())
    .use(requestLogging({ logger, operationId: route.operationId }))
    .use(httpErrorHandler({ logger }))
    .use(authorizerPrincipal({ required: route.public !== true }))
    .use(bodyLimit())
    .use(jsonContentType())
    .use(jsonBody())
    .use(validateRequest(operation.schemas))
    .handler(async (event, context) => {
      const result = await operation.handle({
        pathParams: context.validated.pathParams,
        query: context.validated.query,
        body: context.validated.body,
        principal: context.principal,
        requestId: context.requestId,
        headers: lowerCaseHeaders(event.headers),
        logger: context.logger,
      });
      return operationResult(result, operation.successStatus);
    });
  // The middlewares fill in the context's extra fields before the operation runs.
  return (event, context) => stack(event, context as OperationContext);
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
