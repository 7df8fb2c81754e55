import { describe, expect, it } from 'vitest';
import type { UsageSyncMessage } from '../../../shared/app/ports/usage-sync';
import {
  parseUsageSyncMessage,
  UsageSyncMessageFormatError,
  usageSyncMessageBody,
} from '../../../shared/queue/usage-sync-queue';

const part: UsageSyncMessage = {
  kind: 'part',
  orgId: 'org-1',
  provider: 'aws',
  runId: 'run-1',
  part: {
    key: 'cur/a.parquet',
    etag: 'e1',
    size: 10,
    billingPeriod: '2026-06',
    rowGroups: { first: 2, end: 4 },
  },
};

describe('sync queue messages', () => {
  it('read back every kind as sent', () => {
    const messages: UsageSyncMessage[] = [
      { kind: 'sync', orgId: 'org-1', provider: 'aws', runId: 'run-1' },
      part,
      { ...part, part: { ...part.part, rowGroups: null } },
      { kind: 'finish', orgId: 'org-1', provider: 'aws', runId: 'run-1' },
    ];
    for (const message of messages)
      expect(parseUsageSyncMessage(usageSyncMessageBody(message))).toEqual(message);
  });

  it('refuses what the sync never sends', () => {
    for (const body of [
      'not json',
      '{}',
      JSON.stringify({ kind: 'sync', orgId: 'org-1', provider: 'oracle', runId: 'r' }),
      JSON.stringify({ kind: 'drop', orgId: 'org-1', provider: 'aws', runId: 'r' }),
      JSON.stringify({ ...part, part: { ...part.part, etag: '' } }),
      JSON.stringify({ ...part, part: { ...part.part, rowGroups: { first: -1, end: 2 } } }),
    ]) {
      expect(() => parseUsageSyncMessage(body)).toThrow(UsageSyncMessageFormatError);
    }
  });
});
