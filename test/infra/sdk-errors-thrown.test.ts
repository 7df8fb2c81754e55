import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkErrorsThrown } from '../../lib/bundling/sdk-errors-thrown';
import { withRegisteredErrorsOnly } from '../../lib/bundling/smithy-error-registry';
import { projectRoot } from '../../lib/project-paths';
import { handler as fromSource, rdsErrorAnswers, type ThrownError } from '../fixtures/sdk-wire/rds-errors';
import { type BundledFixture, bundleFixture } from '../support/bundled-fixture';

const schemaModule = `import { TypeRegistry } from "@smithy/core/schema";
const _s_registry = new TypeRegistry(_s);
export var RDSServiceException$ = [-3, _s, "RDSServiceException", 0, [], []];
_s_registry.registerError(RDSServiceException$, RDSServiceException);
const n0_registry = new TypeRegistry(n0);
export var AFault$ = [-3, n0, _AF, { "error": _c }, [_m], [0]];
n0_registry.registerError(AFault$, AFault);
export var BFault$ = [-3, n0, _BF, { "error": _c }, [_m], [0]];
n0_registry.registerError(BFault$, BFault);
`;

describe('registering only the errors a function can be thrown', () => {
  it('keeps the listed errors and the base exception, and drops the other registrations', () => {
    // Act
    const written = withRegisteredErrorsOnly(schemaModule, new Set(['BFault']));

    // Assess
    expect(written).toContain('_s_registry.registerError(RDSServiceException$, RDSServiceException);');
    expect(written).toContain('n0_registry.registerError(BFault$, BFault);');
    expect(written).not.toContain('registerError(AFault$');
    // The schema itself stays: esbuild drops it when nothing else uses it.
    expect(written).toContain('export var AFault$');
  });

  it('stops the build when a listed error is not registered by the module', () => {
    // Act and Assess
    expect(() => withRegisteredErrorsOnly(schemaModule, new Set(['BFault', 'CFault']))).toThrow(
      'the SDK schema module registers no error named CFault',
    );
  });
});

/** Every `.ts` file under a folder. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The commands the service's code imports from one SDK client. */
function commandsSent(client: string): string[] {
  const importFrom = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*'${client}'`, 'g');
  const commands = new Set<string>();
  for (const file of sourceFiles(join(projectRoot, 'shared'))) {
    for (const [, names] of readFileSync(file, 'utf8').matchAll(importFrom)) {
      for (const name of names?.match(/\b\w+Command\b/g) ?? []) commands.add(name);
    }
  }
  return [...commands].sort();
}

/** The modeled errors a command's documentation in the SDK says it throws. */
function documentedErrors(client: string, command: string): string[] {
  const declaration = readFileSync(
    join(projectRoot, 'node_modules', client, 'dist-types', 'commands', `${command}.d.ts`),
    'utf8',
  );
  return [...declaration.matchAll(/@throws \{@link (\w+)\} \((?:client|server) fault\)/g)].map(
    ([, name]) => name ?? '',
  );
}

/** What the service's code imports from one SDK client, whatever it is. */
function namesImported(client: string): string[] {
  const importFrom = new RegExp(`import\\s*(?:type\\s*)?\\{([^}]*)\\}\\s*from\\s*'${client}'`, 'g');
  const names = new Set<string>();
  for (const file of sourceFiles(join(projectRoot, 'shared'))) {
    for (const [, imported] of readFileSync(file, 'utf8').matchAll(importFrom)) {
      for (const name of imported?.match(/\b\w+\b/g) ?? []) if (name !== 'type') names.add(name);
    }
  }
  return [...names].sort();
}

describe('the errors kept per client', () => {
  const noneKept = Object.entries(sdkErrorsThrown).filter(([, kept]) => kept.length === 0);

  it.each(noneKept)('are none for %s, whose errors no code imports', (client) => {
    // Act
    const imported = namesImported(client);

    // Assess: its client and commands only; an error class imported would never match.
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((name) => !/(Client|Command)$/.test(name))).toEqual([]);
  });

  it.each(Object.entries(sdkErrorsThrown).filter(([, kept]) => kept.length > 0))(
    'are exactly those the commands sent through %s throw',
    (client, kept) => {
      // Prepare
      const commands = commandsSent(client);

      // Act
      const documented = new Set(commands.flatMap((command) => documentedErrors(client, command)));

      // Assess
      expect(commands.length).toBeGreaterThan(0);
      expect([...kept].sort()).toEqual([...documented].sort());
    },
  );
});

describe('the RDS errors of a function bundled with them registered in part', () => {
  // Prepare: the fixture bundled as every function is (lib/bundling/bundle-function.ts).
  const outdir = mkdtempSync(join(tmpdir(), 'rds-errors-'));
  const entry = join(projectRoot, 'test/fixtures/sdk-wire/rds-errors.ts');
  let rdsBytes = 0;
  let fixture: BundledFixture;

  beforeAll(async () => {
    fixture = await bundleFixture(entry, outdir);
    rdsBytes = [...fixture.inputBytes]
      .filter(([path]) => path.includes('@aws-sdk/client-rds/'))
      .reduce((sum, [, bytes]) => sum + bytes, 0);
  });

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const runBundled = () => fixture.runHandler() as ThrownError[];

  it('throws every error the sent commands are documented to throw as the SDK run from source does', async () => {
    // Act
    const [bundled, expected] = [runBundled(), await fromSource()];

    // Assess
    const kept = new Set(sdkErrorsThrown['@aws-sdk/client-rds']);
    const documented = (thrown: ThrownError[]) => thrown.filter((error) => kept.has(error.name));
    expect(documented(expected).map((error) => error.name)).toEqual([
      'ReservedDBInstanceNotFoundFault',
      'ReservedDBInstancesOfferingNotFoundFault',
      'ReservedDBInstanceAlreadyExistsFault',
      'ReservedDBInstanceQuotaExceededFault',
    ]);
    expect(documented(bundled)).toEqual(documented(expected));
  });

  it('throws any other error with its wire code as the name, and the same fault and message', async () => {
    // Act
    const [bundled, expected] = [runBundled(), await fromSource()];

    // Assess: a fault decides whether a purchase was refused; it is the same on every answer.
    expect(bundled.map(({ action, fault, message }) => ({ action, fault, message }))).toEqual(
      expected.map(({ action, fault, message }) => ({ action, fault, message })),
    );
    expect(bundled.slice(4).map((error) => error.name)).toEqual(
      rdsErrorAnswers.slice(4).map((answer) => answer.code),
    );
    expect(expected.slice(4).map((error) => error.name)).toEqual([
      'DBInstanceNotFoundFault',
      'InvalidDBInstanceStateFault',
      'InvalidParameterCombination',
      'InternalFailure',
    ]);
    expect(bundled.map((error) => error.fault)).toEqual([...Array(7).fill('client'), 'server']);
  });

  it('leaves the other modeled errors out of the bundle', () => {
    // Assess: RDS's client was 72.8 KB in the aws purchase processor, 60 KB of it its 151 errors.
    expect(rdsBytes).toBeGreaterThan(0);
    expect(rdsBytes).toBeLessThan(20_000);
  });
});
