import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { functionBundleOptions } from '../../lib/bundling/bundle-function';

/**
 * A test fixture bundled as every function is (lib/bundling/bundle-function.ts), and run as Lambda
 * loads it: in a fresh Node process, apart from the test's own copy of the SDK.
 */
export interface BundledFixture {
  /** Bytes each input file contributes to the bundle, by path. */
  readonly inputBytes: ReadonlyMap<string, number>;
  /** Imports the bundle in a fresh Node process, calls its exported `handler()` and returns its JSON result. */
  runHandler(): unknown;
}

export async function bundleFixture(entry: string, outdir: string): Promise<BundledFixture> {
  const result = await build({ ...functionBundleOptions(entry, outdir), metafile: true, logLevel: 'silent' });
  const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.mjs'))?.[1];
  const inputBytes = new Map(
    Object.entries(output?.inputs ?? {}).map(([path, input]) => [path, input.bytesInOutput]),
  );
  const bundle = pathToFileURL(join(outdir, 'index.mjs')).href;
  return {
    inputBytes,
    runHandler() {
      const script = `const { handler } = await import(${JSON.stringify(bundle)});
        process.stdout.write(JSON.stringify(await handler()));`;
      return JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
          encoding: 'utf8',
          env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        }),
      );
    },
  };
}
