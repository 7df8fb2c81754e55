import { secretHash } from '../../auth/oauth-secrets';
import type { SignInSession } from '../../domain/oauth/records';
import {
  checkDelaySeconds,
  codeCheckLimits,
  sourceCheckDelaySeconds,
} from '../../domain/oauth/sign-in-limits';
import type { ContextWith } from '../ports';

/**
 * Counts a code check against its paced limits (docs/oauth.md, "Limits"): by network address, by
 * session, then by the address checked, stopping at the first that says wait. The first check of
 * a fresh code passes the address's pacing while the address has fresh-code checks left today, so
 * a stranger's wrong checks from elsewhere cannot keep the holder of a new code out. Answers the
 * paced buckets it counted in (a right code gives them back), or null: wait.
 */
export async function withinCodeCheckLimits(
  ctx: ContextWith<'signIns'>,
  check: {
    readonly email: string;
    readonly sourceIp: string;
    readonly session: SignInSession;
    readonly freshCode: boolean;
    readonly now: Date;
    readonly day: { readonly index: number; readonly endsAt: string };
  },
): Promise<string[] | null> {
  const { day, now } = check;
  const pacing = {
    limit: codeCheckLimits.perAddressPerDay,
    now,
    delaySeconds: checkDelaySeconds,
    expiresAt: day.endsAt,
  };
  const counted: string[] = [];
  // A check refused by a later bucket gives back what the earlier ones counted.
  const refused = async () => {
    for (const bucket of counted) await ctx.repos.signIns.refundPacedEvent(bucket);
    return null;
  };
  const bySource = {
    limit: codeCheckLimits.perSourceIpPerDay,
    now,
    delaySeconds: sourceCheckDelaySeconds,
    expiresAt: day.endsAt,
  };
  for (const [bucket, paced] of [
    [`checks-ip:${secretHash(check.sourceIp)}:${day.index}`, bySource],
    [`checks-session:${check.session.sessionHash}:${day.index}`, pacing],
  ] as const) {
    if ((await ctx.repos.signIns.countPacedEvent(bucket, paced)) !== 'counted') return refused();
    counted.push(bucket);
  }
  const address = secretHash(check.email);
  if (
    check.freshCode &&
    (await ctx.repos.signIns.countRateEvent(
      `fresh-checks:${address}:${day.index}`,
      codeCheckLimits.freshCodeChecksPerAddressPerDay,
      day.endsAt,
    ))
  ) {
    return counted;
  }
  const addressBucket = `checks:${address}:${day.index}`;
  if ((await ctx.repos.signIns.countPacedEvent(addressBucket, pacing)) !== 'counted') return refused();
  return [...counted, addressBucket];
}
