import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** The package.json of an AWS SDK package (`@aws-sdk/client-x/package.json`). */
const sdkPackageJson = /[\\/]node_modules[\\/]@aws-sdk[\\/][^\\/]+[\\/]package\.json$/;

/**
 * Bundles an AWS SDK package's package.json as its version alone. Each client imports its
 * package.json whole (`import packageInfo from "../package.json"`) to put `packageInfo.version` in
 * its user agent, and esbuild keeps all of a JSON module imported by default: scripts, dependencies,
 * keywords, in every client. The version is the only field the SDK reads;
 * test/infra/sdk-package-versions.test.ts holds every import of a package.json in the SDK to that.
 */
export function sdkPackageVersions(): Plugin {
  return {
    name: 'sdk-package-versions',
    setup(build) {
      build.onLoad({ filter: sdkPackageJson }, async ({ path }) => ({
        contents: versionOnly(await readFile(path, 'utf8')),
        loader: 'json',
      }));
    },
  };
}

/** The package.json's text with its version alone; a package.json without one stops the build. */
export function versionOnly(packageJson: string): string {
  const { version } = JSON.parse(packageJson) as { version?: unknown };
  if (typeof version !== 'string') throw new Error('an AWS SDK package.json without a version');
  return JSON.stringify({ version });
}
