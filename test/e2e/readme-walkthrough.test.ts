import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectText, repositoryRoot } from '../support/entry-point-process';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { outputByBlock, readmeWalkthrough, walkthroughScript } from '../support/readme-blocks';

/**
 * README.md's walk-through, pasted block after block into one bash as a newcomer does after a
 * fresh `npm start`: the blocks are read from README.md itself, so a README that no longer works
 * fails here. It runs in a copy of the checkout (every entry linked, `.local` its own), so the
 * blocks' relative paths (`.local/credentials.json`, `.local/outbox/`, `test/fixtures/...`) and
 * `npm run admin` are as the README has them, and the developer's own `.local` is never touched.
 */

let checkout: string;
let server: LocalServer;

beforeAll(async () => {
  checkout = await mkdtemp(join(tmpdir(), 'readme-walkthrough-'));
  for (const entry of await readdir(repositoryRoot)) {
    if (entry === '.local' || entry === '.git') continue;
    await symlink(join(repositoryRoot, entry), join(checkout, entry));
  }
  server = await startLocalServer({ dir: join(checkout, '.local') });
});

afterAll(async () => {
  await server?.stop();
  await rm(checkout, { recursive: true, force: true });
});

interface Walked {
  readonly exitCode: number | null;
  readonly blocks: readonly string[];
  readonly outputs: readonly string[];
  readonly stderr: string;
}

async function walk(): Promise<Walked> {
  const blocks = await readmeWalkthrough();
  const { TABLE_NAME: _deployed, LOCAL_DIR: _dir, PORT: _port, ...env } = process.env;
  const bash = spawn('bash', ['-e', '-o', 'pipefail', '-c', walkthroughScript(blocks)], {
    cwd: checkout,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = collectText(bash.stdout);
  const stderr = collectText(bash.stderr);
  const [exitCode] = (await once(bash, 'close')) as [number | null];
  return { exitCode, blocks, outputs: outputByBlock(stdout(), blocks.length), stderr: stderr() };
}

describe("README.md's walk-through", () => {
  it('runs every block in order, each printing what it says and no error', async () => {
    // Act
    const walked = await walk();

    // Assess
    expect(walked.exitCode, walked.stderr).toBe(0);
    expect(walked.blocks.length).toBeGreaterThanOrEqual(5);
    for (const [index, output] of walked.outputs.entries()) {
      expect(output.trim(), `block ${index} printed nothing`).not.toBe('');
      expect(output, `block ${index} printed an error answer`).not.toMatch(/"code":\s*[45]\d\d/);
    }
    expect(walked.stderr).not.toMatch(/jq: error|parse error|^admin: |\n\s+at /m);
    const oauth = walked.outputs[walked.blocks.findIndex((block) => block.includes('/oauth/authorize'))];
    expect(oauth?.match(/"token_type": "Bearer"/g)).toHaveLength(2);
    // The Bearer call answers the recommended plan: the walk-through has not bought it yet.
    expect(oauth).toMatch(/\{\s*"id": "[^"]+",\s*"name": "Recommended"\s*\}\s*$/);
    const buying = walked.outputs[walked.blocks.findIndex((block) => block.includes('/apply'))];
    expect(buying).toMatch(/"status": "completed"/);
  });
});
