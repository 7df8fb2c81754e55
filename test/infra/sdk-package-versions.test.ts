import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionOnly } from '../../lib/bundling/sdk-package-versions';
import { projectRoot } from '../../lib/project-paths';
import type { handler } from '../fixtures/sdk-wire/handler';
import { type BundledFixture, bundleFixture } from '../support/bundled-fixture';

const sdkFolder = join(projectRoot, 'node_modules/@aws-sdk');

describe("an SDK package's package.json, bundled", () => {
  it('is its version alone', () => {
    // Act
    const written = versionOnly(
      '{"name":"@aws-sdk/client-ec2","version":"3.1169.0","scripts":{"build":"tsc"}}',
    );

    // Assess
    expect(JSON.parse(written)).toEqual({ version: '3.1169.0' });
  });

  it('stops the build when there is no version', () => {
    // Act and Assess
    expect(() => versionOnly('{"name":"@aws-sdk/client-ec2"}')).toThrow('without a version');
  });

  it('is read for nothing but its version anywhere in the SDK', () => {
    // Prepare: every ES module of an @aws-sdk package that imports a package.json.
    const importers = execFileSync(
      'grep',
      ['-rlE', '--include=*.js', 'from "(\\.\\./)+package\\.json"', sdkFolder],
      { encoding: 'utf8' },
    )
      .split('\n')
      .filter((path) => path.includes('/dist-es/'));

    // Act: each import's name, and every use of that name after the import.
    const uses = importers.flatMap((path) => {
      const source = readFileSync(path, 'utf8');
      const imported = /import (\w+) from "(?:\.\.\/)+package\.json";/.exec(source)?.[1];
      if (!imported) return [{ path, use: 'an import other than `import name from`' }];
      const rest = source.replace(/import \w+ from "(?:\.\.\/)+package\.json";/, '');
      return [...rest.matchAll(new RegExp(`\\b${imported}\\b(\\.\\w+)?`, 'g'))].map(([, member]) => ({
        path,
        use: member ?? '(whole)',
      }));
    });

    // Assess
    expect(importers.length).toBeGreaterThan(10);
    expect(uses.length).toBeGreaterThanOrEqual(importers.length);
    expect(uses.filter(({ use }) => use !== '.version')).toEqual([]);
  });
});

describe('the user agent of a bundled client', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'sdk-versions-'));
  let fixture: BundledFixture;

  beforeAll(async () => {
    fixture = await bundleFixture(join(projectRoot, 'test/fixtures/sdk-wire/handler.ts'), outdir);
  });

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("names the version in each client's package.json", () => {
    // Prepare
    const versionOf = (client: string) =>
      (JSON.parse(readFileSync(join(sdkFolder, client, 'package.json'), 'utf8')) as { version: string })
        .version;

    // Act
    const { requests } = fixture.runHandler() as Awaited<ReturnType<typeof handler>>;

    // Assess: EC2 twice, SES v2, API Gateway
    expect(requests.map((request) => request.userAgent)).toEqual(
      ['client-ec2', 'client-ec2', 'client-sesv2', 'client-api-gateway'].map(
        (client) => `aws-sdk-js/${versionOf(client)}`,
      ),
    );
  });
});
