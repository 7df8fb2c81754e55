import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalDynamo, openLocalDynamo } from '../../../local/store/local-dynamo';
import { createLocalDocumentClient } from '../../../local/store/local-dynamo-client';
import { createTableIfMissing } from '../../../shared/store/table-setup';

const tableName = 'local';

function clientOf(engine: LocalDynamo) {
  return createLocalDocumentClient(engine);
}

async function put(engine: LocalDynamo, id: string): Promise<void> {
  const client = clientOf(engine);
  await createTableIfMissing(client, tableName);
  await client.send(
    new PutCommand({ TableName: tableName, Item: { PK: id, SK: id, type: 'probe', version: 1 } }),
  );
  client.destroy();
}

async function get(engine: LocalDynamo, id: string): Promise<unknown> {
  const client = clientOf(engine);
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { PK: id, SK: id } }));
  client.destroy();
  return Item;
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

describe('openLocalDynamo', () => {
  let dir: string;
  let recordPath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-dynamo-'));
    recordPath = join(dir, 'dynalite.json');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts an engine in a new directory and records its endpoint and pid until closed', async () => {
    // Act
    const engine = await openLocalDynamo({ dir });
    const record = JSON.parse(await readFile(recordPath, 'utf8'));
    await engine.close();

    // Assess
    expect(engine.owned).toBe(true);
    expect(engine.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(record).toEqual({ pid: process.pid, endpoint: engine.endpoint });
    await expect(readFile(recordPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('connects a second opening to the running engine, so both see the same data', async () => {
    // Prepare
    const owner = await openLocalDynamo({ dir });
    await put(owner, 'shared');

    // Act
    const guest = await openLocalDynamo({ dir });
    const seen = await get(guest, 'shared');
    await guest.close();
    const afterGuestClosed = await get(owner, 'shared');
    await owner.close();

    // Assess
    expect(guest).toMatchObject({ owned: false, endpoint: owner.endpoint });
    expect(seen).toMatchObject({ PK: 'shared' });
    expect(afterGuestClosed).toMatchObject({ PK: 'shared' });
  });

  it('connects another process to the running engine instead of starting one', async () => {
    // Prepare
    const owner = await openLocalDynamo({ dir });
    const script = join(import.meta.dirname, '../../support/open-local-dynamo-process.ts');

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, dir]);
    const recordAfter = JSON.parse(await readFile(recordPath, 'utf8'));
    await owner.close();

    // Assess
    expect(JSON.parse(stdout)).toEqual({ endpoint: owner.endpoint, owned: false });
    expect(recordAfter).toEqual({ pid: process.pid, endpoint: owner.endpoint });
  });

  it('starts one engine when two openings race for an empty directory', async () => {
    // Act
    const engines = await Promise.all([openLocalDynamo({ dir }), openLocalDynamo({ dir })]);
    for (const engine of engines.filter((engine) => !engine.owned)) await engine.close();
    for (const engine of engines.filter((engine) => engine.owned)) await engine.close();

    // Assess
    expect(engines.map((engine) => engine.owned).sort()).toEqual([false, true]);
    expect(engines[0]?.endpoint).toBe(engines[1]?.endpoint);
  });

  it('keeps the data on disk across a close and a reopen', async () => {
    // Prepare
    const first = await openLocalDynamo({ dir });
    await put(first, 'durable');
    await first.close();

    // Act
    const second = await openLocalDynamo({ dir });
    const item = await get(second, 'durable');
    await second.close();

    // Assess
    expect(item).toEqual({ PK: 'durable', SK: 'durable', type: 'probe', version: 1 });
  });

  it('replaces a record left by a process that is gone', async () => {
    // Prepare
    await writeFile(recordPath, JSON.stringify({ pid: deadPid(), endpoint: 'http://127.0.0.1:9' }));

    // Act
    const engine = await openLocalDynamo({ dir });
    const record = JSON.parse(await readFile(recordPath, 'utf8'));
    await engine.close();

    // Assess
    expect(engine.owned).toBe(true);
    expect(record).toEqual({ pid: process.pid, endpoint: engine.endpoint });
  });

  it('replaces a record naming this process that this process does not hold (an earlier run)', async () => {
    // Prepare
    await writeFile(recordPath, JSON.stringify({ pid: process.pid, endpoint: 'http://127.0.0.1:9' }));

    // Act
    const engine = await openLocalDynamo({ dir });
    await engine.close();

    // Assess
    expect(engine.owned).toBe(true);
    expect(engine.endpoint).not.toBe('http://127.0.0.1:9');
  });

  it('refuses a record file that is not an engine record, naming it', async () => {
    // Prepare
    await writeFile(recordPath, 'not json');

    // Act
    const opening = openLocalDynamo({ dir });

    // Assess
    await expect(opening).rejects.toThrow(recordPath);
  });
});
