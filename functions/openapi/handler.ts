import { buildOpenApiDocument } from '../../shared/contract/openapi';
import { openApiOperations } from '../../shared/contract/operations/openapi';
import { createGroupHandler } from '../../shared/http/group-handler';

/** Built once per container: the document only changes with a deployment. */
const document = buildOpenApiDocument();

/** The API described as OpenAPI 3.1, served publicly. */
export const handler = createGroupHandler(openApiOperations, {
  getOpenApiDocument: async () => document,
});
