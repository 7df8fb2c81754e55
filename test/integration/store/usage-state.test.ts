import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/domain/errors';
import { usageImportSteps, usageOf } from '../../support/stored-usage';
import { useTestTable } from '../../support/test-table';

describe('usage repository', () => {
  const table = useTestTable();
  const { openSession, importUsage } = usageImportSteps(table);

  describe('usage state', () => {
    it('raises the plan inputs version for another input than an import, only when no import session is open', async () => {
      // Prepare
      const orgId = randomUUID();
      const imported = await importUsage(orgId, usageOf('aws', { 'i-1': { '2026-06-10T05:00:00Z': 1 } }));

      // Act
      const raised = await table.store.usage.raisePlanInputsVersion(orgId, 'aws', '2026-08-02T00:00:00.000Z');
      const afterRaise = await table.store.usage.usageState(orgId, 'aws');
      const running = await openSession(orgId, 'aws', '2026-08-03T00:00:00.000Z');
      const duringImport = await table.store.usage.raisePlanInputsVersion(
        orgId,
        'aws',
        '2026-08-03T00:01:00.000Z',
      );
      const withoutInputs = await table.store.usage.raisePlanInputsVersion(
        orgId,
        'gcp',
        '2026-08-03T00:01:00.000Z',
      );

      // Assess
      expect(raised).toBe(true);
      expect(afterRaise?.usageVersion).toBe(imported.usageVersion + 1);
      expect(afterRaise?.importSession).toBeNull();
      expect(duringImport).toBe(false);
      expect((await table.store.usage.usageState(orgId, 'aws'))?.usageVersion).toBe(running.version);
      expect(withoutInputs).toBe(false);
      expect(await table.store.usage.usageState(orgId, 'gcp')).toBeNull();
    });

    it('raises the version when an import session opens and records the session until it ends', async () => {
      // Prepare
      const orgId = randomUUID();
      const first = await importUsage(orgId, usageOf('aws', { 'i-1': { '2026-06-10T05:00:00Z': 1 } }));

      // Act
      const { sessionId, version } = await openSession(orgId, 'aws', '2026-08-02T00:00:00.000Z');
      const running = await table.store.usage.usageState(orgId, 'aws');

      // Assess
      expect(first).toEqual({
        orgId,
        provider: 'aws',
        usageVersion: 1,
        importSession: null,
        version: 2,
        firstHour: '2026-06-10T05:00:00Z',
        lastHour: '2026-06-10T05:00:00Z',
        resources: 1,
        commitments: 0,
        updatedAt: '2026-08-01T00:05:00.000Z',
      });
      expect(version).toBe(2);
      expect(running).toMatchObject({
        usageVersion: 2,
        importSession: {
          sessionId,
          startedAt: '2026-08-02T00:00:00.000Z',
          expiresAt: '2026-08-01T00:05:00.000Z',
          baseVersion: 0,
        },
      });
      expect(await table.store.usage.usageState(randomUUID(), 'aws')).toBeNull();
    });

    it('widens the stored hours to every import’s covered hours and records the last import’s resources', async () => {
      // Prepare
      const orgId = randomUUID();
      await importUsage(
        orgId,
        usageOf('aws', { a: { '2026-06-10T00:00:00Z': 1 }, b: { '2026-06-12T00:00:00Z': 1 } }),
      );

      // Act
      const state = await importUsage(orgId, usageOf('aws', { a: { '2026-06-01T00:00:00Z': 1 } }));

      // Assess
      expect(state).toMatchObject({
        usageVersion: 2,
        firstHour: '2026-06-01T00:00:00Z',
        lastHour: '2026-06-12T00:00:00Z',
        resources: 1,
      });
    });

    it('records a commitment import’s count without touching the stored hours', async () => {
      // Prepare
      const orgId = randomUUID();
      await importUsage(orgId, usageOf('aws', { a: { '2026-06-10T00:00:00Z': 1 } }));
      const { sessionId } = await openSession(orgId, 'aws', '2026-08-03T00:00:00.000Z');

      // Act
      const state = await table.store.usage.finishImport(
        orgId,
        'aws',
        sessionId,
        { kind: 'commitments', commitments: 7 },
        '2026-08-03T00:01:00.000Z',
      );

      // Assess
      expect(state).toMatchObject({
        usageVersion: 2,
        importSession: null,
        firstHour: '2026-06-10T00:00:00Z',
        commitments: 7,
        resources: 1,
      });
    });

    it('lets only the session owning the state renew or end it, leaving the later one open', async () => {
      // Prepare: a second session opened over the first (a take-over).
      const orgId = randomUUID();
      const early = await openSession(orgId, 'aws', '2026-08-01T00:00:00.000Z');
      const late = await openSession(orgId, 'aws', '2026-08-01T00:01:00.000Z');

      // Act
      const renewed = await table.store.usage.renewImport(
        orgId,
        'aws',
        early.sessionId,
        '2026-08-01T00:09:00.000Z',
      );
      const finish = table.store.usage.finishImport(
        orgId,
        'aws',
        early.sessionId,
        { kind: 'commitments', commitments: 0 },
        '2026-08-01T00:02:00.000Z',
      );

      // Assess
      expect(renewed).toBe(false);
      await expect(finish).rejects.toBeInstanceOf(ConflictError);
      expect(await table.store.usage.usageState(orgId, 'aws')).toMatchObject({
        usageVersion: 2,
        importSession: { sessionId: late.sessionId, expiresAt: '2026-08-01T00:05:00.000Z' },
      });
      expect(
        await table.store.usage.renewImport(orgId, 'aws', late.sessionId, '2026-08-01T00:09:00.000Z'),
      ).toBe(true);
    });

    it('opens a session only on the state version it read', async () => {
      // Prepare
      const orgId = randomUUID();
      await openSession(orgId, 'aws');
      const session = {
        sessionId: randomUUID(),
        startedAt: '2026-08-01T00:00:00.000Z',
        expiresAt: '2026-08-01T00:05:00.000Z',
        baseVersion: 0,
      };

      // Act
      const overMissing = await table.store.usage.openImport(orgId, 'aws', session, null);
      const overOld = await table.store.usage.openImport(orgId, 'aws', session, 0);

      // Assess
      expect(overMissing).toBeNull();
      expect(overOld).toBeNull();
      expect((await table.store.usage.usageState(orgId, 'aws'))?.usageVersion).toBe(1);
    });
  });
});
