// An entry point under bin/ run as a JavaScript bundle: the operator CLI (bin/admin.ts, see
// docs/benchmarks.md, "Operator CLI"), and the local server the end-to-end tests start
// (bin/serve.ts, docs/testing.md). Transpiling some 400 TypeScript files with tsx on every start
// cost seconds before the entry point ran. A bundle is built by esbuild on the first call after a
// source changed, into .build/<name>/<stamp>/ (gitignored), where <stamp> names the sources'
// state: a clean clone builds it once, later calls only read the sources' dates. Every dynamic
// import() is a chunk of its own, loaded when a command needs it.
//
// Plain JavaScript: this file must run before anything can transpile TypeScript.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The folders whose TypeScript the bundles hold (local/ serves the handlers of functions/; none imports lib/). */
const sourceFolders = ['bin', 'local', 'shared', 'functions'];
/** A bundle another process may still be loading chunks from is left alone this long. */
const staleBundleMs = 60 * 60 * 1000;

/** The sources' state: every file's path, size and modification time, hashed. */
async function sourceStamp() {
  const hash = createHash('sha256');
  const files = [];
  for (const folder of sourceFolders) {
    for (const entry of await readdir(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(ts|mjs)$/.test(entry.name)) files.push(join(entry.parentPath, entry.name));
    }
  }
  files.sort();
  const stats = await Promise.all(files.map((file) => stat(file)));
  for (const [index, file] of files.entries()) {
    hash.update(`${file}\0${stats[index].size}\0${stats[index].mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Builds the bundle into a folder of this process, then moves it in place (another may win). */
async function build(name, entryPoint, target) {
  const { build: esbuild } = await import('esbuild');
  const scratch = `${target}.${process.pid}`;
  await esbuild({
    absWorkingDir: root,
    entryPoints: { [name]: entryPoint },
    outdir: scratch,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages are bundled too (loading hundreds of small CommonJS files cost more than the
    // command); dynalite stays in node_modules, where its database's native binding is found.
    external: ['dynalite'],
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  await writeFile(join(scratch, 'complete'), '');
  try {
    await rename(scratch, target);
  } catch (error) {
    // Another call built the same sources first: theirs is as good.
    if (!(await exists(join(target, 'complete')))) throw error;
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Removes the bundles of older sources, once no call can still be reading them. */
async function removeOldBundles(bundleFolder, current) {
  const now = Date.now();
  for (const name of await readdir(bundleFolder)) {
    if (name === current) continue;
    const path = join(bundleFolder, name);
    const { mtimeMs } = await stat(path);
    if (now - mtimeMs > staleBundleMs) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The entry file of bundle `name` (of `entryPoint`, a path from the repository's root) for the
 * sources as they are now, built if they changed since the last call.
 */
export async function ensureBundle(name, entryPoint) {
  const stamp = await sourceStamp();
  const bundleFolder = join(root, '.build', name);
  const target = join(bundleFolder, stamp);
  if (!(await exists(join(target, 'complete')))) {
    await mkdir(bundleFolder, { recursive: true });
    await build(name, entryPoint, target);
    await removeOldBundles(bundleFolder, stamp).catch(() => undefined);
  }
  return join(target, `${name}.mjs`);
}

/** The operator CLI's bundle (`npm run admin`). */
export const ensureAdminBundle = () => ensureBundle('admin', 'bin/admin.ts');

/** The local server's bundle (what `npm start` runs with tsx), for the tests that start it. */
export const ensureServeBundle = () => ensureBundle('serve', 'bin/serve.ts');
