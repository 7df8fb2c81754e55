import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, type CfnResource, Stack } from 'aws-cdk-lib';
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

/**
 * The modules bundled into a function as the API stack bundles it: its source map names every
 * module that made it into the bundle (after tree-shaking).
 */
function bundledSources(entry: string): { readonly sources: string[]; readonly remove: () => void } {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-sources-'));
  const app = new App({ context: cdkJsonContext(), outdir });
  new ServiceFunction(new Stack(app, 'SourcesBundle'), 'Bundled', {
    entry: join(projectRoot, entry),
    description: 'Sources of a bundle',
    serviceName: 'bundling-test',
    environment: {},
  });
  app.synth();
  const assetDir = readdirSync(outdir).find((name) => name.startsWith('asset.')) ?? 'no-asset';
  const sources: string[] = JSON.parse(readFileSync(join(outdir, assetDir, 'index.mjs.map'), 'utf8')).sources;
  return { sources, remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

describe("the authorizer's bundle", () => {
  const { sources, remove } = bundledSources('functions/authorizer/handler.ts');

  afterAll(remove);

  it('carries no zod and no KMS client: it runs on every authenticated request (docs/architecture.md, Bundles)', () => {
    // Assess
    expect(sources.some((source) => source.endsWith('functions/authorizer/handler.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('node_modules/jose/'))).toBe(true);
    expect(sources.filter((source) => /node_modules\/(zod|@aws-sdk\/client-kms)\//.test(source))).toEqual([]);
  });
});

describe("the purchase processor's bundles", () => {
  const simulated = bundledSources('functions/purchase-processor/handler.ts');
  const aws = bundledSources('functions/purchase-processor/aws-handler.ts');
  const purchaseClients = /node_modules\/@aws-sdk\/client-(ec2|rds|savingsplans|sts)\//;

  afterAll(() => {
    simulated.remove();
    aws.remove();
  });

  it('leave every purchase client out of the default (simulated) processor', () => {
    // Assess
    expect(
      simulated.sources.some((source) =>
        source.endsWith('shared/cloud/marketplace/simulated-marketplace.ts'),
      ),
    ).toBe(true);
    expect(simulated.sources.filter((source) => purchaseClients.test(source))).toEqual([]);
  });

  it('carry the EC2, RDS and Savings Plans clients in the aws processor', () => {
    // Assess
    for (const client of ['client-ec2', 'client-rds', 'client-savingsplans']) {
      expect(aws.sources.some((source) => source.includes(`node_modules/@aws-sdk/${client}/`))).toBe(true);
    }
  });
});

/** The clients of the AWS checks (STS, Data Exports, CUR, S3, Cost Explorer, EC2). */
const awsVerifierClients =
  /node_modules\/@aws-sdk\/client-(sts|bcm-data-exports|cost-and-usage-report-service|s3|cost-explorer|ec2)\//;

describe("the onboarding functions' bundles (docs/architecture.md, Bundles)", () => {
  const onboarding = bundledSources('functions/onboarding/handler.ts');
  const consent = bundledSources('functions/onboarding-azure-consent/handler.ts');
  const azureVerify = bundledSources('functions/onboarding-azure-verify/handler.ts');
  /** The OpenID Connect sign-in that proves an Azure consent (docs/onboarding.md, Azure consent). */
  const consentSignIn = [
    'shared/cloud/identity/entra-sign-in.ts',
    'node_modules/oauth4webapi/',
    'node_modules/jose/',
  ];

  afterAll(() => {
    onboarding.remove();
    consent.remove();
    azureVerify.remove();
  });

  it("leave every cloud verifier and the consent's sign-in out of the onboarding function", () => {
    // Assess
    expect(onboarding.sources.some((source) => source.endsWith('functions/onboarding/handler.ts'))).toBe(
      true,
    );
    expect(
      onboarding.sources.filter(
        (source) => source.includes('shared/cloud/verifiers/') || awsVerifierClients.test(source),
      ),
    ).toEqual([]);
    // The sign-in is the consent callback's alone (docs/benchmarks.md, Cold start).
    expect(
      onboarding.sources.filter((source) => consentSignIn.some((part) => source.includes(part))),
    ).toEqual([]);
  });

  it("give the consent callback the consent's sign-in, and no cloud verifier", () => {
    // Assess
    for (const part of consentSignIn) {
      expect(
        consent.sources.some((source) => source.includes(part)),
        part,
      ).toBe(true);
    }
    expect(
      consent.sources.filter(
        (source) => source.includes('shared/cloud/verifiers/') || awsVerifierClients.test(source),
      ),
    ).toEqual([]);
  });

  it('give the onboarding function two reads of usage and plans, not their repositories', () => {
    // Assess: the child-org listing asks only whether an org has usage and plans (docs/benchmarks.md, Cold start).
    for (const part of ['shared/store/usage-states.ts', 'shared/store/plan-sets.ts']) {
      expect(
        onboarding.sources.some((source) => source.endsWith(part)),
        part,
      ).toBe(true);
    }
    expect(
      onboarding.sources.filter((source) =>
        /shared\/store\/(usage|plans|caching\/plan-content-cache)\.ts$/.test(source),
      ),
    ).toEqual([]);
  });

  it("give the Azure verification the identity platform's client, and none of the AWS checks' clients", () => {
    // Assess
    expect(azureVerify.sources.some((source) => source.includes('node_modules/oauth4webapi/'))).toBe(true);
    expect(azureVerify.sources.filter((source) => awsVerifierClients.test(source))).toEqual([]);
  });

  it("leave out the schemas of other functions' operations (contract schemas are marked pure)", () => {
    // Assess: #21's paging and #16's company and address fields are the onboarding function's.
    const othersSchemas = /shared\/contract\/(partners|plan-queries)\.ts$/;
    expect(azureVerify.sources.filter((source) => othersSchemas.test(source))).toEqual([]);
    expect(consent.sources.filter((source) => othersSchemas.test(source))).toEqual([]);
  });
});

describe("the OAuth functions' bundles (docs/oauth.md, Functions)", () => {
  const groups = ['oauth-sign-in', 'oauth-token', 'oauth-registration'] as const;
  const bundles = new Map(groups.map((group) => [group, bundledSources(`functions/${group}/handler.ts`)]));
  /** The AWS SDK clients and the OAuth contract modules a bundle carries. */
  const carried = (group: (typeof groups)[number]) =>
    [
      ...new Set(
        (bundles.get(group)?.sources ?? []).flatMap(
          (source) =>
            /node_modules\/@aws-sdk\/(client-[a-z0-9-]+)\//.exec(source)?.[1] ??
            /shared\/contract\/(oauth[a-z-]*)\.ts$/.exec(source)?.[1] ??
            [],
        ),
      ),
    ].sort();

  afterAll(() => {
    for (const bundle of bundles.values()) bundle.remove();
  });

  it('carry each only the AWS client and the request schemas of its own operations', () => {
    // Assess: besides the table's client, SES for the sign-in codes and Secrets Manager for their
    // key, KMS for signing tokens; none carries
    // another's schemas.
    expect(carried('oauth-sign-in')).toEqual([
      'client-dynamodb',
      'client-secrets-manager',
      'client-sesv2',
      'oauth-sign-in',
    ]);
    expect(carried('oauth-token')).toEqual(['client-dynamodb', 'client-kms', 'oauth-tokens']);
    // No API Gateway client in registration: a new client gets no usage-plan key of its own.
    expect(carried('oauth-registration')).toEqual(['client-dynamodb', 'oauth-registration']);
  });
});

describe("the plan-purchases function's bundle", () => {
  const { sources, remove } = bundledSources('functions/plan-purchases/handler.ts');

  afterAll(remove);

  it('reads the usage state alone, not the usage repository with its imports', () => {
    // Assess: applying a plan asks the usage only for the version of the plan inputs.
    expect(sources.some((source) => source.endsWith('shared/store/usage-states.ts'))).toBe(true);
    expect(sources.filter((source) => source.endsWith('shared/store/usage.ts'))).toEqual([]);
  });

  it('carries no catalog: the plan-computation function answers the terms of the offers bought', () => {
    // Assess: the purchase records are priced with them (docs/purchases.md, Pricing the records).
    expect(sources.some((source) => source.endsWith('shared/runtime/lambda-purchase-terms.ts'))).toBe(true);
    expect(
      sources.filter((source) => /shared\/(domain\/catalog\/|app\/stored-catalog\.ts$)/.test(source)),
    ).toEqual([]);
  });

  it('carries the Lambda client without its modeled errors, which no caller tells apart', () => {
    // Assess: it invokes the plan computation (lib/bundling/sdk-errors-thrown.ts).
    expect(sources.some((source) => source.includes('node_modules/@aws-sdk/client-lambda/'))).toBe(true);
    expect(sources.filter((source) => /client-lambda\/dist-es\/models\/errors\.js$/.test(source))).toEqual(
      [],
    );
  });
});

describe("the plan-coverage and commitments-chart functions' bundles", () => {
  const coverage = bundledSources('functions/plan-coverage/handler.ts');
  const chart = bundledSources('functions/commitments-chart/handler.ts');
  const carries = (sources: string[], part: string) => sources.some((source) => source.endsWith(part));

  afterAll(() => {
    coverage.remove();
    chart.remove();
  });

  it('read plans, usage, commitments and purchases without their repositories and writes', () => {
    // Assess: both only read (docs/benchmarks.md, Cold start).
    for (const part of ['plan-reads', 'usage-series-reads', 'commitment-reads', 'purchase-reads']) {
      expect(carries(coverage.sources, `shared/store/${part}.ts`), part).toBe(true);
    }
    for (const { sources } of [coverage, chart]) {
      expect(
        sources.filter((source) =>
          /shared\/store\/(plans|plan-scheduling|usage|commitments|purchases)\.ts$/.test(source),
        ),
      ).toEqual([]);
    }
  });

  it("carry each its own operation's code and not the other's", () => {
    // Assess: resource matches without the chart, the chart without matches or plans.
    expect(carries(coverage.sources, 'shared/domain/engine/matches/window-matches.ts')).toBe(true);
    expect(coverage.sources.filter((source) => /shared\/domain\/(engine\/)?chart\//.test(source))).toEqual(
      [],
    );
    expect(carries(chart.sources, 'shared/domain/engine/chart/chart.ts')).toBe(true);
    expect(
      chart.sources.filter((source) =>
        /shared\/domain\/engine\/matches\/|shared\/store\/plan-reads\.ts$|shared\/contract\/resource-matches\.ts$/.test(
          source,
        ),
      ),
    ).toEqual([]);
  });
});

describe('bundles of several functions in one app', () => {
  // Prepare: two functions with different entries, synthesized together (the CDK caches bundles
  // by their options, so the entry must be part of them).
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-two-functions-'));
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:enable-asset-metadata': true }, outdir });
  const stack = new Stack(app, 'TwoFunctions');
  const entries = ['test/fixtures/bundled-function/handler.ts', 'functions/openapi/handler.ts'];
  const functions = entries.map(
    (entry, index) =>
      new ServiceFunction(stack, `Function${index}`, {
        entry: join(projectRoot, entry),
        description: 'Bundle of its own',
        serviceName: 'bundling-test',
        environment: {},
      }),
  );
  app.synth();

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('gives each function the bundle of its own entry', () => {
    // Act
    const sources = functions.map((serviceFunction) => {
      const assetPath = (serviceFunction.function.node.defaultChild as CfnResource).getMetadata(
        'aws:asset:path',
      );
      return JSON.parse(readFileSync(join(outdir, String(assetPath), 'index.mjs.map'), 'utf8'))
        .sources as string[];
    });

    // Assess
    entries.forEach((entry, index) => {
      expect(sources[index]?.some((source) => source.endsWith(entry))).toBe(true);
    });
  });
});
