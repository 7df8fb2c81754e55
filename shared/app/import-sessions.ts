import type { Provider } from '../domain/engine/shapes/model';
import { ConflictError } from '../domain/errors';
import {
  type ImportSession,
  importStatus,
  type UsageState,
  wholeInputsVersion,
} from '../domain/usage/usage-state';
import type { AppContext, ImportedInputs } from './ports';

/**
 * Import sessions (docs/import.md, Sessions): an import owns each provider's usage state it
 * writes under, from its start to its end. A second import of the same org and provider is
 * refused while one is open, unless it takes the open one over; an import that stops without
 * ending (a killed process) holds its lease until it runs out, and the inputs it half-wrote never
 * count as current.
 */

/** How long an import may go without renewing its lease before it counts as abandoned. */
export const defaultImportLeaseMs = 300_000;

/** The share of the lease after which a writing import renews it. */
const RENEW_AFTER_LEASE_SHARE = 0.1;

/** Opening a state that changed between its read and the write is tried this often. */
const OPEN_ATTEMPTS = 3;

export interface ImportSessionOptions {
  /** Open even while another import of the provider is open: that one stops at its next write. */
  readonly takeOver?: boolean;
  readonly leaseMs?: number;
}

/** An open session of one provider: the usage version its writes carry, and how it stays alive and ends. */
export interface OpenImport {
  readonly provider: Provider;
  readonly sessionId: string;
  readonly usageVersion: number;
  /**
   * Renews the lease once a tenth of it has passed since the last renewal: called before every
   * group of writes (nothing once the session ended). A ConflictError when another import took
   * the provider over (this one stops).
   */
  keepAlive(): Promise<void>;
  /** Ends the session, recording what it stored; a ConflictError when it was taken over. */
  finish(imported: ImportedInputs | null): Promise<UsageState>;
  /**
   * Gives the session up at once after a failure this process saw: its lease ends now, so the
   * next import need not wait for it (its half-written inputs still do not count as current).
   */
  abandon(): Promise<void>;
}

/** Opens a session for each provider, in order; when one is refused, the ones opened are given up. */
export async function openImports(
  ctx: AppContext,
  orgId: string,
  providers: readonly Provider[],
  options: ImportSessionOptions = {},
): Promise<OpenImport[]> {
  const opened: OpenImport[] = [];
  try {
    for (const provider of providers) opened.push(await openImport(ctx, orgId, provider, options));
  } catch (error) {
    await abandonAll(opened);
    throw error;
  }
  return opened;
}

/** Gives up every session (after a failure), ignoring failures to do so: their leases run out anyway. */
export async function abandonAll(sessions: readonly OpenImport[]): Promise<void> {
  await Promise.all(sessions.map((session) => session.abandon().catch(() => undefined)));
}

/**
 * Runs `work` in a session of every provider: opened first (so that a refusal comes before any
 * write), given up when `work` fails. `work` finishes each session itself.
 */
export async function inImportSessions<T>(
  ctx: AppContext,
  orgId: string,
  providers: readonly Provider[],
  options: ImportSessionOptions,
  work: (sessions: readonly OpenImport[]) => Promise<T>,
): Promise<T> {
  const sessions = await openImports(ctx, orgId, providers, options);
  try {
    return await work(sessions);
  } catch (error) {
    await abandonAll(sessions);
    throw error;
  }
}

/**
 * Opens a session of the provider's usage state: refused with a ConflictError while another
 * session is open, unless `takeOver`. An abandoned session (lease run out) is replaced; the
 * version of the last whole inputs is carried over, since the abandoned import's inputs are not.
 */
export async function openImport(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  options: ImportSessionOptions = {},
): Promise<OpenImport> {
  const leaseMs = options.leaseMs ?? defaultImportLeaseMs;
  const sessionId = ctx.ids.uuid();
  for (let attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
    const state = await ctx.repos.usage.usageState(orgId, provider);
    const now = ctx.clock.now();
    const open = state?.importSession;
    if (open && importStatus(state, now) === 'open' && !options.takeOver) {
      throw new ConflictError(
        `An import of ${provider} data for organization ${orgId} is running (session ${open.sessionId}, ` +
          `started ${open.startedAt}, lease until ${open.expiresAt}); wait for it to end, ` +
          'or take it over (admin --take-over) if its process has stopped',
      );
    }
    const session: ImportSession = {
      sessionId,
      startedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + leaseMs).toISOString(),
      baseVersion: wholeInputsVersion(state),
    };
    const usageVersion = await ctx.repos.usage.openImport(orgId, provider, session, state?.version ?? null);
    if (usageVersion !== null) return sessionHandle(ctx, orgId, provider, sessionId, usageVersion, leaseMs);
    // The state changed between the read and the write (another import opened or ended): look again.
  }
  throw new ConflictError(
    `The ${provider} data of organization ${orgId} kept changing while this import began; run it again`,
  );
}

function sessionHandle(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  sessionId: string,
  usageVersion: number,
  leaseMs: number,
): OpenImport {
  let renewedAt = ctx.clock.now().getTime();
  let ended = false;
  const takenOver = () =>
    new ConflictError(
      `Another import of ${provider} data for organization ${orgId} took this one over; this one stopped`,
    );
  return {
    provider,
    sessionId,
    usageVersion,
    async keepAlive() {
      const now = ctx.clock.now().getTime();
      if (ended || now - renewedAt < leaseMs * RENEW_AFTER_LEASE_SHARE) return;
      const expiresAt = new Date(now + leaseMs).toISOString();
      if (!(await ctx.repos.usage.renewImport(orgId, provider, sessionId, expiresAt))) throw takenOver();
      renewedAt = now;
    },
    async finish(imported) {
      const at = ctx.clock.now().toISOString();
      const state = await ctx.repos.usage.finishImport(orgId, provider, sessionId, imported, at);
      ended = true;
      return state;
    },
    async abandon() {
      if (!ended)
        await ctx.repos.usage.renewImport(orgId, provider, sessionId, ctx.clock.now().toISOString());
    },
  };
}
