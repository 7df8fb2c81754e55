// `npm run admin`: builds the operator CLI's bundle when its sources changed, then runs it
// (bin/admin-bundle.mjs).
import { pathToFileURL } from 'node:url';
import { ensureAdminBundle } from './admin-bundle.mjs';

await import(pathToFileURL(await ensureAdminBundle()).href);
