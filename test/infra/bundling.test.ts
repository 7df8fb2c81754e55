import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceFunction } from '../../lib/constructs/service-function';
import { projectRoot } from '../../lib/project-paths';
import { cdkJsonContext } from './service-app';

describe('function bundling', () => {
  // Prepare: one function really bundled by esbuild, from a fixture entry.
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-bundling-'));
  const app = new App({ context: cdkJsonContext(), outdir });
  const stack = new Stack(app, 'Bundling');
  new ServiceFunction(stack, 'Bundled', {
    entry: join(projectRoot, 'test/fixtures/bundled-function/handler.ts'),
    description: 'Bundling fixture',
    serviceName: 'bundling-test',
    environment: {},
  });
  app.synth();
  const assetDirs = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
  const bundleDir = join(outdir, assetDirs[0] ?? 'no-asset');
  const bundle = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('emits a minified ES module that defines `require` for CommonJS code first', () => {
    // Prepare
    const banner =
      "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

    // Assess
    expect(assetDirs).toHaveLength(1);
    expect(bundle.slice(0, banner.length)).toBe(banner);
    // Minified: the handler's local `client` was renamed.
    expect(/\b(?:const|let|var)\s+client\b/.test(bundle)).toBe(false);
  });

  it('bundles the AWS SDK: the bundle imports Node built-ins only', () => {
    // Act
    const specifiers = [
      ...bundle.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ].map((match) => match[1] ?? match[2]);

    // Assess
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((specifier) => !specifier?.startsWith('node:'))).toEqual([]);
  });

  it('writes a source map without the sources', () => {
    // Act
    const sourceMap = JSON.parse(readFileSync(join(bundleDir, 'index.mjs.map'), 'utf8'));

    // Assess
    expect(bundle).toContain('//# sourceMappingURL=index.mjs.map');
    expect(sourceMap.sources.some((source: string) => source.endsWith('bundled-function/handler.ts'))).toBe(
      true,
    );
    expect(sourceMap.sourcesContent).toBeUndefined();
  });

  it('runs as the Lambda runtime loads it: a plain Node ES module exporting `handler`', () => {
    // Prepare: a separate Node process evaluating an ES module, so no global `require` exists
    // (as in Lambda) and nothing of the test runner's module system helps.
    const bundleUrl = pathToFileURL(join(bundleDir, 'index.mjs')).href;
    const script = `const { handler } = await import(${JSON.stringify(bundleUrl)});
      process.stdout.write(JSON.stringify(await handler()));`;

    // Act
    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
      encoding: 'utf8',
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    const response = JSON.parse(output);

    // Assess
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ region: 'eu-west-1', label: `bundled@${process.platform}` });
  });
});

describe("the authorizer's bundle", () => {
  // Prepare: the authorizer bundled as the API stack bundles it; its source map names every
  // module that made it into the bundle (after tree-shaking).
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-authorizer-'));
  const app = new App({ context: cdkJsonContext(), outdir });
  new ServiceFunction(new Stack(app, 'AuthorizerBundle'), 'Authorizer', {
    entry: join(projectRoot, 'functions/authorizer/handler.ts'),
    description: 'Authorizer bundle',
    serviceName: 'bundling-test',
    environment: {},
  });
  app.synth();
  const assetDir = readdirSync(outdir).find((name) => name.startsWith('asset.')) ?? 'no-asset';
  const sources: string[] = JSON.parse(readFileSync(join(outdir, assetDir, 'index.mjs.map'), 'utf8')).sources;

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries no zod and no KMS client: it runs on every authenticated request (docs/architecture.md, Bundles)', () => {
    // Assess
    expect(sources.some((source) => source.endsWith('functions/authorizer/handler.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('node_modules/jose/'))).toBe(true);
    expect(sources.filter((source) => /node_modules\/(zod|@aws-sdk\/client-kms)\//.test(source))).toEqual([]);
  });
});

describe("the purchase processor's bundles", () => {
  // Prepare: both processor entries bundled as the pipeline bundles them; each source map names
  // the modules that made it into its bundle.
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-processor-'));
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:enable-asset-metadata': true }, outdir });
  const stack = new Stack(app, 'ProcessorBundles');
  const entries = { simulated: 'handler.ts', aws: 'aws-handler.ts' } as const;
  const bundled = (kind: keyof typeof entries) =>
    new ServiceFunction(stack, kind, {
      entry: join(projectRoot, 'functions/purchase-processor', entries[kind]),
      description: `Processor bundle (${kind})`,
      serviceName: 'bundling-test',
      environment: {},
    });
  const functions = { simulated: bundled('simulated'), aws: bundled('aws') };
  app.synth();
  const sourcesOf = (kind: keyof typeof entries): string[] => {
    const assetPath = (functions[kind].function.node.defaultChild as CfnFunction).getMetadata(
      'aws:asset:path',
    );
    return JSON.parse(readFileSync(join(outdir, String(assetPath), 'index.mjs.map'), 'utf8')).sources;
  };
  const purchaseClients = /node_modules\/@aws-sdk\/client-(ec2|rds|savingsplans|sts)\//;

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('leaves every purchase client out of the default (simulated) processor', () => {
    // Act
    const sources = sourcesOf('simulated');

    // Assess
    expect(
      sources.some((source) => source.endsWith('shared/cloud/marketplace/simulated-marketplace.ts')),
    ).toBe(true);
    expect(sources.filter((source) => purchaseClients.test(source))).toEqual([]);
  });

  it('carries the EC2, RDS and Savings Plans clients in the aws processor', () => {
    // Act
    const sources = sourcesOf('aws');

    // Assess
    for (const client of ['client-ec2', 'client-rds', 'client-savingsplans']) {
      expect(sources.some((source) => source.includes(`node_modules/@aws-sdk/${client}/`))).toBe(true);
    }
  });
});
