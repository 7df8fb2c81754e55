/**
 * The operator CLI benchmark, `npm run bench:admin` (docs/benchmarks.md, "Operator CLI"): the
 * README's admin commands as an operator runs them, each a process of its own, on the store of a
 * fresh `npm start` (its demo seeded, the server running in this process, as the README has it).
 * First the first call after a source change (the bundle is built), and the same command
 * the old way (tsx transpiling bin/admin.ts) for reference; then each command a few times, its
 * median wall time and CPU time (user and system, the process's own: what the machine's other
 * work does not inflate). The load average is printed beside the figures: the machine's other
 * work counts in every wall time.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Later calls of each command. */
const runs = Number(process.env.RUNS ?? 5);
/** The bound the issue sets for a command on one org (docs/benchmarks.md). */
const boundMs = 1_500;

interface Timed {
  readonly ms: number;
  readonly cpuMs: number;
  readonly stdout: string;
}

/** Loaded before the entry point: the process prints its own CPU time as its last stderr line. */
const reportCpu = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu-us '+(u.user+u.system)+'\\n')})`;

async function timed(argv: readonly string[], dir: string): Promise<Timed> {
  const { TABLE_NAME: _deployed, ...env } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', reportCpu, ...argv], {
    cwd: root,
    env: { ...env, LOCAL_DIR: dir, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  const ms = performance.now() - started;
  const stderr = err.join('');
  if (code !== 0) throw new Error(`${argv.join(' ')} exited with ${code}:\n${stderr}`);
  const cpu = /cpu-us (\d+)\n$/.exec(stderr);
  return { ms, cpuMs: Number(cpu?.[1]) / 1000, stdout: out.join('') };
}

const admin = (args: readonly string[], dir: string) => timed(['bin/run-admin.mjs', ...args], dir);

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

function describe(name: string, calls: readonly Timed[]): string {
  const wall = median(calls.map((call) => call.ms));
  const cpu = median(calls.map((call) => call.cpuMs));
  const mark = wall <= boundMs ? 'within' : 'OVER';
  return `${name.padEnd(28)} wall ${wall.toFixed(0).padStart(6)} ms  cpu ${cpu.toFixed(0).padStart(6)} ms  ${mark} ${boundMs} ms`;
}

async function main(): Promise<void> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { startLocalApi } = await import('../../local/local-api');
  const { readLocalConfig } = await import('../../local/local-runtime');
  const dir = await mkdtemp(join(tmpdir(), 'bench-admin-'));
  const account = '444455556666';
  console.log('seeding the demo (npm start)');
  const api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, HOST: '127.0.0.1', PORT: '0' }), {
    seedUsage: true,
  });
  const demo = api.credentials.org.org_id;
  try {
    console.log(`load average at start: ${load()} (1, 5, 15 min)`);
    await rm(join(root, '.build', 'admin'), { recursive: true, force: true });
    console.log(describe('first call (bundle built)', [await admin(['list-orgs'], dir)]));
    const tsx = await timed(['--import', 'tsx', 'bin/admin.ts', 'list-orgs'], dir);
    console.log(describe('the old way (tsx)', [tsx]));

    const partner = JSON.parse((await admin(['create-partner', '--name', 'Bench Partner'], dir)).stdout);
    const org = JSON.parse(
      (await admin(['create-org', '--name', 'Bench Customer', '--partner', partner.org_id], dir)).stdout,
    );
    const commands: readonly (readonly string[])[] = [
      ['list-orgs'],
      ['create-org', '--name', 'Another', '--partner', partner.org_id],
      ['create-key', '--org', org.org_id, '--email', 'ops@bench.example', '--role', 'admin'],
      ['set-org', '--org', org.org_id, '--renewal-horizon-days', '30'],
      ['list-purchases', '--org', demo],
      ['list-oauth-clients'],
      ['dead-letters'],
      [
        'simulate-cloud',
        'aws',
        '--account',
        account,
        '--org',
        org.org_id,
        '--bucket',
        'bench-cur',
        '--prefix',
        'cur',
        '--report-name',
        'hourly',
      ],
      [
        'simulate-cloud',
        'aws',
        '--account',
        account,
        '--deliver',
        'test/fixtures/exports/focus-1.0-sample.csv',
        '--period',
        '2024-09',
        '--replace',
      ],
      ['sync', '--org', demo, '--provider', 'aws'],
      ['sync', '--org', demo],
      ['set-org', '--org', demo, '--renewal-horizon-days', '30'],
    ];
    console.log(`later calls, ${runs} of each (a process each, as \`npm run admin\` without npm):`);
    for (const command of commands) {
      const calls: Timed[] = [];
      for (let run = 0; run < runs; run += 1) {
        // A name of its own each time: an org name is unique.
        const args = command.map((arg) => (arg.startsWith('Another') ? `Another ${run}` : arg));
        calls.push(await admin(args, dir));
      }
      console.log(describe(command.slice(0, 2).join(' '), calls));
    }
    console.log(`load average at end: ${load()} (1, 5, 15 min)`);
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
