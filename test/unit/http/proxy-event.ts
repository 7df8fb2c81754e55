import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/** A REST (v1) proxy event as API Gateway sends it, with the parts a test cares about overridden. */
export function proxyEvent(
  overrides: Partial<APIGatewayProxyEvent> & { principal?: unknown },
): APIGatewayProxyEvent {
  const { principal, ...eventOverrides } = overrides;
  const httpMethod = eventOverrides.httpMethod ?? 'GET';
  const resource = eventOverrides.resource ?? '/';
  return {
    resource,
    path: resource,
    httpMethod,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    ...eventOverrides,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      authorizer: principal === undefined ? undefined : { principal: JSON.stringify(principal) },
      protocol: 'HTTP/1.1',
      httpMethod,
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
        sourceIp: '127.0.0.1',
        user: null,
        userAgent: null,
        userArn: null,
      },
      path: resource,
      stage: 'test',
      requestId: 'gateway-request-id',
      requestTimeEpoch: 0,
      resourceId: 'resource',
      resourcePath: resource,
    },
  };
}

export function lambdaContext(): Context {
  const unsupported = () => {
    throw new Error('callbacks are not used');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:test',
    memoryLimitInMB: '128',
    awsRequestId: 'lambda-request-id',
    logGroupName: '/aws/lambda/test',
    logStreamName: 'stream',
    // middy aborts a handler when this runs out: a fixed few seconds was a wall-clock budget that a
    // loaded machine exhausted (docs/testing.md). The time left is the hang detector's, never less.
    getRemainingTimeInMillis: () => 1_800_000,
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
