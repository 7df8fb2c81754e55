import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedAwsAccount, simulatedAwsProbe, writeSimulatedCloud } from '../../../local/simulated-cloud';
import { runAwsChecks } from '../../../shared/cloud/verifiers/aws-verification';
import { onboardingRoleArn } from '../../../shared/domain/onboarding/aws-checks';

/**
 * The AWS verification's independent checks run at once (issue 13, Performance): with a latency
 * per simulated call, a verification takes the role's call, then the longest chain of the others
 * (the export lookup, or the DryRun's offering then purchase): about 3 calls, never their sum (7).
 * The latency is long beside the work between calls, so that a loaded machine cannot blur 3 calls
 * into 4: the test tells "at once" from "one after the other" (7 calls), it times nothing else.
 */

const latencyMs = 400;
const serviceAccountId = '111122223333';
const externalId = 'cpo-0123456789abcdef0123456789abcdef';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simulated-cloud-'));
  await writeSimulatedCloud(dir, {
    latency_ms: latencyMs,
    aws: {
      '444455556666': connectedAwsAccount({
        serviceAccountId,
        externalId,
        bucket: 'acme-cur',
        prefix: 'cur',
        reportName: 'hourly',
      }),
    },
    azure: {},
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the AWS verification on the simulated cloud with 400 ms per call', () => {
  it("takes at most 3 calls' latency: its independent checks run at once", async () => {
    // Prepare
    const probe = simulatedAwsProbe(dir, serviceAccountId);
    const request = {
      accountId: '444455556666',
      roleArn: onboardingRoleArn('444455556666'),
      externalId,
      existingCur: { region: 'us-east-1', bucket: 'acme-cur', prefix: 'cur', reportName: 'hourly' },
    };
    await runAwsChecks(probe, request);

    // Act
    const durations: number[] = [];
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const items = await runAwsChecks(probe, request);
      durations.push(performance.now() - started);
      expect(items.every((item) => item.status === 'available')).toBe(true);
    }

    // Assess
    const median = durations.sort((a, b) => a - b)[1] ?? Number.POSITIVE_INFINITY;
    expect(median).toBeLessThanOrEqual(3 * latencyMs);
  });
});
