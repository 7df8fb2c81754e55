import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { localDynamoCredentials } from './local-dynamo-client';

/**
 * The local DynamoDB engine (dynalite). `npm start` and the admin CLI must see the same data at
 * the same time, but LevelDB lets one process open a directory: the first process to open
 * `<dir>` runs the engine (dynalite's own HTTP server on a free loopback port) and records its
 * endpoint in `<dir>/dynalite.json`; later ones connect to that endpoint. The record is created atomically (hard link), so two
 * processes starting at once cannot both run an engine on the same directory.
 */

export interface LocalDynamo {
  readonly endpoint: string;
  /** Whether this process runs the engine (and stops it on close) or only connects to it. */
  readonly owned: boolean;
  close(): Promise<void>;
}

export interface MemoryDynamo {
  readonly endpoint: string;
  close(): Promise<void>;
}

interface EngineRecord {
  readonly pid: number;
  /** Null while the owner is still starting its engine. */
  readonly endpoint: string | null;
}

const RECORD_FILE = 'dynalite.json';
/** How long to wait for an engine another process is starting, or for one that does not answer. */
const OPEN_TIMEOUT_MS = 5_000;
const RETRY_DELAY_MS = 100;
const ANSWER_TIMEOUT_MS = 1_000;
/** Tables are ACTIVE as soon as CreateTable answers (dynalite defaults to 500 ms of CREATING). */
const INSTANT_TABLE_CHANGES = { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 };

/** Record files this process holds: a record naming this pid but not held here is stale. */
const heldRecords = new Set<string>();

export async function openLocalDynamo(options: { dir: string }): Promise<LocalDynamo> {
  await mkdir(options.dir, { recursive: true });
  const recordPath = resolve(options.dir, RECORD_FILE);
  const giveUpAt = Date.now() + OPEN_TIMEOUT_MS;
  for (;;) {
    const record = await readRecord(recordPath);
    if (!record) {
      const claim: EngineRecord = { pid: process.pid, endpoint: null };
      if (await claimRecord(recordPath, claim)) return startEngine(options.dir, recordPath, claim);
    } else if (isStale(record, recordPath)) {
      await removeRecord(recordPath, record);
      continue;
    } else if (record.endpoint && (await answers(record.endpoint))) {
      return { endpoint: record.endpoint, owned: false, close: async () => {} };
    }
    if (Date.now() >= giveUpAt) {
      throw new Error(
        `The local DynamoDB engine named in ${recordPath} does not answer. ` +
          'Stop the process it names, or delete the file if that process is no dynalite engine.',
      );
    }
    await sleep(RETRY_DELAY_MS);
  }
}

/** An in-memory engine on a free port, for tests. */
export async function startMemoryDynamo(): Promise<MemoryDynamo> {
  const server = dynalite(INSTANT_TABLE_CHANGES);
  const endpoint = await listen(server);
  return {
    endpoint,
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  };
}

async function startEngine(dir: string, recordPath: string, claim: EngineRecord): Promise<LocalDynamo> {
  heldRecords.add(recordPath);
  try {
    const server = dynalite({ path: join(dir, 'db'), ...INSTANT_TABLE_CHANGES });
    const endpoint = await listen(server);
    const record: EngineRecord = { pid: process.pid, endpoint };
    await writeRecord(recordPath, record);
    return {
      endpoint,
      owned: true,
      async close() {
        await removeRecord(recordPath, record);
        heldRecords.delete(recordPath);
        server.closeAllConnections();
        await closeServer(server);
      },
    };
  } catch (error) {
    await removeRecord(recordPath, claim);
    heldRecords.delete(recordPath);
    throw error;
  }
}

function isStale(record: EngineRecord, recordPath: string): boolean {
  if (record.pid === process.pid) return !heldRecords.has(recordPath);
  try {
    process.kill(record.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function answers(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: localDynamoCredentials,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: ANSWER_TIMEOUT_MS, requestTimeout: ANSWER_TIMEOUT_MS },
  });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

async function readRecord(recordPath: string): Promise<EngineRecord | null> {
  let text: string;
  try {
    text = await readFile(recordPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const record = parseRecord(text);
  if (!record) throw new Error(`${recordPath} is not a dynalite engine record; delete it`);
  return record;
}

function parseRecord(text: string): EngineRecord | null {
  try {
    const record = JSON.parse(text) as EngineRecord;
    return Number.isInteger(record.pid) ? record : null;
  } catch {
    return null;
  }
}

/** Creates the record file unless it exists: true when this process may start the engine. */
async function claimRecord(recordPath: string, claim: EngineRecord): Promise<boolean> {
  const draft = await writeDraft(recordPath, claim);
  try {
    await link(draft, recordPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(draft);
  }
}

async function writeRecord(recordPath: string, record: EngineRecord): Promise<void> {
  await rename(await writeDraft(recordPath, record), recordPath);
}

/** Writes the record beside its final place, so readers never see it half-written. */
async function writeDraft(recordPath: string, record: EngineRecord): Promise<string> {
  const draft = `${recordPath}.${randomUUID()}`;
  await writeFile(draft, JSON.stringify(record));
  return draft;
}

/** Removes the record if it is still `expected` (another process may have replaced a stale one). */
async function removeRecord(recordPath: string, expected: EngineRecord): Promise<void> {
  const current = await readRecord(recordPath);
  if (current?.pid !== expected.pid || current.endpoint !== expected.endpoint) return;
  try {
    await unlink(recordPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

/** Stops the server; dynalite closes its database with it. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
