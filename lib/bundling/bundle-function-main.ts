import { bundleFunction } from './bundle-function';

/**
 * `node --import tsx lib/bundling/bundle-function-main.ts <entry> <outdir>`: ServiceFunction's
 * local bundling runs this in a child process, since CDK asset bundling is synchronous and esbuild
 * runs plugins only in its asynchronous API.
 */
const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) {
  process.stderr.write('usage: bundle-function-main <entry.ts> <outdir>\n');
  process.exit(2);
}
await bundleFunction(entry, outdir);
