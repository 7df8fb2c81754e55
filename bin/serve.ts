/**
 * The local API server, the embedded default: `npm start` (`npm start -- --reset` wipes `.local/`).
 * Serves the route manifest through the very handlers and authorizer deployed to Lambda, on dynalite.
 */
import { parseArgs } from 'node:util';
import type { DemoCredentials } from '../local/demo-seed';
import { ListenError, startLocalApi } from '../local/local-api';
import { readLocalConfig, resetLocalData } from '../local/local-runtime';

const usage = `Usage: npm start [-- --reset] [-- --orgs-only]

Serves the API locally on http://HOST:PORT with its data under LOCAL_DIR. The first start seeds
a demo partner and customer, with 30 days of the customer's AWS and Azure usage and its plans.
  --reset       delete LOCAL_DIR (every local org, key and plan) before starting
  --orgs-only   seed the demo orgs and keys without usage (a faster, empty start)
Environment: PORT (default 3000), HOST (default 127.0.0.1), LOCAL_DIR (default .local)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { reset: { type: 'boolean' }, 'orgs-only': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const config = readLocalConfig(process.env);
  if (values.reset) {
    await resetLocalData(config.dir);
    console.log(`Reset: removed ${config.dir}`);
  }
  const api = await startLocalApi(config, { seedUsage: !values['orgs-only'] });
  printWelcome(api.credentials, api.credentialsPath, api.seeded);

  const stop = () => {
    void api.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function printWelcome(credentials: DemoCredentials, credentialsPath: string, firstStart: boolean): void {
  const { base_url: url, partner, org } = credentials;
  console.log(`Commitment planning service listening on ${url}
${firstStart ? 'Seeded the demo' : 'Demo data from an earlier start'} (credentials in ${credentialsPath}):
  partner org  ${partner.org_id}  x-api-key: ${partner.api_key}
  customer org ${org.org_id}  x-api-key: ${org.api_key}  (${org.user_email}, admin)

Register a customer org as the partner:
  curl -s -X POST ${url}/v2/partners/${partner.org_id}/orgs \\
    -H 'x-api-key: ${partner.api_key}' -H 'content-type: application/json' \\
    -d '{"name":"Acme Corp","users":[{"email":"ops@acme.example","role":"admin"}]}'

Set the customer's marketplace offer links:
  curl -s -X PATCH ${url}/v2/org/${org.org_id}/partners \\
    -H 'x-api-key: ${org.api_key}' -H 'content-type: application/json' \\
    -d '{"aws_marketplace_offer_link":"https://aws.amazon.com/marketplace/pp/prodview-example"}'
`);
}

// One line, never a stack trace: what failed and, where known, what to do (a port in use names PORT).
main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`npm start: ${error instanceof ListenError ? message : `failed: ${message}`}`);
  process.exit(1);
});
