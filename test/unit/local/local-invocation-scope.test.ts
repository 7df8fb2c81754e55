import { Logger } from '@aws-lambda-powertools/logger';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { openInvocationScopes } from '../../../local/local-invocation-scope';
import { openApiOperations } from '../../../shared/contract/operations/openapi';
import { createGroupHandler } from '../../../shared/http/group-handler';
import { lambdaContext, proxyEvent } from '../http/proxy-event';

describe('local invocation scopes', () => {
  let stdout: MockInstance<typeof process.stdout.write>;
  const concurrencyBefore = process.env.AWS_LAMBDA_MAX_CONCURRENCY;

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stdout.mockRestore();
    if (concurrencyBefore === undefined) delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
    else process.env.AWS_LAMBDA_MAX_CONCURRENCY = concurrencyBefore;
  });

  it('keeps each of two overlapping requests on its own request id, in every line it logs', async () => {
    // Prepare: the first request logs, waits until the second has started, and logs again.
    let secondStarted: () => void = () => undefined;
    const second = new Promise<void>((resolve) => {
      secondStarted = resolve;
    });
    const handler = createGroupHandler(
      openApiOperations,
      {
        getOpenApiDocument: async ({ headers, logger }) => {
          logger.info('started');
          if (headers['x-request-id'] === 'first') await second;
          else secondStarted();
          logger.info('finishing');
          return {};
        },
      },
      { logger: new Logger({ serviceName: 'test' }) },
    );
    const scoped = (await openInvocationScopes(process.env))(handler);
    const request = (id: string) =>
      scoped(proxyEvent({ resource: '/openapi.json', headers: { 'x-request-id': id } }), lambdaContext());

    // Act
    await Promise.all([request('first'), request('second')]);

    // Assess
    const lines = stdout.mock.calls
      .flatMap(([chunk]) => String(chunk).split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => `${line.request_id} ${line.message}`).sort()).toEqual([
      'first finishing',
      'first request',
      'first started',
      'second finishing',
      'second request',
      'second started',
    ]);
  });
});
