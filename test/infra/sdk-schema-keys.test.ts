import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPlainKeys } from '../../lib/bundling/smithy-schema-keys';
import { projectRoot } from '../../lib/project-paths';
import { handler as fromSource } from '../fixtures/sdk-wire/handler';
import { type BundledFixture, bundleFixture } from '../support/bundled-fixture';

describe('the SDK schema keys, written plainly', () => {
  it('rewrites a computed key that names a string constant of the module', () => {
    // Prepare
    const source =
      'const _e = "error";\nconst _xN = "xmlName";\nexport var A$ = [3, n0, "A", { [_e]: `client`, [_xN]: _m }, 0];\n';

    // Act
    const written = withPlainKeys(source);

    // Assess
    expect(written).toContain('{ "error": `client`, "xmlName": _m }');
  });

  it('leaves keys naming anything else, and brackets that are not keys', () => {
    // Prepare
    const source = 'const _e = "error";\nlet _v = "x";\nconst a = { [_v]: 1 }, b = c ? [_e] : d;\n';

    // Act
    const written = withPlainKeys(source);

    // Assess
    expect(written).toBe(source);
  });
});

describe('a function bundled with the plugin', () => {
  // Prepare: the fixture bundled as every function is (lib/bundling/bundle-function.ts).
  const outdir = mkdtempSync(join(tmpdir(), 'sdk-wire-'));
  const entry = join(projectRoot, 'test/fixtures/sdk-wire/handler.ts');
  let schemaBytes = new Map<string, number>();
  let fixture: BundledFixture;

  beforeAll(async () => {
    fixture = await bundleFixture(entry, outdir);
    schemaBytes = new Map(
      [...fixture.inputBytes]
        .filter(([path]) => /@aws-sdk\/client-[^/]+\/dist-es\/schemas\//.test(path))
        .map(([path, bytes]) => [/@aws-sdk\/(client-[^/]+)\//.exec(path)?.[1] ?? path, bytes]),
    );
  });

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('sends the same requests and reads the same answers as the SDK run from source', async () => {
    // Act: the bundle in a fresh Node process, as Lambda loads it; the source in this one.
    const bundled = fixture.runHandler() as Awaited<ReturnType<typeof fromSource>>;
    const expected = await fromSource();

    // Assess: the user agents aside (the SDK's CommonJS build, which runs from source here, names
    // a version one older than its package.json; test/infra/sdk-package-versions.test.ts checks
    // the bundle's).
    const withoutUserAgents = ({ requests, outputs }: typeof expected) => ({
      requests: requests.map(({ userAgent: _, ...request }) => request),
      outputs,
    });
    expect(expected.requests).toHaveLength(4);
    expect(withoutUserAgents(bundled)).toEqual(withoutUserAgents(expected));
    expect(JSON.stringify(expected.outputs)).toContain('438012d3-4052-4cc7-b2e3-8d3372e0e706');
  });

  it('keeps only the schemas of the operations the function calls', () => {
    // Assess: EC2's schema module is 1.3 MB of source, about 530 KB bundled whole.
    expect(schemaBytes.get('client-ec2')).toBeLessThan(40_000);
    expect(schemaBytes.get('client-sesv2')).toBeLessThan(15_000);
    expect(schemaBytes.get('client-api-gateway')).toBeLessThan(15_000);
  });
});
