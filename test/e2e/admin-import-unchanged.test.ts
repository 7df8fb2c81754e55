import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useAdminOrgStore } from '../support/admin-org-store';

const fixtures = join(import.meta.dirname, '../fixtures');
const usageCsv = join(fixtures, 'import/usage.csv');
const focusSample = join(fixtures, 'exports/focus-1.0-sample.csv');

interface ProviderAnswer {
  readonly provider: string;
  readonly usage_version: number;
  readonly changed: boolean;
}

const versions = (answer: { providers: readonly ProviderAnswer[] }) =>
  answer.providers.map(({ provider, usage_version, changed }) => ({ provider, usage_version, changed }));

/** The same providers and versions, each said unchanged. */
const keptFrom = (answer: { providers: readonly ProviderAnswer[] }) =>
  versions(answer).map((each) => ({ ...each, changed: false }));

describe('admin import-usage of a file whose content is stored already', () => {
  const store = useAdminOrgStore('admin-import-unchanged-', 'Unchanged Co');
  let first: { providers: ProviderAnswer[] };
  let firstExport: { providers: ProviderAnswer[] };

  async function importFile(path: string): Promise<{ providers: ProviderAnswer[] }> {
    const run = await store.run('import-usage', '--org', store.orgId, '--file', path);
    expect(run.exitCode, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  }

  beforeAll(async () => {
    first = await importFile(usageCsv);
    firstExport = await importFile(focusSample);
  });

  it('raises no plan-inputs version when the same usage CSV is imported again', async () => {
    // Act
    const again = await importFile(usageCsv);

    // Assess: usage.csv's aws hours are not the export's, so its own versions are compared.
    expect(versions(first).every((each) => each.changed)).toBe(true);
    const awsAfterExport = firstExport.providers.find((each) => each.provider === 'aws')?.usage_version;
    expect(versions(again)).toEqual(
      keptFrom(first).map((each) =>
        each.provider === 'aws' ? { ...each, usage_version: awsAfterExport as number } : each,
      ),
    );
  });

  it('raises no plan-inputs version when the same billing export is imported again', async () => {
    // Act
    const again = await importFile(focusSample);

    // Assess
    expect(versions(firstExport).every((each) => each.changed)).toBe(true);
    expect(versions(again)).toEqual(keptFrom(firstExport));
  });

  it('raises the version of a provider one of whose values changed, and only of it', async () => {
    // Prepare: usage.csv with one aws hour's units changed.
    const dir = await mkdtemp(join(tmpdir(), 'usage-edited-'));
    const edited = join(dir, 'usage.csv');
    const text = await readFile(usageCsv, 'utf8');
    await writeFile(edited, text.replace('Linux,Shared,running,0.5,', 'Linux,Shared,running,0.75,'));

    // Act
    const after = await importFile(edited);
    await rm(dir, { recursive: true, force: true });

    // Assess
    const version = (answer: { providers: ProviderAnswer[] }, provider: string) =>
      answer.providers.find((each) => each.provider === provider)?.usage_version as number;
    expect(versions(after)).toEqual([
      { provider: 'aws', usage_version: version(firstExport, 'aws') + 1, changed: true },
      { provider: 'azure', usage_version: version(first, 'azure'), changed: false },
    ]);
  });
});
