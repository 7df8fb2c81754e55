import { describe, expect, it } from 'vitest';
import { usageCoverage } from '../../../shared/app/usage-coverage';
import { useExportImportStore } from '../../support/export-import-store';
import { focusCsv, focusSampleRecords } from '../../support/focus-sample';

const store = useExportImportStore();

describe("an org's usage without an offer", () => {
  it('lists the resources no offer covers, with their hours and on-demand cost, and not those one does', async () => {
    // Prepare: the FOCUS sample's September: c5.2xlarge in us-east-1 (the catalog has c5 offers
    // there) and g3.4xlarge (no offer for it anywhere), all within the plans' window.
    const orgId = await store.newOrg();
    const records = focusSampleRecords();
    await store.importFile(orgId, 'sample.csv', focusCsv(records));
    const g3Rows = records.filter((record) =>
      (record.ChargeDescription ?? '').includes(' g3.4xlarge Instance Hour'),
    );

    // Act
    const [aws] = await usageCoverage(store.ctx, orgId);

    // Assess
    expect(aws?.provider).toBe('aws');
    const listed = aws?.withoutOffer ?? [];
    expect(
      listed.find((usage) => usage.instanceType === 'c5.2xlarge' && usage.region === 'us-east-1'),
    ).toBeUndefined();
    const g3 = listed.filter((usage) => usage.instanceType === 'g3.4xlarge');
    const hours = g3Rows.reduce((sum, record) => sum + Number(record.ConsumedQuantity), 0);
    expect(g3.reduce((sum, usage) => sum + usage.hours, 0)).toBeCloseTo(hours, 9);
    const cost = g3Rows.reduce(
      (sum, record) => sum + Number(record.ConsumedQuantity) * Number(record.ListUnitPrice),
      0,
    );
    expect(g3.reduce((sum, usage) => sum + usage.ondemandCost, 0)).toBeCloseTo(cost, 9);
    expect(g3Rows.length).toBeGreaterThan(0);
  });
});
