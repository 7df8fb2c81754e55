import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type RequestIdContext, requestId } from '../../../shared/http/request-id';
import { type LoggerContext, type RequestLogger, requestLogging } from '../../../shared/http/request-logging';
import { lambdaContext, proxyEvent } from './proxy-event';

/** Runs one request through the request id and logging middlewares; `log` logs through its logger. */
async function logDuring(logger: Logger, log: (requestLogger: RequestLogger) => void): Promise<void> {
  const handler = middy<
    APIGatewayProxyEvent,
    APIGatewayProxyResult,
    Error,
    Context & RequestIdContext & LoggerContext
  >()
    .use(requestId())
    .use(requestLogging({ logger }))
    .handler(async (_event, context) => {
      log(context.logger);
      return { statusCode: 200, body: '' };
    });
  await handler(proxyEvent({}), lambdaContext() as Context & RequestIdContext & LoggerContext);
}

describe('requestLogging', () => {
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
  });

  /** The lines logged so far, without their timestamps. */
  function logLines(): Record<string, unknown>[] {
    return [...stdout.mock.calls, ...stderr.mock.calls]
      .map(([chunk]) => String(chunk))
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => {
        const { timestamp: _timestamp, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return rest;
      });
  }

  it("writes a request's lines, with attributes, a string or an error, as a child logger with its ids would", async () => {
    // Prepare
    const logger = new Logger({ serviceName: 'test' });
    const error = new Error('boom');
    const logAll = (requestLogger: RequestLogger) => {
      requestLogger.info('attributes', { org_id: 'org-1' }, { plan_id: 'plan-1' });
      requestLogger.warn('a string', 'more detail');
      requestLogger.error('an error', error);
    };
    logAll(
      logger.createChild({
        persistentKeys: {
          request_id: 'gateway-request-id',
          function_request_id: lambdaContext().awsRequestId,
        },
      }),
    );
    const expected = logLines();
    stdout.mockClear();
    stderr.mockClear();

    // Act
    await logDuring(logger, logAll);

    // Assess
    expect(logLines().filter((line) => line.message !== 'request')).toEqual(expected);
    expect(expected).toMatchObject([
      { message: 'attributes', request_id: 'gateway-request-id', org_id: 'org-1', plan_id: 'plan-1' },
      { message: 'a string', request_id: 'gateway-request-id', extra: 'more detail' },
      { message: 'an error', request_id: 'gateway-request-id', error: { message: 'boom' } },
    ]);
  });
});
