import * as z from 'zod/mini';
import type { OperationList } from '../operation-contract';

/** The OpenAPI document of the whole interface. */
export const openApiOperations = {
  getOpenApiDocument: {
    method: 'GET',
    path: '/openapi.json',
    group: 'openapi',
    summary: 'This API described as an OpenAPI 3.1 document',
    tag: 'Documentation',
    public: true,
    responses: { 200: z.lazy(() => z.record(z.string(), z.unknown())) },
  },
} satisfies OperationList;
