import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { sdkErrorsThrown } from './sdk-errors-thrown';
import { sdkPackageVersions } from './sdk-package-versions';
import { sdkSchemaModules } from './sdk-schema-modules';

/**
 * How every Lambda function of the service is bundled (ServiceFunction): one minified ES module,
 * `index.mjs`, with the AWS SDK inside it (no reliance on the runtime's copy) and a source map
 * without the sources, for Node 24. The SDK's schema modules go through `sdkSchemaModules`, so a
 * function carries only the schemas of the operations it calls and, for the clients listed in
 * `sdkErrorsThrown`, only the modeled errors those operations throw; the SDK's package.json files
 * come as their versions alone (`sdkPackageVersions`).
 */
export function functionBundleOptions(entry: string, outdir: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile: join(outdir, 'index.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: true,
    // Stack traces need the mappings only; leaving the sources out keeps the bundle small.
    sourcesContent: false,
    // CommonJS dependencies call `require`, which ES modules do not have.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    plugins: [sdkSchemaModules(sdkErrorsThrown), sdkPackageVersions()],
    logLevel: 'warning',
  };
}

/** Bundles one function's entry into `outdir`; prints what it wrote, as `cdk synth` shows bundling. */
export async function bundleFunction(entry: string, outdir: string): Promise<void> {
  const result = await build({ ...functionBundleOptions(entry, outdir), metafile: true });
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    process.stderr.write(`  ${file}  ${(output.bytes / 1024).toFixed(1)} KB\n`);
  }
}
