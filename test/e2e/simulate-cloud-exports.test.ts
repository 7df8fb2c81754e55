import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localServiceAccountId } from '../../local/local-onboarding';
import { simulatedAwsUsageSources } from '../../local/simulated-usage-sources';
import type { UsageSourceSession } from '../../shared/app/ports/usage-sync';
import { onboardingRoleArn } from '../../shared/domain/onboarding/aws-checks';
import { admin, runAdmin } from '../support/admin-cli';
import { type LocalServer, startLocalServer } from '../support/local-server';

/**
 * `admin simulate-cloud aws --deliver / --commitments` (bin/admin.ts) run as a process on a local
 * server's LOCAL_DIR, read back through the simulated usage sources as a sync reads them.
 */

let server: LocalServer;
let files: string;
const accountId = '444455556666';
const externalId = 'cpo-0123456789abcdef0123456789abcdef';

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  files = await mkdtemp(join(tmpdir(), 'simulated-exports-'));
  await admin(server.dir, [
    'simulate-cloud',
    'aws',
    '--account',
    accountId,
    '--external-id',
    externalId,
    '--bucket',
    'acme-cur',
    '--prefix',
    'cur',
    '--report-name',
    'hourly',
  ]);
});

afterAll(async () => {
  await server?.stop();
});

function connect(): Promise<UsageSourceSession> {
  return simulatedAwsUsageSources(server.dir, localServiceAccountId).connect({
    accountId,
    roleArn: onboardingRoleArn(accountId),
    externalId,
    export: {
      source: 'data-exports',
      name: 'hourly',
      bucket: 'acme-cur',
      prefix: 'cur',
      region: 'us-east-1',
    },
  });
}

async function bytesOf(
  session: UsageSourceSession,
  file: Parameters<UsageSourceSession['openExportFile']>[0],
) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of session.openExportFile(file).stream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('simulate-cloud aws --deliver', () => {
  it('delivers files into the period as AWS does, and --replace replaces the period', async () => {
    // Prepare
    const first = join(files, 'first.csv.gz');
    const second = join(files, 'second.csv.gz');
    const third = join(files, 'third.parquet');
    await writeFile(first, 'first file');
    await writeFile(second, 'second file');
    await writeFile(third, 'third file');
    const deliver = (file: string, ...more: string[]) =>
      admin<{ aws: { delivered: { key: string; manifest: string; files: string[] } } }>(server.dir, [
        'simulate-cloud',
        'aws',
        '--account',
        accountId,
        '--deliver',
        file,
        '--period',
        '2026-11',
        ...more,
      ]);

    // Act
    const once = await deliver(first);
    await deliver(second);
    const twice = await (await connect()).listExportFiles();
    await deliver(third, '--replace');
    const session = await connect();
    const replaced = await session.listExportFiles();

    // Assess
    expect(once.aws.delivered).toEqual({
      key: 'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.csv.gz',
      manifest: 'cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json',
      files: ['cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.csv.gz'],
    });
    expect(twice).toEqual([
      {
        key: 'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.csv.gz',
        etag: md5('first file'),
        size: 10,
        billingPeriod: '2026-11',
      },
      {
        key: 'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00002.csv.gz',
        etag: md5('second file'),
        size: 11,
        billingPeriod: '2026-11',
      },
    ]);
    expect(replaced).toEqual([
      {
        key: 'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.parquet',
        etag: md5('third file'),
        size: 10,
        billingPeriod: '2026-11',
      },
    ]);
    expect(await bytesOf(session, replaced[0] as (typeof replaced)[number])).toBe('third file');
    const random = session.openExportFile(replaced[0] as (typeof replaced)[number]).random;
    expect(Buffer.from(await random.slice(6, 10)).toString('utf8')).toBe('file');
  });

  it('refuses a period that is not a month', async () => {
    // Act
    const badPeriod = await runAdmin(server.dir, [
      'simulate-cloud',
      'aws',
      '--account',
      accountId,
      '--deliver',
      join(files, 'first.csv.gz'),
      '--period',
      '2026-13',
    ]);

    // Assess
    expect(badPeriod.exitCode).not.toBe(0);
    expect(badPeriod.stderr).toContain('--period must be a month, YYYY-MM');
  });
});

describe('simulate-cloud aws --commitments', () => {
  it('sets the commitments the account owns from a commitments CSV, answered while in force', async () => {
    // Prepare
    const csv = join(files, 'commitments.csv');
    await writeFile(
      csv,
      [
        'provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end',
        `aws,${accountId},us-east-1,standard_ris,m5.large,4,0,0,0.062,2026-01-01,2027-01-01,`,
        `aws,${accountId},,compute_plans,,0,1.5,0,1.5,2026-06-01,2029-06-01,`,
        `aws,${accountId},us-east-1,standard_ris,m5.large,1,0,0,0.062,2020-01-01,2021-01-01,`,
      ].join('\n'),
    );

    // Act
    await admin(server.dir, ['simulate-cloud', 'aws', '--account', accountId, '--commitments', csv]);
    const owned = await (await connect()).ownedCommitments();

    // Assess: the reservation that ended in 2021 is not answered.
    expect(
      owned.map((commitment) => [commitment.contractType, commitment.quantity, commitment.hourlyCommitment]),
    ).toEqual([
      ['standard_ris', 4, 0],
      ['compute_plans', 0, 1.5],
    ]);
  });

  it('refuses rows of another provider and an invalid file, naming why', async () => {
    // Prepare
    const azure = join(files, 'azure.csv');
    await writeFile(
      azure,
      'provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end\nazure,sub,westeurope,vm,Standard_D4s_v5,1,0,0,0.1,2026-01-01,2027-01-01,\n',
    );

    // Act
    const run = await runAdmin(server.dir, [
      'simulate-cloud',
      'aws',
      '--account',
      accountId,
      '--commitments',
      azure,
    ]);

    // Assess
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain('has azure rows');
  });
});
