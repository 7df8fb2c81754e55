import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerThrottleKey } from '../../../shared/store/keys';
import { dynamoRequestThrottle } from '../../../shared/store/request-throttle';
import { getItem } from '../../../shared/store/table-client';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table?.close();
});

/** A burst of 2 at 1 per second: windows of 2 s. */
const throttle = { rateLimit: 1, burstLimit: 2 };
/** 10,000.5 s after the epoch: window 5,000 (10,000,500 / 2,000), which ends at 10,002 s. */
const at = new Date(10_000_500);

describe("the Bearer requests' counters in the table", () => {
  it('admits a burst per client and org, then refuses until the window ends', async () => {
    // Prepare
    const requests = dynamoRequestThrottle(table, throttle);
    const shared = { clientId: 'shared-public', orgId: 'org-a' };

    // Act
    const decisions = [
      await requests.admit(shared, at),
      await requests.admit(shared, at),
      await requests.admit(shared, at),
    ];
    const otherOrg = await requests.admit({ clientId: 'shared-public', orgId: 'org-b' }, at);
    const otherClient = await requests.admit({ clientId: 'partner-app', orgId: 'org-a' }, at);
    const nextWindow = await requests.admit(shared, new Date(10_002_000));

    // Assess: the window ends at 10,002,000 ms, 1.5 s away: Retry-After rounds up to 2.
    expect(decisions).toEqual([
      { admitted: true },
      { admitted: true },
      { admitted: false, retryAfterSeconds: 2 },
    ]);
    expect(otherOrg).toEqual({ admitted: true });
    expect(otherClient).toEqual({ admitted: true });
    expect(nextWindow).toEqual({ admitted: true });
  });

  it('keeps one item per window, in the org partition, expiring a minute after the window', async () => {
    // Act
    await dynamoRequestThrottle(table, throttle).admit({ clientId: 'c1', orgId: 'org-x' }, at);

    // Assess: 10,002 s is the window's end; TTL 60 s later.
    expect(await getItem(table, bearerThrottleKey('c1', 'org-x', 5_000))).toMatchObject({
      PK: 'ORG#org-x',
      SK: 'THROTTLE#c1#5000',
      type: 'request_throttle',
      requests: 1,
      expiresAt: 10_062,
    });
  });
});
