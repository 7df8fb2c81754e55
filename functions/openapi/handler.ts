import { buildOpenApiDocument } from '../../shared/contract/openapi';
import { createGroupHandler } from '../../shared/http/group-handler';
import { implement } from '../../shared/http/operation';

/** Built once per container: the document only changes with a deployment. */
const document = buildOpenApiDocument();

/** The API described as OpenAPI 3.1, served publicly. */
export const handler = createGroupHandler('openapi', {
  getOpenApiDocument: implement('getOpenApiDocument', async () => document),
});
