import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { authorizerPrincipalKey } from '../../shared/http/authorizer-context';
import type { LocalAuthorization } from './local-server';

export type RequestAuthorizer = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

/**
 * Runs a REQUEST authorizer the way API Gateway does for the local server: builds the authorizer
 * event from the proxy event, treats a throw or a Deny as a refusal, and passes the principal on.
 */
export function localAuthorization(authorizer: RequestAuthorizer) {
  return async (event: APIGatewayProxyEvent): Promise<LocalAuthorization> => {
    const { requestContext } = event;
    const methodArn = `arn:aws:execute-api:local:000000000000:local/${requestContext.stage}/${event.httpMethod}${event.path}`;
    let result: APIGatewayAuthorizerResult;
    try {
      result = await authorizer({
        type: 'REQUEST',
        methodArn,
        resource: event.resource,
        path: event.path,
        httpMethod: event.httpMethod,
        headers: event.headers,
        multiValueHeaders: event.multiValueHeaders,
        pathParameters: event.pathParameters,
        queryStringParameters: event.queryStringParameters,
        multiValueQueryStringParameters: event.multiValueQueryStringParameters,
        stageVariables: null,
        requestContext: { ...requestContext, authorizer: undefined },
      });
    } catch {
      return 'unauthorized';
    }
    const allowed = result.policyDocument.Statement.every((statement) => statement.Effect === 'Allow');
    const principal = result.context?.[authorizerPrincipalKey];
    return allowed && typeof principal === 'string' ? { principal } : 'unauthorized';
  };
}
