// `npm run admin`: builds the operator CLI's bundle when its sources changed, then runs it
// (bin/entry-bundle.mjs).
import { pathToFileURL } from 'node:url';
import { ensureAdminBundle } from './entry-bundle.mjs';

await import(pathToFileURL(await ensureAdminBundle()).href);
