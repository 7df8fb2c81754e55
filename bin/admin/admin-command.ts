import type { AppContext, PurchaseQueue } from '../../shared/app/ports';
import type { AwsUsageSources, AzureUsageSources } from '../../shared/app/ports/usage-sync';
import type { CatalogPlace } from '../../shared/app/stored-catalog';
import type { UsagePlanKeys } from '../../shared/auth/usage-plan-keys';
import type { Catalog } from '../../shared/domain/catalog/catalog';
import type { TableClient } from '../../shared/store/table-client';

/**
 * One entry of the operator CLI's command table (bin/admin/command-table.ts): what the help, the
 * usage lines and the parser are generated from, and what the command needs to run.
 */

/** A mistake in how the CLI was called: exit code 2, with the command's usage line. */
export class UsageError extends Error {}

/**
 * What the environment lacks for the command (a variable to set): exit code 2, like a usage
 * mistake, but the usage line would not help.
 */
export class SetupError extends UsageError {}

export interface OptionSpec {
  /** Without the leading `--`. */
  readonly name: string;
  /** What the value is, as the usage line shows it (`<org_id>`); absent: a flag without a value. */
  readonly value?: string;
  readonly required?: boolean;
  /** The values allowed; any other is refused naming them before the command runs. */
  readonly choices?: readonly string[];
  /** Refuses a malformed value (a UsageError) before the command opens its dependencies. */
  readonly check?: (value: string) => void;
  /** One line of help under the command; by default the choices, if any. */
  readonly help?: string;
}

/** A positional argument. */
export interface ArgumentSpec {
  /** As the usage line shows it (`<key_id>`). */
  readonly name: string;
  /** Refuses a malformed value (a UsageError) before the command opens its dependencies. */
  readonly check?: (value: string) => void;
}

/** What the parser hands a command: its options by name and its positional arguments. */
export interface CommandInput {
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  readonly args: readonly string[];
}

/** The store the CLI works on: the local one, or the deployed table named by TABLE_NAME. */
export interface AdminStore {
  readonly ctx: AppContext;
  /** The table the context stores in (the usage sync's state is read there too). */
  readonly table: TableClient;
}

/** The purchase pipeline a command sends to (docs/purchases.md). */
export interface AdminPurchasing {
  readonly ctx: AppContext & {
    readonly purchaseQueue: PurchaseQueue;
    readonly catalog: (places: Iterable<CatalogPlace>) => Promise<Catalog>;
  };
  /** Dead letters as the target has them (AWS: the DLQ; local: the stuck purchases). */
  deadLetters(): Promise<object[]>;
  redrive(): Promise<object>;
  /** Waits until what was sent is handled (locally), then stops. */
  finish(): Promise<void>;
}

/** The local simulated cloud (docs/onboarding.md): its directory and the service's AWS account. */
export interface SimulatedCloudTarget {
  readonly dir: string;
  readonly serviceAccountId: string;
}

/**
 * Everything a command may need, built by one of the two compositions (bin/admin/local-target.ts,
 * bin/admin/aws-target.ts), and only what the running command declares.
 */
export interface AdminDependencies {
  readonly store: AdminStore;
  /**
   * The deployed API's usage plan keys; null on the local store, whose server throttles by the
   * usage identifier alone (nothing to register).
   */
  readonly usagePlanKeys: UsagePlanKeys | null;
  readonly purchasing: AdminPurchasing;
  /** Where the usage sync reads: the simulated cloud locally, the customers' accounts on AWS. */
  readonly usageSources: { readonly aws: AwsUsageSources; readonly azure: AzureUsageSources };
  readonly simulatedCloud: SimulatedCloudTarget;
}

export type AdminNeed = keyof AdminDependencies;

export interface AdminCommand<N extends AdminNeed = AdminNeed> {
  /** One word, or two for a family with subcommands (`simulate-cloud aws`). */
  readonly name: string;
  /** What it does, for the help. */
  readonly summary: string;
  readonly args?: readonly ArgumentSpec[];
  readonly options: readonly OptionSpec[];
  readonly needs: readonly N[];
  run(dependencies: Pick<AdminDependencies, N>, input: CommandInput): Promise<object>;
}

/**
 * The order dependencies are built in: the ones that only check the environment first, so a
 * command missing a setting stops before it touches the store.
 */
const buildOrder: readonly AdminNeed[] = [
  'usagePlanKeys',
  'simulatedCloud',
  'store',
  'usageSources',
  'purchasing',
];

/** How a composition builds each dependency. */
export type DependencyBuilders = {
  readonly [K in AdminNeed]: () => AdminDependencies[K] | Promise<AdminDependencies[K]>;
};

/** Builds what a command declares it needs, and nothing else. */
export async function buildDependencies(
  needs: readonly AdminNeed[],
  builders: DependencyBuilders,
): Promise<AdminDependencies> {
  const built: Partial<Record<AdminNeed, unknown>> = {};
  for (const need of buildOrder) if (needs.includes(need)) built[need] = await builders[need]();
  // Only the declared ones: a command's `run` is typed to read no other (defineCommand).
  return built as AdminDependencies;
}

/** What a composition opens for one command: its dependencies, and how to close them. */
export interface AdminTarget {
  readonly dependencies: AdminDependencies;
  close(): Promise<void>;
}

/** Types a table entry by the dependencies it declares, so `run` can use only those. */
export function defineCommand<N extends AdminNeed>(command: AdminCommand<N>): AdminCommand {
  return command;
}

/** The option's value, trimmed; refused when absent or blank. */
export function required(options: CommandInput['options'], name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** The option's value when given. */
export function optional(options: CommandInput['options'], name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}
