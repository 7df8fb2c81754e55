import { openLocalDynamo } from '../../local/store/local-dynamo';

/**
 * Opens the local engine of the directory given as argument from a separate process (as the
 * admin CLI does beside `npm start`), prints what it got as JSON and closes it again.
 */
const dir = process.argv[2];
if (!dir) throw new Error('usage: open-local-dynamo-process.ts <dir>');
const engine = await openLocalDynamo({ dir });
process.stdout.write(JSON.stringify({ endpoint: engine.endpoint, owned: engine.owned }));
await engine.close();
