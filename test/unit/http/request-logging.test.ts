import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type RequestIdContext, requestId } from '../../../shared/http/request-id';
import {
  type LoggerContext,
  lambdaContextLogging,
  type RequestLogger,
  requestLogging,
} from '../../../shared/http/request-logging';
import { lambdaContext, proxyEvent } from './proxy-event';

type LoggingContext = Context & RequestIdContext & LoggerContext;

/** A handler with the logging middlewares in the group handler's order; `log` logs through the request's logger. */
function loggingHandler(logger: Logger, log: (requestLogger: RequestLogger) => void) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, LoggingContext>()
    .use(lambdaContextLogging(logger))
    .use(requestId())
    .use(requestLogging({ logger, operationId: 'listOrgs' }))
    .handler(async (_event, context) => {
      log(context.logger);
      return { statusCode: 200, body: '' };
    });
  return (headers: Record<string, string> = {}) =>
    handler(proxyEvent({ resource: '/orgs', headers }), lambdaContext() as LoggingContext);
}

describe('request logging', () => {
  // The logger writes INFO and WARN lines to stdout and ERROR lines to stderr.
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stdout.mockRestore();
    stderr.mockRestore();
    vi.unstubAllEnvs();
  });

  function logLines(): Record<string, unknown>[] {
    return [...stdout.mock.calls, ...stderr.mock.calls]
      .map(([chunk]) => String(chunk))
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it("puts the request id and the Lambda context on the request's lines, attributes and errors included", async () => {
    // Prepare
    const logger = new Logger({ serviceName: 'test' });
    const handle = loggingHandler(logger, (requestLogger) => {
      requestLogger.info('attributes', { org_id: 'org-1' });
      requestLogger.error('an error', new Error('boom'));
    });

    // Act
    await handle({ 'X-Request-Id': 'trace-9' });

    // Assess
    const ids = { request_id: 'trace-9', function_request_id: 'lambda-request-id', function_name: 'test' };
    const byMessage = new Map(logLines().map((line) => [line.message, line]));
    expect([...byMessage.keys()].sort()).toEqual(['an error', 'attributes', 'request']);
    expect(byMessage.get('attributes')).toMatchObject({ level: 'INFO', org_id: 'org-1', ...ids });
    expect(byMessage.get('an error')).toMatchObject({ level: 'ERROR', error: { message: 'boom' }, ...ids });
    expect(byMessage.get('request')).toMatchObject({
      method: 'GET',
      resource: '/orgs',
      operation_id: 'listOrgs',
      status: 200,
      ...ids,
    });
  });

  it("drops a request's id when it ends: the next request and lines outside requests do not carry it", async () => {
    // Prepare
    const logger = new Logger({ serviceName: 'test' });
    const handle = loggingHandler(logger, (requestLogger) => requestLogger.info('inside'));

    // Act
    await handle({ 'x-request-id': 'first' });
    logger.info('between');
    await handle();

    // Assess
    expect(logLines().map((line) => [line.message, line.request_id])).toEqual([
      ['inside', 'first'],
      ['request', 'first'],
      ['between', undefined],
      ['inside', 'gateway-request-id'],
      ['request', 'gateway-request-id'],
    ]);
  });

  it('never logs the event, even when POWERTOOLS_LOGGER_LOG_EVENT asks for it', async () => {
    // Prepare
    vi.stubEnv('POWERTOOLS_LOGGER_LOG_EVENT', 'true');
    const logger = new Logger({ serviceName: 'test' });
    const handle = loggingHandler(logger, () => undefined);

    // Act
    await handle({ 'x-api-key': 'cpk_abcdefghijklmnop_SECRETSECRETSECRETSECRETSECRET01' });

    // Assess
    expect(logLines().map((line) => line.message)).toEqual(['request']);
    expect(JSON.stringify(logLines())).not.toContain('SECRET');
  });
});
