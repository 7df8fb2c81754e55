import { createOpenApiHandler } from './openapi-handler';

export const handler = createOpenApiHandler();
