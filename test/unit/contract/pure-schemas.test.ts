import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../lib/project-paths';

/** Every module of shared/contract/, operations included. */
function contractModules(): string[] {
  const root = join(projectRoot, 'shared/contract');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(root, file));
}

describe('contract schemas in a bundle', () => {
  it('are each marked pure where a module creates it, so a function bundles only those its operations reach', () => {
    // Act: module-level schemas (`named(...)`, `z.lazy(...)`) without the annotation esbuild
    // needs to drop an unused one (shared/contract/schema-registry.ts, named).
    const unmarked = contractModules().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^(export )?const \w+(: [^=]+)? = (named|z\.lazy)\(/.test(line))
        .map((line) => `${relative(projectRoot, file)}: ${line}`),
    );
    const marked = contractModules().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^(export )?const \w+ = \/\* @__PURE__ \*\/ (named|z\.lazy)\(/.test(line)),
    );

    // Assess
    expect(unmarked).toEqual([]);
    expect(marked.length).toBeGreaterThan(50);
  });
});
