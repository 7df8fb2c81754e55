import type { AdminCommand } from './admin-command';
import { azureTenantCommands } from './azure-tenant-commands';
import { refreshCatalogCommand } from './catalog-command';
import { chartCommand } from './chart-command';
import { coverageCommand } from './coverage-command';
import { importCommands } from './import-commands';
import { oauthClientCommands } from './oauth-client-commands';
import { orgCommands } from './org-commands';
import { purchaseCommands } from './purchase-commands';
import { simulateCloudCommands } from './simulate-cloud-commands';
import { syncCommand } from './sync-command';

/**
 * Every command of the operator CLI, in the order the help lists them: the help, each command's
 * usage line and the parser are generated from this table.
 */
export const commandTable: readonly AdminCommand[] = [
  ...orgCommands,
  ...purchaseCommands,
  ...oauthClientCommands,
  ...importCommands,
  ...azureTenantCommands,
  syncCommand,
  chartCommand,
  refreshCatalogCommand,
  coverageCommand,
  ...simulateCloudCommands,
];
