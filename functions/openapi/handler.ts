import { awsPublicBaseUrl } from '../../shared/runtime/public-base-url';
import { createOpenApiHandler } from './openapi-handler';

export const handler = createOpenApiHandler(awsPublicBaseUrl);
