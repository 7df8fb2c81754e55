import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { FunctionGroup } from '../../shared/contract/operation-contract';
import type { Route } from '../../shared/contract/operations';
import { DomainError } from '../../shared/domain/errors';
import { authorizerOAuthClientKey, authorizerPrincipalKey } from '../../shared/http/authorizer-context';
import {
  errorResponseOf,
  methodNotAllowedResponse,
  routeNotFoundResponse,
  throttledResponse,
  unauthorizedResponse,
} from '../../shared/http/error-response';
import type { ProxyHandler } from '../../shared/http/group-handler';
import { bodyTooLargeError, maxRequestBodyBytes } from '../../shared/http/request-body';
import { requestIdHeader, resolveRequestId } from '../../shared/http/request-id';
import { localLambdaContext } from '../lambda-context';
import { createRouteMatcher } from './route-matching';

/**
 * What the authorizer decided: the principal (a JSON string, as in the authorizer context) and,
 * for a Bearer token, its OAuth client; no; or yes but over the caller's rate (API Gateway's
 * usage plan throttling).
 */
export type LocalAuthorization =
  | { readonly principal: string; readonly oauthClient?: string }
  | 'unauthorized'
  | 'throttled';

export interface LocalServerOptions {
  readonly routes: readonly Route[];
  /** The Lambda handler of a function group; called once per group, on its first request. */
  readonly loadHandler: (group: FunctionGroup) => Promise<ProxyHandler>;
  /** Runs for every non-public route, before the handler, as API Gateway's REQUEST authorizer does. */
  readonly authorize: (event: APIGatewayProxyEvent) => Promise<LocalAuthorization>;
  readonly logger?: Logger;
  /**
   * The API's base URL (the OAuth issuer), which 401 challenges name; by default the address the
   * server listens on.
   */
  readonly baseUrl?: () => string;
  /**
   * Pages of the local stand-ins for other services (the simulated Microsoft identity platform):
   * asked first, for every GET and POST (the body is read only if asked for); null lets the API
   * answer.
   */
  readonly localPage?: (request: {
    readonly method: string;
    readonly path: string;
    readonly query: URLSearchParams;
    readonly body: () => Promise<string | null>;
  }) => Promise<APIGatewayProxyResult | null>;
  /**
   * Local stand-ins answering any method under `/local/` (the simulated tenant's ARM): given the
   * method, path, authorization header and body; null lets the API answer.
   */
  readonly localService?: (request: LocalServiceRequest) => Promise<APIGatewayProxyResult | null>;
}

export interface LocalServiceRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  readonly body: string;
}

/** API Gateway's integration timeout: the handlers see it through getRemainingTimeInMillis. */
const handlerTimeoutMs = 29_000;
const stage = 'local';
const idleConnectionMs = 65_000;

interface RequestTarget {
  readonly rawPath: string;
  readonly rawQuery: string;
}

/**
 * The local stand-in for API Gateway: matches the request against the route templates, answers
 * unknown routes (404), wrong methods (405 with Allow), oversized bodies (413) and refused
 * credentials (401) itself, and hands everything else to the group's Lambda handler as a REST (v1)
 * proxy event, exactly as the deployed API would.
 */
export function createLocalServer(options: LocalServerOptions): Server {
  const matchRoute = createRouteMatcher(options.routes);
  const logger = options.logger ?? new Logger();
  const handlers = new Map<FunctionGroup, Promise<ProxyHandler>>();
  const baseUrl = options.baseUrl ?? (() => listeningUrl(server));

  const handlerOf = (group: FunctionGroup): Promise<ProxyHandler> => {
    const cached = handlers.get(group);
    if (cached !== undefined) {
      return cached;
    }
    const loading = options.loadHandler(group);
    handlers.set(group, loading);
    // A failed load is retried by the next request rather than remembered.
    loading.catch(() => handlers.delete(group));
    return loading;
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const gatewayRequestId = randomUUID();
    const requestId = resolveRequestId(firstHeader(request.headers[requestIdHeader]), gatewayRequestId);
    const method = (request.method ?? 'GET').toUpperCase();
    const answerItself = (result: APIGatewayProxyResult, resource: string | null) => {
      logger.info('request', { request_id: requestId, method, resource, status: result.statusCode });
      writeResult(response, { ...result, headers: { ...result.headers, [requestIdHeader]: requestId } });
    };
    try {
      const target = splitTarget(request.url ?? '/');
      const page =
        (method === 'GET' || method === 'POST') && options.localPage
          ? await options.localPage({
              method,
              path: target.rawPath,
              query: new URLSearchParams(target.rawQuery),
              body: async () => (await readBody(request, maxRequestBodyBytes))?.toString('utf8') ?? null,
            })
          : null;
      if (page) return answerItself(page, target.rawPath);
      if (options.localService && target.rawPath.startsWith('/local/')) {
        const body = await readBody(request, maxRequestBodyBytes);
        const served = await options.localService({
          method,
          path: decodeURIComponent(target.rawPath),
          authorization: firstHeader(request.headers.authorization) ?? null,
          body: body?.toString('utf8') ?? '',
        });
        if (served) return answerItself(served, target.rawPath);
      }
      const match = matchRoute(method, target.rawPath);
      if (match.kind === 'not-found') {
        return answerItself(routeNotFoundResponse(), null);
      }
      if (match.kind === 'method-not-allowed') {
        return answerItself(methodNotAllowedResponse(match.allowedMethods), null);
      }
      const { route, pathParameters } = match;
      const body = await readBody(request, maxRequestBodyBytes);
      if (body === null) {
        // The rest of the body is not read: closing the connection is the only way to refuse it.
        const tooLarge = errorResponseOf(bodyTooLargeError());
        return answerItself(
          { ...tooLarge, headers: { ...tooLarge.headers, connection: 'close' } },
          route.path,
        );
      }
      const event = proxyEvent({ request, method, route, pathParameters, target, body, gatewayRequestId });
      if (!route.withoutAuthorizer) {
        const authorization = await options.authorize(event);
        if (authorization === 'unauthorized') {
          return answerItself(unauthorizedResponse(baseUrl()), route.path);
        }
        if (authorization === 'throttled') {
          return answerItself(throttledResponse(), route.path);
        }
        event.requestContext.authorizer = {
          [authorizerPrincipalKey]: authorization.principal,
          ...(authorization.oauthClient === undefined
            ? {}
            : { [authorizerOAuthClientKey]: authorization.oauthClient }),
        };
      }
      const handler = await handlerOf(route.group);
      writeResult(
        response,
        await handler(event, localLambdaContext(`local-${route.group}`, handlerTimeoutMs)),
      );
    } catch (error) {
      if (!(error instanceof DomainError)) {
        logger.error(
          { message: 'local server failed to handle the request', request_id: requestId },
          error instanceof Error ? error : new Error(String(error)),
        );
      }
      if (response.headersSent) {
        response.destroy();
      } else {
        answerItself(errorResponseOf(error), null);
      }
    }
  };

  const server = createServer((request, response) => {
    void serve(request, response);
  });
  // Keep idle connections longer than clients do (Node's 5 s default races clients that reuse a
  // connection just as the server drops it), as load balancers in front of APIs commonly do.
  server.keepAliveTimeout = idleConnectionMs;
  server.headersTimeout = idleConnectionMs + 1_000;
  return server;
}

