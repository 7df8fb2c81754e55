/**
 * `npm run catalog:pack` (bin/pack-catalog.ts) run for real, in a copy of the repository's source so
 * the checkout's packed copy is never touched: it writes exactly the committed packed copy from
 * the committed data, and refuses invalid data, leaving the packed copy as it was.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectText, repositoryRoot } from '../support/entry-point-process';

const packedCopy = 'shared/domain/catalog/data/packed-catalog.ts';
const ec2File = 'shared/domain/catalog/data/aws-ec2-reserved-instances.json';

let checkout: string;

beforeEach(() => {
  checkout = mkdtempSync(join(tmpdir(), 'pack-catalog-'));
  for (const path of ['shared', 'bin', 'package.json', 'tsconfig.json']) {
    cpSync(join(repositoryRoot, path), join(checkout, path), { recursive: true });
  }
  symlinkSync(join(repositoryRoot, 'node_modules'), join(checkout, 'node_modules'), 'dir');
});

afterEach(() => {
  rmSync(checkout, { recursive: true, force: true });
});

/** Runs the pack script in the copy, as `npm run catalog:pack` does, and answers how it ended. */
function pack(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/pack-catalog.ts'], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = collectText(child.stderr);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: stderr() }));
  });
}

const readCopy = (path: string) => readFileSync(join(checkout, path), 'utf8');

describe('npm run catalog:pack', () => {
  it('writes, from the committed data, exactly the committed packed copy', async () => {
    // Prepare
    writeFileSync(join(checkout, packedCopy), '// stale\n');

    // Act
    const { code } = await pack();

    // Assess
    expect(code).toBe(0);
    expect(readCopy(packedCopy)).toBe(readFileSync(join(repositoryRoot, packedCopy), 'utf8'));
  });

  it('refuses invalid data, naming the file, and puts the previous packed copy back', async () => {
    // Prepare
    const before = readCopy(packedCopy);
    const data = JSON.parse(readCopy(ec2File)) as { provider: string };
    data.provider = 'not-a-provider';
    writeFileSync(join(checkout, ec2File), JSON.stringify(data));

    // Act
    const { code, stderr } = await pack();

    // Assess
    expect(code).not.toBe(0);
    expect(stderr).toContain('packed-catalog.ts is left as it was');
    expect(stderr).toContain('aws-ec2-reserved-instances.json');
    expect(readCopy(packedCopy)).toBe(before);
  });
});
