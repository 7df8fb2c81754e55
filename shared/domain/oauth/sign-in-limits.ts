/**
 * How much the sign-in pages let anyone try (docs/oauth.md, "Limits"). Code requests are counted
 * by who asks (network address, browser session, and the pair of network address and address
 * asked for) and by the address asked for, in fixed one-hour windows; the per-address ceiling is
 * above what one requester may ask for that address, so a stranger cannot use up a victim's codes.
 * Code checks are counted per UTC day by who checks (network address, browser session) and by
 * the address checked: the first few are free, each later one opens only after a delay that
 * doubles, and the day's checks are capped. So that a stranger's wrong checks cannot lock a person
 * out of their own address, the first check of a freshly mailed code is exempt from the address's
 * pacing (not from the checker's), a few times a day per address.
 */

/** Codes that may be asked for in one window, by each key. */
export const codeRequestLimits = {
  windowSeconds: 3600,
  /** From one network address, for any addresses. */
  perSourceIp: 30,
  /** From one browser session. */
  perSession: 10,
  /** From one network address for one e-mail address. */
  perSourceIpAndAddress: 5,
  /** For one e-mail address, from anyone: a ceiling against mail floods, above `perSourceIpAndAddress`. */
  perAddress: 30,
} as const;

/**
 * Code checks in one UTC day, paced alike for one address and one browser session; one network
 * address, which a whole office may share behind NAT, gets more before the same doubling delays.
 */
export const codeCheckLimits = {
  windowSeconds: 86_400,
  /** Checks a day that wait for nothing (a user mistyping). */
  free: 5,
  /** Checks a day at most, whatever the delays, for each address (and each session). */
  perAddressPerDay: 20,
  /** Checks a day from one network address that wait for nothing. */
  perSourceIpFree: 50,
  /** Checks a day at most from one network address. */
  perSourceIpPerDay: 500,
  /** The longest wait between two checks. */
  maxDelaySeconds: 3600,
  /**
   * First checks of a fresh code a day, per address, let through whatever the address's pacing
   * says: the holder of a newly mailed code can always try it, and the guesses these add to the
   * address's 20 stay few (each needs a new code, mailed to the address's owner).
   */
  freshCodeChecksPerAddressPerDay: 10,
} as const;

/**
 * How long after a check the next check of the same address opens, given the checks made today
 * before it (`checksBefore`): none within the free ones, then 1 s, 2 s, 4 s... up to an hour.
 */
export function checkDelaySeconds(checksBefore: number): number {
  return doublingDelaySeconds(checksBefore, codeCheckLimits.free);
}

/** The same for the checks from one network address, past its larger free allowance. */
export function sourceCheckDelaySeconds(checksBefore: number): number {
  return doublingDelaySeconds(checksBefore, codeCheckLimits.perSourceIpFree);
}

function doublingDelaySeconds(checksBefore: number, free: number): number {
  if (checksBefore < free - 1) return 0;
  return Math.min(2 ** (checksBefore - (free - 1)), codeCheckLimits.maxDelaySeconds);
}

/** The fixed window of `windowSeconds` that holds `now`: its number and when it ends. */
export function fixedWindow(
  now: Date,
  windowSeconds: number,
): { readonly index: number; readonly endsAt: string } {
  const index = Math.floor(now.getTime() / 1000 / windowSeconds);
  return { index, endsAt: new Date((index + 1) * windowSeconds * 1000).toISOString() };
}
