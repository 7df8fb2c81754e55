import { awsCatalogRefreshDependencies } from '../../shared/runtime/catalog-refresh';
import { createCatalogRefreshHandler } from './catalog-refresh-handler';

export const handler = createCatalogRefreshHandler(awsCatalogRefreshDependencies);
