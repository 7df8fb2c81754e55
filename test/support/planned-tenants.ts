import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { admin, type CreatedKey, type CreatedOrg, type CreatedPartner } from './admin-cli';
import type { LocalServer } from './local-server';
import { lookbackStart, plannedCommitments, plannedUsage } from './planned-customer-usage';
import { usageLines } from './usage-files';

/** Who asks: an org and an API key of it. */
export interface Caller {
  readonly orgId: string;
  readonly apiKey: string;
}

/**
 * The tenants the plan test files read (test/support/planned-customer.ts), on a local server
 * started with `--orgs-only`: plain JSON, as the run's server broker hands them to every file.
 */
export interface PlannedTenants {
  /** The server's base URL and its LOCAL_DIR. */
  readonly server: Pick<LocalServer, 'baseUrl' | 'dir'>;
  /** The demo partner, and its customer org (an admin's key) holding the usage. */
  readonly partner: Caller;
  readonly customer: Caller;
  /** A child org of the demo partner without any usage. */
  readonly emptyOrgId: string;
  /** Callers of other tenants: a partner of its own, and a user of an org of its own. */
  readonly otherPartner: Caller;
  readonly otherUser: Caller;
}

/**
 * Makes the tenants through the operator CLI on `server`'s store: a customer of the demo partner
 * holding the usage and commitments of planned-customer-usage.ts (whose imports compute the
 * plans), an empty child org, another partner, and an org of its own with an admin.
 */
export async function plannedTenants(server: LocalServer): Promise<PlannedTenants> {
  const { partner: demoPartner } = server.credentials;
  const partner = { orgId: demoPartner.org_id, apiKey: demoPartner.api_key };
  const usageFile = join(server.dir, 'usage.csv');
  const commitmentFile = join(server.dir, 'commitments.csv');
  await writeFile(usageFile, `${usageLines(lookbackStart, 720, plannedUsage).join('\n')}\n`);
  await writeFile(commitmentFile, `${plannedCommitments.join('\n')}\n`);
  // A customer of its own: the set-up controls every row of it.
  const [planned, empty, otherPartner, lonelyOrg] = await Promise.all([
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Plans Customer', '--partner', partner.orgId]),
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Empty Customer', '--partner', partner.orgId]),
    admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Other Partner']),
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Other Company']),
  ]);
  const [plannedKey, otherKey] = await Promise.all([
    adminKeyOf(server, planned.org_id, 'finops@plans-customer.example'),
    adminKeyOf(server, lonelyOrg.org_id, 'ops@other.example'),
    admin(server.dir, ['import-usage', '--org', planned.org_id, '--file', usageFile]),
  ]);
  await admin(server.dir, ['import-commitments', '--org', planned.org_id, '--file', commitmentFile]);
  return {
    server: { baseUrl: server.baseUrl, dir: server.dir },
    partner,
    customer: { orgId: planned.org_id, apiKey: plannedKey.api_key },
    emptyOrgId: empty.org_id,
    otherPartner: { orgId: otherPartner.org_id, apiKey: otherPartner.api_key },
    otherUser: { orgId: lonelyOrg.org_id, apiKey: otherKey.api_key },
  };
}

function adminKeyOf(server: LocalServer, orgId: string, email: string): Promise<CreatedKey> {
  return admin<CreatedKey>(server.dir, ['create-key', '--org', orgId, '--email', email, '--role', 'admin']);
}
