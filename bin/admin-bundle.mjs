// The operator CLI runs as a JavaScript bundle of bin/admin.ts (docs/benchmarks.md, "Operator
// CLI"): transpiling some 400 TypeScript files with tsx on every call cost seconds before the
// command ran. The bundle is built by esbuild on the first call after a source changed, into
// .build/admin/<stamp>/ (gitignored), where <stamp> names the sources' state: a clean clone builds
// it once, later calls only read the sources' dates. Packages stay external (node_modules), and
// every dynamic import() is a chunk of its own, loaded when a command needs it.
//
// Plain JavaScript: this file must run before anything can transpile TypeScript.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The folders whose TypeScript the CLI bundles (it imports nothing from functions/ or lib/). */
const sourceFolders = ['bin', 'local', 'shared'];
const bundleFolder = join(root, '.build', 'admin');
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
async function build(target) {
  const { build: esbuild } = await import('esbuild');
  const scratch = `${target}.${process.pid}`;
  await esbuild({
    absWorkingDir: root,
    entryPoints: { admin: 'bin/admin.ts' },
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
async function removeOldBundles(current) {
  const now = Date.now();
  for (const name of await readdir(bundleFolder)) {
    if (name === current) continue;
    const path = join(bundleFolder, name);
    const { mtimeMs } = await stat(path);
    if (now - mtimeMs > staleBundleMs) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The bundle's entry file for the sources as they are now, built if they changed since the last
 * call.
 */
export async function ensureAdminBundle() {
  const stamp = await sourceStamp();
  const target = join(bundleFolder, stamp);
  if (!(await exists(join(target, 'complete')))) {
    await mkdir(bundleFolder, { recursive: true });
    await build(target);
    await removeOldBundles(stamp).catch(() => undefined);
  }
  return join(target, 'admin.mjs');
}
