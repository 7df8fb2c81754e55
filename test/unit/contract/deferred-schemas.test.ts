import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * Contract schemas are built on first use (docs/architecture.md, Bundles and cold start): a
 * function's cold start pays for none of them, and its first request builds only those of the
 * operation it serves. Checked in a fresh process, as a Lambda loads its bundle.
 */
describe('contract schemas', () => {
  it('are not built when the operation list loads, only when a request is parsed', async () => {
    // Act
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'test/support/contract-schemas-at-load.ts',
    ]);
    const { atLoad, onFirstParse } = JSON.parse(stdout) as { atLoad: string[]; onFirstParse: string[] };

    // Assess: only the deferring wrappers exist after loading...
    expect(atLoad.length).toBeGreaterThan(0);
    expect(atLoad.filter((type) => type !== 'lazy')).toEqual([]);
    // ...and parsing builds the query's object and its fields (proving every build is counted).
    expect(onFirstParse).toContain('object');
    expect(onFirstParse.length).toBeGreaterThan(10);
  });
});
