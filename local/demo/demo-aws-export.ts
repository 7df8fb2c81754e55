import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExistingCommitment, UsageStream } from '../../shared/domain/engine/shapes/model';
import { deliverSimulatedAwsFile, setSimulatedAwsCommitments } from '../simulated-usage-sources';
import { writeCur2Parquet } from './cur2-parquet';
import { billingPeriodsOf, fleetBillingLines } from './fleet-billing-lines';

export interface DemoAwsExport {
  /** The simulated cloud's directory (LOCAL_DIR). */
  readonly dir: string;
  /** The connected account whose export receives the files and whose describe calls answer `commitments`. */
  readonly accountId: string;
  readonly streams: readonly UsageStream[];
  /** The epoch hour of the streams' first usage hour. */
  readonly startHour: number;
  readonly commitments: readonly ExistingCommitment[];
}

/**
 * Puts a synthetic AWS fleet into the simulated account as AWS would (docs/synthetic-usage.md):
 * one CUR 2.0 Parquet file per billing period its window touches, delivered with the layout and
 * manifest `admin simulate-cloud aws --deliver` writes (replacing the period's earlier files), and
 * its owned commitments as the account's describe answers (`--commitments`). Answers the periods.
 */
export async function deliverDemoAwsExport(input: DemoAwsExport): Promise<string[]> {
  const hours = input.streams[0]?.usage.length ?? 0;
  const periods = hours > 0 ? billingPeriodsOf(input.startHour, hours) : [];
  const staging = await mkdtemp(join(tmpdir(), 'demo-cur2-'));
  try {
    for (const period of periods) {
      const file = join(staging, `${period}.snappy.parquet`);
      writeCur2Parquet(file, fleetBillingLines(input.streams, input.startHour, period, input.commitments));
      await deliverSimulatedAwsFile(input.dir, input.accountId, file, period, true);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  await setSimulatedAwsCommitments(input.dir, input.accountId, input.commitments);
  return periods;
}
