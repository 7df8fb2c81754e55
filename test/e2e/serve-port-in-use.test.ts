import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectText, spawnEntryPoint } from '../support/entry-point-process';

/** `npm start` (bin/serve.ts) on a port something else listens on, as a newcomer meets it. */

let occupied: Server;
let port: number;
let dir: string;

beforeAll(async () => {
  occupied = createServer();
  occupied.listen(0, '127.0.0.1');
  await once(occupied, 'listening');
  port = (occupied.address() as AddressInfo).port;
  dir = await mkdtemp(join(tmpdir(), 'serve-port-in-use-'));
});

afterAll(async () => {
  occupied?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a port in use', () => {
  it('prints one line naming PORT and how to pick another, no stack trace, and exits 1', async () => {
    // Act
    const child = spawnEntryPoint('bin/serve.ts', ['--orgs-only'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOCAL_DIR: dir,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    const stdout = collectText(child.stdout);
    const stderr = collectText(child.stderr);
    const [exitCode] = (await once(child, 'close')) as [number | null];

    // Assess
    expect(exitCode).toBe(1);
    expect(stdout()).toBe('');
    expect(stderr().trimEnd().split('\n')).toEqual([
      `npm start: PORT ${port} on 127.0.0.1 is in use: stop what listens there, or pick another port, e.g. PORT=${port + 1} npm start (PORT=0 picks a free one)`,
    ]);
  });
});
