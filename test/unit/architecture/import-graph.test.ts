import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseSync } from 'oxc-parser';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../lib/project-paths';

/**
 * The import graph of the source, read from the files themselves (oxc's TypeScript parser finds
 * static imports, type imports, re-exports and dynamic imports), so a new file or folder is
 * checked without being listed anywhere. TypeScript 7's package carries no compiler API to read
 * them with (docs/testing.md).
 */
interface ImportEdge {
  /** The importing file, relative to the project root. */
  readonly from: string;
  /** What it imports: a project file relative to the root, or a package name. */
  readonly to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(projectRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(c|m)?ts$/.test(entry.name) ? [path] : [];
  });
}

/** What a module's import and export declarations name, and its dynamic imports of a literal path. */
function moduleRequests(file: string): { readonly specifiers: string[]; readonly bare: string[] } {
  const text = readFileSync(join(projectRoot, file), 'utf8');
  const { module, errors } = parseSync(file, text);
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0]?.message}`);
  const dynamic = module.dynamicImports
    .map(({ moduleRequest }) => text.slice(moduleRequest.start, moduleRequest.end))
    .flatMap((argument) => /^(['"`])([^'"`$]*)\1$/.exec(argument)?.[2] ?? []);
  const reexported = module.staticExports.flatMap((declaration) =>
    declaration.entries.flatMap((entry) => entry.moduleRequest?.value ?? []),
  );
  return {
    specifiers: [...module.staticImports.map((i) => i.moduleRequest.value), ...reexported, ...dynamic],
    // `import './x'`: a declaration that binds nothing, kept for the module's side effects.
    bare: module.staticImports
      .filter((declaration) => declaration.entries.length === 0)
      .map((declaration) => text.slice(declaration.start, declaration.end)),
  };
}

function importsOf(file: string): ImportEdge[] {
  return [...new Set(moduleRequests(file).specifiers)].map((specifier) => ({
    from: file,
    to: specifier.startsWith('.')
      ? relative(projectRoot, resolve(projectRoot, dirname(file), specifier))
      : specifier,
  }));
}

function topFolder(path: string): string {
  return path.split('/')[0] ?? path;
}

const sharedEdges = sourceFiles('shared').flatMap(importsOf);

/**
 * The files that sit on a circle of imports (a file that imports, through others, itself), each
 * circle as its files in order. Edges name project files without their extension, as imports do.
 */
function circles(edges: readonly ImportEdge[]): string[][] {
  const withoutExtension = (file: string) => file.replace(/\.(c|m)?ts$/, '');
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    const source = withoutExtension(from);
    next.set(source, [...(next.get(source) ?? []), to.replace(/\/index$/, '')]);
  }
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      found.push(path.slice(at));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const imported of next.get(file) ?? []) visit(imported);
    path.pop();
    done.add(file);
  };
  for (const file of next.keys()) visit(file);
  return found;
}

describe('import graph', () => {
  it('finds the imports of the shared code (the check reads real edges)', () => {
    // Assess: a known edge, so an empty or broken reading cannot pass the checks below.
    expect(sharedEdges).toContainEqual({
      from: 'shared/store/store.ts',
      to: 'shared/store/api-keys',
    });
  });

  it('finds a circle of imports where there is one (the check below can fail)', () => {
    // Prepare
    const edges = [
      { from: 'shared/a.ts', to: 'shared/b' },
      { from: 'shared/b.ts', to: 'shared/c' },
      { from: 'shared/c.ts', to: 'shared/a' },
      { from: 'shared/c.ts', to: 'zod' },
    ];

    // Act
    const found = circles(edges);

    // Assess
    expect(found).toEqual([['shared/a', 'shared/b', 'shared/c']]);
  });

  it('has no circle of imports under shared/: every module stands above what it imports', () => {
    // Act
    const found = circles(sharedEdges);

    // Assess
    expect(found).toEqual([]);
  });

  it('has nothing under shared/ import functions/, local/, bin/ or lib/', () => {
    // Act
    const upward = sharedEdges.filter((edge) =>
      ['functions', 'local', 'bin', 'lib'].includes(topFolder(edge.to)),
    );

    // Assess
    expect(upward).toEqual([]);
  });

  it('keeps the domain pure: no adapters (file readers too), use cases, HTTP or runtime, no AWS SDK and no file format library', () => {
    // Act
    const impure = sharedEdges.filter(
      (edge) =>
        edge.from.startsWith('shared/domain/') &&
        (/^shared\/(app|store|exports|http|runtime|auth|queue|cloud)\//.test(edge.to) ||
          /^(@aws-sdk\/|hyparquet|csv-parse)/.test(edge.to)),
    );

    // Assess
    expect(impure).toEqual([]);
  });

  it('has the use cases own their ports: nothing under shared/app imports an adapter or the runtime', () => {
    // Act: the cloud, the store, the queue, HTTP, the runtime and the mail implement or wire the
    // ports of shared/app/ports; a use case that reached one of them would hold an adapter.
    const adapters = sharedEdges.filter(
      (edge) =>
        edge.from.startsWith('shared/app/') &&
        /^shared\/(cloud|store|queue|http|runtime|mail)\//.test(edge.to),
    );

    // Assess
    expect(adapters).toEqual([]);
  });

  it("has the use cases read billing exports through the domain's batches, never a file adapter", () => {
    // Act
    const direct = sharedEdges.filter(
      (edge) => edge.from.startsWith('shared/app/') && edge.to.startsWith('shared/exports/'),
    );

    // Assess
    expect(direct).toEqual([]);
  });

  it('has the contract import no use case: the use cases read the contract, never the reverse', () => {
    // Act
    const upward = sharedEdges.filter(
      (edge) => edge.from.startsWith('shared/contract/') && edge.to.startsWith('shared/app/'),
    );

    // Assess
    expect(upward).toEqual([]);
  });

  it('imports no module of the production path for its side effects alone', () => {
    // package.json declares `"sideEffects": false` so esbuild leaves a module out of a Lambda
    // bundle when none of its exports is used; a module imported only to run its top-level code
    // would silently vanish from the bundles (tests and the local runtime run unbundled).
    // Prepare
    const files = [...sourceFiles('functions'), ...sourceFiles('shared')];

    // Act
    const bare = files.flatMap((file) =>
      moduleRequests(file).bare.map((statement) => `${file}: ${statement}`),
    );

    // Assess
    expect(bare).toEqual([]);
  });

  it('has the production path import nothing of the local runtime', () => {
    // Prepare
    const productionEdges = [...sourceFiles('functions'), ...sourceFiles('shared')].flatMap(importsOf);

    // Act
    const local = productionEdges.filter((edge) => topFolder(edge.to) === 'local' || edge.to === 'dynalite');

    // Assess
    expect(local).toEqual([]);
  });
});
