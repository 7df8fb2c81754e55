// The local server (bin/serve.ts) from its bundle, built when its sources changed
// (bin/entry-bundle.mjs): what the end-to-end tests start, without tsx transpiling every source at
// each start (docs/testing.md). `npm start` runs bin/serve.ts with tsx, as before.
import { pathToFileURL } from 'node:url';
import { ensureServeBundle } from './entry-bundle.mjs';

await import(pathToFileURL(await ensureServeBundle()).href);
