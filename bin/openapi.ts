import { writeFileSync } from 'node:fs';
import { renderOpenApiDocument } from '../shared/contract/openapi';

/** Writes docs/openapi.json from the contract (`npm run openapi`); a unit test fails when it is stale. */
const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, renderOpenApiDocument());
console.log(`wrote ${target.pathname}`);
