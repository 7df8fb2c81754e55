import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { withRegisteredErrorsOnly } from './smithy-error-registry';
import { withPlainKeys } from './smithy-schema-keys';

/**
 * The schema modules of the AWS SDK clients (`@aws-sdk/client-x/dist-es/schemas/schemas_0.js`) and
 * of the clients inside `@aws-sdk/nested-clients` (`dist-es/submodules/sts/schemas/schemas_0.js`);
 * the first group is the package's name.
 */
const sdkSchemaModule =
  /[\\/]node_modules[\\/](@aws-sdk[\\/][^\\/]+)[\\/]dist-es[\\/](?:submodules[\\/][^\\/]+[\\/])?schemas[\\/][^\\/]+\.js$/;

/**
 * Rewrites the SDK's generated schema modules so that esbuild can leave out what a function never
 * uses: the schemas of commands it does not send (`withPlainKeys`), and for the clients in
 * `errorsThrown` (package name -> error names) the modeled errors its commands cannot throw
 * (`withRegisteredErrorsOnly`).
 */
export function sdkSchemaModules(errorsThrown: Readonly<Record<string, readonly string[]>>): Plugin {
  const kept = new Map(Object.entries(errorsThrown).map(([client, names]) => [client, new Set(names)]));
  return {
    name: 'sdk-schema-modules',
    setup(build) {
      build.onLoad({ filter: sdkSchemaModule }, async ({ path }) => {
        const client = sdkSchemaModule.exec(path)?.[1]?.replaceAll('\\', '/') ?? '';
        const plain = withPlainKeys(await readFile(path, 'utf8'));
        const errors = kept.get(client);
        return { contents: errors ? withRegisteredErrorsOnly(plain, errors) : plain, loader: 'js' };
      });
    },
  };
}