function listeningUrl(server: Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function splitTarget(url: string): RequestTarget {
  const queryStart = url.indexOf('?');
  return queryStart === -1
    ? { rawPath: url, rawQuery: '' }
    : { rawPath: url.slice(0, queryStart), rawQuery: url.slice(queryStart + 1) };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads the request body, or answers null as soon as it exceeds `maxBytes` (a declared
 * Content-Length over the limit is refused without reading anything): memory stays bounded
 * whatever the client sends.
 */
function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.off('data', onData);
        request.off('end', onEnd);
        request.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', reject);
  });
}

function proxyEvent(args: {
  request: IncomingMessage;
  method: string;
  route: Route;
  pathParameters: Record<string, string>;
  target: RequestTarget;
  body: Buffer;
  gatewayRequestId: string;
}): APIGatewayProxyEvent {
  const { request, method, route, pathParameters, target, body, gatewayRequestId } = args;
  const { headers, multiValueHeaders } = headersOf(request.rawHeaders);
  const query = queryOf(target.rawQuery);
  const userAgent = firstHeader(request.headers['user-agent']) ?? null;
  return {
    resource: route.path,
    path: target.rawPath,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
    stageVariables: null,
    body: body.length > 0 ? body.toString('utf8') : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: undefined,
      protocol: `HTTP/${request.httpVersion}`,
      httpMethod: method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.socket.remoteAddress ?? '',
        user: null,
        userAgent,
        userArn: null,
      },
      path: target.rawPath,
      stage,
      requestId: gatewayRequestId,
      requestTimeEpoch: Date.now(),
      resourceId: route.path,
      resourcePath: route.path,
    },
  };
}

/** Both header views of API Gateway: names as the client wrote them, the last value winning in `headers`. */
function headersOf(rawHeaders: readonly string[]): {
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
} {
  const single = new Map<string, string>();
  const multi = new Map<string, string[]>();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    const value = rawHeaders[index + 1] as string;
    single.set(name, value);
    multi.set(name, [...(multi.get(name) ?? []), value]);
  }
  return { headers: Object.fromEntries(single), multiValueHeaders: Object.fromEntries(multi) };
}

/** Both query views of API Gateway, null when the request has no query parameters. */
function queryOf(rawQuery: string): {
  single: Record<string, string> | null;
  multi: Record<string, string[]> | null;
} {
  const multi = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    multi.set(key, [...(multi.get(key) ?? []), value]);
  }
  if (multi.size === 0) {
    return { single: null, multi: null };
  }
  const single = [...multi].map(([key, values]) => [key, values[values.length - 1] as string] as const);
  return { single: Object.fromEntries(single), multi: Object.fromEntries(multi) };
}

/** Writes a proxy result as API Gateway does: `multiValueHeaders` win over `headers` for the same name. */
function writeResult(response: ServerResponse, result: APIGatewayProxyResult): void {
  response.statusCode = result.statusCode;
  const multiValueNames = new Set(
    Object.keys(result.multiValueHeaders ?? {}).map((name) => name.toLowerCase()),
  );
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (!multiValueNames.has(name.toLowerCase())) {
      response.setHeader(name, String(value));
    }
  }
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    response.setHeader(name, values.map(String));
  }
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
