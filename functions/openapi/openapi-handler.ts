// The document generated from the contract by `npm run openapi`; a unit test fails when it drifts
// from the contract, so serving the file is serving the contract, without building it from every
// schema of the interface when the function starts.
import document from '../../docs/openapi.json' with { type: 'json' };
import { openApiOperations } from '../../shared/contract/operations/openapi';
import { createGroupHandler } from '../../shared/http/group-handler';

/**
 * The API described as OpenAPI 3.1, served publicly. The file names the local server in
 * `servers`; the served document names the deployment it comes from (`publicBaseUrl`, the API's
 * base URL).
 */
export function createOpenApiHandler(publicBaseUrl: () => string) {
  let served: Record<string, unknown> | undefined;
  return createGroupHandler(openApiOperations, {
    getOpenApiDocument: async () => {
      served ??= { ...document, servers: [{ url: publicBaseUrl(), description: 'This deployment' }] };
      return served;
    },
  });
}
